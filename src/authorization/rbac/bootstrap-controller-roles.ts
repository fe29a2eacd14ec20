/**
 * The controllers' ClusterRoles of upstream 1.33 (plugin/pkg/auth/authorizer/rbac/
 * bootstrappolicy/controller_policy.go, with 1.33's default feature gates: the service CIDRs
 * controller (MultiCIDRServiceAllocator, GA) and the SELinux warning controller
 * (SELinuxChangePolicy, beta) are in; the resource claim, device taint, volume attributes class
 * protection, cluster trust bundle publisher, storage version GC and migrator controllers are
 * not). Each `system:controller:<name>` role is bound by a ClusterRoleBinding of the same name
 * to the service account `<name>` in kube-system, which kube-controller-manager runs with
 * `--use-service-account-credentials`.
 */
import type { ClusterRole, ClusterRoleBinding, PolicyRule } from '../../resources/rbac/rbac.schema.js';
import {
  READ,
  clusterRole,
  clusterRoleBinding,
  core,
  eventsRule,
  rule,
  serviceAccountSubject,
} from './bootstrap-rules.js';
import { MORE_CONTROLLERS } from './bootstrap-controller-rules.js';

export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

const APPS = 'apps';
const EXT = 'extensions';
const BATCH = 'batch';
const STORAGE = 'storage.k8s.io';

