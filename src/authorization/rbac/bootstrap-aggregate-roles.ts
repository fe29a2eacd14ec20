/**
 * admin, edit and view, and the system:aggregate-to-* roles they aggregate (upstream 1.33
 * policy.go): view reads what is not secret nor escalating, edit writes workloads, services,
 * config, secrets, events and leases (not endpoints, since 1.22), admin adds roles and their
 * bindings. Groups we also serve under a `*.ck.io` name are listed under both (bootstrap-rules.ts).
 */
import type { ClusterRole } from '../../resources/rbac/rbac.schema.js';
import { READ, READ_WRITE, WRITE, aggregateLabel, clusterRole, core, rule } from './bootstrap-rules.js';

const to = (role: string) => ({ [aggregateLabel(role)]: 'true' });

/** admin, edit and view (empty: the aggregation controller fills them) and what they aggregate. */
export const AGGREGATED_CLUSTER_ROLES: readonly ClusterRole[] = [
  clusterRole('admin', [], {}, 'admin'),
  clusterRole('edit', [], to('admin'), 'edit'),
  clusterRole('view', [], to('edit'), 'view'),
  clusterRole(
    'system:aggregate-to-admin',
    [
      rule(['authorization.k8s.io'], ['localsubjectaccessreviews'], ['create']),
      rule(['rbac.authorization.k8s.io'], ['roles', 'rolebindings'], READ_WRITE),
    ],
    to('admin'),
  ),
  clusterRole(
    'system:aggregate-to-edit',
    [
      core(['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy'], READ),
      core(['serviceaccounts'], ['impersonate']),
      core(['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward'], WRITE),
      core(['pods/eviction'], ['create']),
      core(
        [
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/proxy',
          'persistentvolumeclaims',
          'configmaps',
          'secrets',
          'events',
        ],
        WRITE,
      ),
      core(['serviceaccounts/token'], ['create']),
      rule(
        ['apps'],
        [
          'statefulsets',
          'statefulsets/scale',
          'daemonsets',
          'deployments',
          'deployments/scale',
          'deployments/rollback',
          'replicasets',
          'replicasets/scale',
        ],
        WRITE,
      ),
      rule(['autoscaling'], ['horizontalpodautoscalers'], WRITE),
      rule(['batch'], ['jobs', 'cronjobs'], WRITE),
      rule(
        ['extensions'],
        [
          'daemonsets',
          'deployments',
          'deployments/scale',
          'deployments/rollback',
          'ingresses',
          'replicasets',
          'replicasets/scale',
          'replicationcontrollers/scale',
          'networkpolicies',
        ],
        WRITE,
      ),
      rule(['policy'], ['poddisruptionbudgets'], WRITE),
      rule(['networking.k8s.io'], ['networkpolicies', 'ingresses'], WRITE),
      rule(['coordination.k8s.io'], ['leases'], READ_WRITE),
    ],
    to('edit'),
  ),
  clusterRole(
    'system:aggregate-to-view',
    [
      core(
        [
          'pods',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/status',
          'endpoints',
          'persistentvolumeclaims',
          'persistentvolumeclaims/status',
          'configmaps',
        ],
        READ,
      ),
      core(
        [
          'limitranges',
          'resourcequotas',
          'bindings',
          'events',
          'pods/status',
          'resourcequotas/status',
          'namespaces/status',
          'replicationcontrollers/status',
          'pods/log',
        ],
        READ,
      ),
      core(['namespaces'], READ),
      rule(['discovery.k8s.io'], ['endpointslices'], READ),
      rule(
        ['apps'],
        [
          'controllerrevisions',
          'statefulsets',
          'statefulsets/status',
          'statefulsets/scale',
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/status',
          'deployments/scale',
          'replicasets',
          'replicasets/status',
          'replicasets/scale',
        ],
        READ,
      ),
      rule(['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], READ),
      rule(['batch'], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status'], READ),
      rule(
        ['extensions'],
        [
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'ingresses',
          'ingresses/status',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'replicationcontrollers/scale',
          'networkpolicies',
        ],
        READ,
      ),
      rule(['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status'], READ),
      rule(['networking.k8s.io'], ['networkpolicies', 'ingresses', 'ingresses/status'], READ),
    ],
    to('view'),
  ),
];
