/**
 * The bootstrap policy (upstream plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go,
 * today's rules, for the resources served here; the namespace roles cover apps, batch,
 * autoscaling, extensions, policy, networking and endpoint slices as upstream's do): cluster-admin (bound to group system:masters), admin, edit
 * and view (aggregated from the system:aggregate-to-* roles), system:discovery,
 * system:basic-user, system:public-info-viewer, system:monitoring (Prometheus' group) and
 * system:service-account-issuer-discovery.
 * Every object carries upstream's label
 * `kubernetes.io/bootstrapping: rbac-defaults` and annotation
 * `rbac.authorization.kubernetes.io/autoupdate: "true"`. RBAC's own kinds and the review APIs
 * are listed under upstream's group names and ours, since both are served.
 */
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Subject } from '../../resources/rbac/rbac.schema.js';

export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
const LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const ANNOTATIONS = { [AUTOUPDATE_ANNOTATION]: 'true' };
const AGGREGATE = (to: string) => `rbac.authorization.k8s.io/aggregate-to-${to}`;

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const RBAC_GROUPS = ['rbac.authorization.k8s.io', 'rbac.authorization.ck.io'];
const AUTHORIZATION_GROUPS = ['authorization.k8s.io', 'authorization.ck.io'];
const AUTHENTICATION_GROUPS = ['authentication.k8s.io', 'authentication.ck.io'];

const core = (resources: string[], verbs: string[]): PolicyRule => ({ apiGroups: [''], resources, verbs });
const rule = (apiGroups: string[], resources: string[], verbs: string[]): PolicyRule => ({
  apiGroups,
  resources,
  verbs,
});
/** Groups whose resources the namespace roles cover (upstream's names; ours beside them where the spec names one). */
const NETWORKING_GROUPS = ['networking.k8s.io', 'networking.ck.io'];

function clusterRole(
  name: string,
  rules: PolicyRule[],
  labels: Record<string, string> = {},
  aggregateFrom?: string,
): ClusterRole {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels: { ...LABELS, ...labels }, annotations: ANNOTATIONS },
    ...(aggregateFrom
      ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [AGGREGATE(aggregateFrom)]: 'true' } }] } }
      : {}),
    rules,
  };
}

function clusterRoleBinding(name: string, role: string, groups: string[]): ClusterRoleBinding {
  const subjects: Subject[] = groups.map((g) => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: g }));
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: LABELS, annotations: ANNOTATIONS },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects,
  };
}