/** Every controller with its rules (upstream's order), the events rule added where upstream adds it. */
const CONTROLLERS: readonly [string, PolicyRule[]][] = [
  [
    'attachdetach-controller',
    [
      core(['persistentvolumes', 'persistentvolumeclaims'], ['list', 'watch']),
      core(['nodes'], READ),
      core(['nodes/status'], ['patch', 'update']),
      core(['pods'], ['list', 'watch']),
      eventsRule(),
      rule([STORAGE], ['volumeattachments'], ['get', 'create', 'delete', 'list', 'watch']),
      rule([STORAGE], ['csidrivers'], READ),
      rule([STORAGE], ['csinodes'], READ),
    ],
  ],
  [
    'clusterrole-aggregation-controller',
    [rule(['rbac.authorization.k8s.io'], ['clusterroles'], ['escalate', 'get', 'list', 'watch', 'update', 'patch'])],
  ],
  [
    'cronjob-controller',
    [
      rule([BATCH], ['cronjobs'], [...READ, 'update']),
      rule([BATCH], ['jobs'], [...READ, 'create', 'update', 'delete', 'patch']),
      rule([BATCH], ['cronjobs/status'], ['update']),
      rule([BATCH], ['cronjobs/finalizers'], ['update']),
      core(['pods'], ['list', 'watch', 'delete']),
      eventsRule(),
    ],
  ],
  [
    'daemon-set-controller',
    [
      rule([EXT, APPS], ['daemonsets'], READ),
      rule([EXT, APPS], ['daemonsets/status'], ['update']),
      rule([EXT, APPS], ['daemonsets/finalizers'], ['update']),
      core(['nodes'], ['list', 'watch']),
      core(['pods'], ['list', 'watch', 'create', 'delete', 'patch']),
      core(['pods/binding'], ['create']),
      rule([APPS], ['controllerrevisions'], [...READ, 'create', 'delete', 'update', 'patch']),
      eventsRule(),
    ],
  ],
  [
    'deployment-controller',
    [
      rule([EXT, APPS], ['deployments'], [...READ, 'update']),
      rule([EXT, APPS], ['deployments/status'], ['update']),
      rule([EXT, APPS], ['deployments/finalizers'], ['update']),
      rule([APPS, EXT], ['replicasets'], [...READ, 'create', 'update', 'patch', 'delete']),
      core(['pods'], [...READ, 'update']),
      eventsRule(),
    ],
  ],
  [
    'disruption-controller',
    [
      rule([EXT, APPS], ['deployments'], READ),
      rule([APPS, EXT], ['replicasets'], READ),
      core(['replicationcontrollers'], READ),
      rule(['policy'], ['poddisruptionbudgets'], READ),
      rule([APPS], ['statefulsets'], READ),
      rule(['policy'], ['poddisruptionbudgets/status'], ['update']),
      core(['pods/status'], ['patch', 'update']),
      rule(['*'], ['*/scale'], ['get']),
      eventsRule(),
    ],
  ],
  [
    'endpoint-controller',
    [
      core(['services', 'pods'], READ),
      core(['endpoints'], [...READ, 'create', 'update', 'delete']),
      core(['endpoints/restricted'], ['create']),
      eventsRule(),
    ],
  ],
  [
    'endpointslice-controller',
    [
      core(['services', 'pods', 'nodes'], READ),
      core(['services/finalizers'], ['update']),
      rule(['discovery.k8s.io'], ['endpointslices'], [...READ, 'create', 'update', 'delete']),
      eventsRule(),
    ],
  ],
  [
    'endpointslicemirroring-controller',
    [
      core(['services', 'endpoints'], READ),
      core(['services/finalizers'], ['update']),
      core(['endpoints/finalizers'], ['update']),
      rule(['discovery.k8s.io'], ['endpointslices'], [...READ, 'create', 'update', 'delete']),
      eventsRule(),
    ],
  ],
  [
    'expand-controller',
    [
      core(['persistentvolumes'], [...READ, 'update', 'patch']),
      core(['persistentvolumeclaims/status'], ['update', 'patch']),
      core(['persistentvolumeclaims'], READ),
      eventsRule(),
      core(['services'], ['get']),
    ],
  ],
  [
    'ephemeral-volume-controller',
    [
      core(['pods'], READ),
      core(['pods/finalizers'], ['update']),
      core(['persistentvolumeclaims'], [...READ, 'create']),
      eventsRule(),
    ],
  ],
  ['generic-garbage-collector', [rule(['*'], ['*'], [...READ, 'patch', 'update', 'delete']), eventsRule()]],
  [
    'horizontal-pod-autoscaler',
    [
      rule(['autoscaling'], ['horizontalpodautoscalers'], READ),
      rule(['autoscaling'], ['horizontalpodautoscalers/status'], ['update']),
      rule(['*'], ['*/scale'], ['get', 'update']),
      core(['pods'], ['list', 'watch']),
      rule(['metrics.k8s.io'], ['pods'], ['list', 'watch']),
      rule(['custom.metrics.k8s.io'], ['*'], READ),
      rule(['external.metrics.k8s.io'], ['*'], READ),
      eventsRule(),
    ],
  ],
  [
    'job-controller',
    [
      rule([BATCH], ['jobs'], [...READ, 'update', 'patch']),
      rule([BATCH], ['jobs/status'], ['update']),
      rule([BATCH], ['jobs/finalizers'], ['update']),
      core(['pods'], ['list', 'watch', 'create', 'delete', 'patch']),
      eventsRule(),
    ],
  ],
  [
    'namespace-controller',
    [
      core(['namespaces'], [...READ, 'delete']),
      core(['namespaces/finalize', 'namespaces/status'], ['update']),
      rule(['*'], ['*'], [...READ, 'delete', 'deletecollection']),
    ],
  ],
  [
    'node-controller',
    [
      core(['nodes'], [...READ, 'update', 'delete', 'patch']),
      core(['nodes/status'], ['patch', 'update']),
      core(['pods/status'], ['patch', 'update']),
      core(['pods'], [...READ, 'delete']),
      eventsRule(),
    ],
  ],
  [
    'persistent-volume-binder',
    [
      core(['persistentvolumes'], [...READ, 'update', 'create', 'delete']),
      core(['persistentvolumes/status'], ['update']),
      core(['persistentvolumeclaims'], [...READ, 'update']),
      core(['persistentvolumeclaims/status'], ['update']),
      core(['pods'], [...READ, 'create', 'delete']),
      rule([STORAGE], ['storageclasses'], READ),
      core(['nodes'], ['list', 'watch']),
      eventsRule(),
      core(['events'], ['watch']),
      core(['services'], ['get']),
    ],
  ],
  [
    'pod-garbage-collector',
    [core(['pods'], ['list', 'watch', 'delete']), core(['nodes'], READ), core(['pods/status'], ['patch'])],
  ],
  [
    'replicaset-controller',
    [
      rule([APPS, EXT], ['replicasets'], [...READ, 'update']),
      rule([APPS, EXT], ['replicasets/status'], ['update']),
      rule([APPS, EXT], ['replicasets/finalizers'], ['update']),
      core(['pods'], ['list', 'watch', 'patch', 'create', 'delete']),
      eventsRule(),
    ],
  ],
  [
    'replication-controller',
    [
      core(['replicationcontrollers'], [...READ, 'update']),
      core(['replicationcontrollers/status'], ['update']),
      core(['replicationcontrollers/finalizers'], ['update']),
      core(['pods'], ['list', 'watch', 'patch', 'create', 'delete']),
      eventsRule(),
    ],
  ],
  ...MORE_CONTROLLERS,
];

/** The controllers' ClusterRoles. */
export const CONTROLLER_CLUSTER_ROLES: readonly ClusterRole[] = CONTROLLERS.map(([name, rules]) =>
  clusterRole(CONTROLLER_ROLE_PREFIX + name, rules),
);

/** Each controller's role bound to its service account in kube-system. */
export const CONTROLLER_CLUSTER_ROLE_BINDINGS: readonly ClusterRoleBinding[] = CONTROLLERS.map(([name]) =>
  clusterRoleBinding(CONTROLLER_ROLE_PREFIX + name, [serviceAccountSubject('kube-system', name)]),
);