/** The bootstrap ClusterRoles (aggregated ones with empty rules: the aggregation controller fills them). */
export const BOOTSTRAP_CLUSTER_ROLES: readonly ClusterRole[] = [
  clusterRole('cluster-admin', [
    { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
    { nonResourceURLs: ['*'], verbs: ['*'] },
  ]),
  clusterRole('system:discovery', [
    {
      nonResourceURLs: [
        '/api',
        '/api/*',
        '/apis',
        '/apis/*',
        '/healthz',
        '/livez',
        '/openapi',
        '/openapi/*',
        '/readyz',
        '/version',
        '/version/',
      ],
      verbs: ['get'],
    },
  ]),
  clusterRole('system:basic-user', [
    {
      apiGroups: AUTHORIZATION_GROUPS,
      resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
      verbs: ['create'],
    },
    { apiGroups: AUTHENTICATION_GROUPS, resources: ['selfsubjectreviews'], verbs: ['create'] },
  ]),
  clusterRole('system:public-info-viewer', [
    { nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: ['get'] },
  ]),
  clusterRole('system:monitoring', [
    {
      nonResourceURLs: [
        '/healthz',
        '/healthz/*',
        '/livez',
        '/livez/*',
        '/metrics',
        '/metrics/slis',
        '/readyz',
        '/readyz/*',
      ],
      verbs: ['get'],
    },
  ]),
  clusterRole('system:service-account-issuer-discovery', [
    {
      nonResourceURLs: [
        '/.well-known/openid-configuration',
        '/.well-known/openid-configuration/',
        '/openid/v1/jwks',
        '/openid/v1/jwks/',
      ],
      verbs: ['get'],
    },
  ]),
  clusterRole('admin', [], {}, 'admin'),
  clusterRole('edit', [], { [AGGREGATE('admin')]: 'true' }, 'edit'),
  clusterRole('view', [], { [AGGREGATE('edit')]: 'true' }, 'view'),
  clusterRole(
    'system:aggregate-to-admin',
    [
      { apiGroups: RBAC_GROUPS, resources: ['rolebindings', 'roles'], verbs: [...WRITE, ...READ] },
      { apiGroups: AUTHORIZATION_GROUPS, resources: ['localsubjectaccessreviews'], verbs: ['create'] },
    ],
    { [AGGREGATE('admin')]: 'true' },
  ),
  clusterRole(
    'system:aggregate-to-edit',
    [
      core(['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'], READ),
      core(['serviceaccounts'], ['impersonate']),
      core(['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], WRITE),
      core(['serviceaccounts/token'], ['create']),
      core(['pods/eviction'], ['create']),
      rule(
        ['apps'],
        [
          'daemonsets',
          'deployments',
          'deployments/rollback',
          'deployments/scale',
          'replicasets',
          'replicasets/scale',
          'statefulsets',
          'statefulsets/scale',
        ],
        WRITE,
      ),
      rule(['autoscaling'], ['horizontalpodautoscalers'], WRITE),
      rule(['batch'], ['cronjobs', 'jobs'], WRITE),
      rule(
        ['extensions'],
        [
          'daemonsets',
          'deployments',
          'deployments/rollback',
          'deployments/scale',
          'ingresses',
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicationcontrollers/scale',
        ],
        WRITE,
      ),
      rule(['policy'], ['poddisruptionbudgets'], WRITE),
      rule(NETWORKING_GROUPS, ['ingresses', 'networkpolicies'], WRITE),
      core(
        [
          'configmaps',
          'endpoints',
          'persistentvolumeclaims',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'secrets',
          'serviceaccounts',
          'services',
          'services/proxy',
        ],
        WRITE,
      ),
    ],
    { [AGGREGATE('edit')]: 'true' },
  ),
  clusterRole(
    'system:aggregate-to-view',
    [
      core(
        [
          'configmaps',
          'endpoints',
          'persistentvolumeclaims',
          'persistentvolumeclaims/status',
          'pods',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/status',
        ],
        READ,
      ),
      core(
        [
          'bindings',
          'events',
          'limitranges',
          'namespaces/status',
          'pods/log',
          'pods/status',
          'replicationcontrollers/status',
          'resourcequotas',
          'resourcequotas/status',
        ],
        READ,
      ),
      core(['namespaces'], READ),
      rule(['discovery.k8s.io'], ['endpointslices'], READ),
      rule(
        ['apps'],
        [
          'controllerrevisions',
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'statefulsets',
          'statefulsets/scale',
          'statefulsets/status',
        ],
        READ,
      ),
      rule(['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], READ),
      rule(['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], READ),
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
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'replicationcontrollers/scale',
        ],
        READ,
      ),
      rule(['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status'], READ),
      rule(NETWORKING_GROUPS, ['ingresses', 'ingresses/status', 'networkpolicies'], READ),
    ],
    { [AGGREGATE('view')]: 'true' },
  ),
];

/** The bootstrap ClusterRoleBindings. */
export const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: readonly ClusterRoleBinding[] = [
  clusterRoleBinding('cluster-admin', 'cluster-admin', ['system:masters']),
  clusterRoleBinding('system:discovery', 'system:discovery', ['system:authenticated']),
  clusterRoleBinding('system:basic-user', 'system:basic-user', ['system:authenticated']),
  clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [
    'system:authenticated',
    'system:unauthenticated',
  ]),
  clusterRoleBinding('system:monitoring', 'system:monitoring', ['system:monitoring']),
  clusterRoleBinding('system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [
    'system:serviceaccounts',
  ]),
];
