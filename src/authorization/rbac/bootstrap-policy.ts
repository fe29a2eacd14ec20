/**
 * The bootstrap policy of upstream 1.33 (plugin/pkg/auth/authorizer/rbac/bootstrappolicy:
 * policy.go, controller_policy.go, namespace_policy.go; the golden files under its testdata
 * show the result): the roles here (cluster-admin, discovery, basic-user, public-info-viewer,
 * monitoring, service-account-issuer-discovery, admin/edit/view aggregated from the
 * system:aggregate-to-* roles), the other system roles (bootstrap-system-roles.ts), the
 * controllers' roles (bootstrap-controller-roles.ts), the namespaced roles
 * (bootstrap-namespace-roles.ts) and every binding. Every object carries upstream's label
 * `kubernetes.io/bootstrapping: rbac-defaults` and annotation
 * `rbac.authorization.kubernetes.io/autoupdate: "true"`. A group also served under our
 * `*.ck.io` name is listed under both names (bootstrap-rules.ts). reconcile.ts keeps them.
 */
import type { ClusterRole, ClusterRoleBinding } from '../../resources/rbac/rbac.schema.js';
import { AGGREGATED_CLUSTER_ROLES } from './bootstrap-aggregate-roles.js';
import { CONTROLLER_CLUSTER_ROLE_BINDINGS, CONTROLLER_CLUSTER_ROLES } from './bootstrap-controller-roles.js';
import {
  clusterRole,
  clusterRoleBinding,
  groupSubject,
  rule,
  serviceAccountSubject,
  urls,
  userSubject,
} from './bootstrap-rules.js';
import { SYSTEM_CLUSTER_ROLES } from './bootstrap-system-roles.js';

export { AUTOUPDATE_ANNOTATION } from './bootstrap-rules.js';
export { BOOTSTRAP_ROLE_BINDINGS, BOOTSTRAP_ROLES } from './bootstrap-namespace-roles.js';

const AUTHZ = 'authorization.k8s.io';

const DISCOVERY_ROLES: readonly ClusterRole[] = [
  clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
  clusterRole('system:discovery', [
    urls(
      [
        '/livez',
        '/readyz',
        '/healthz',
        '/version',
        '/version/',
        '/openapi',
        '/openapi/*',
        '/api',
        '/api/*',
        '/apis',
        '/apis/*',
      ],
      ['get'],
    ),
  ]),
  clusterRole('system:monitoring', [
    urls(
      ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'],
      ['get'],
    ),
  ]),
  clusterRole('system:basic-user', [
    rule([AUTHZ], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], ['create']),
    rule(['authentication.k8s.io'], ['selfsubjectreviews'], ['create']),
  ]),
  clusterRole('system:public-info-viewer', [urls(['/livez', '/readyz', '/healthz', '/version', '/version/'], ['get'])]),
  clusterRole('system:service-account-issuer-discovery', [
    urls(
      [
        '/.well-known/openid-configuration',
        '/.well-known/openid-configuration/',
        '/openid/v1/jwks',
        '/openid/v1/jwks/',
      ],
      ['get'],
    ),
  ]),
];

/** The bootstrap ClusterRoles (31 of policy.go, then the controllers'). */
export const BOOTSTRAP_CLUSTER_ROLES: readonly ClusterRole[] = [
  ...DISCOVERY_ROLES,
  ...AGGREGATED_CLUSTER_ROLES,
  ...SYSTEM_CLUSTER_ROLES,
  ...CONTROLLER_CLUSTER_ROLES,
];

/** The ClusterRoleBindings of policy.go (upstream's order). */
const POLICY_BINDINGS: readonly ClusterRoleBinding[] = [
  clusterRoleBinding('cluster-admin', [groupSubject('system:masters')]),
  clusterRoleBinding('system:monitoring', [groupSubject('system:monitoring')]),
  clusterRoleBinding('system:discovery', [groupSubject('system:authenticated')]),
  clusterRoleBinding('system:basic-user', [groupSubject('system:authenticated')]),
  clusterRoleBinding('system:public-info-viewer', [
    groupSubject('system:authenticated'),
    groupSubject('system:unauthenticated'),
  ]),
  clusterRoleBinding('system:node-proxier', [userSubject('system:kube-proxy')]),
  clusterRoleBinding('system:kube-controller-manager', [userSubject('system:kube-controller-manager')]),
  clusterRoleBinding('system:kube-dns', [serviceAccountSubject('kube-system', 'kube-dns')]),
  clusterRoleBinding('system:kube-scheduler', [userSubject('system:kube-scheduler')]),
  clusterRoleBinding('system:volume-scheduler', [userSubject('system:kube-scheduler')]),
  // Kept for upgrades; nodes are authorized by the Node authorizer upstream.
  clusterRoleBinding('system:node', []),
  clusterRoleBinding('system:service-account-issuer-discovery', [groupSubject('system:serviceaccounts')]),
];

/** The bootstrap ClusterRoleBindings (12 of policy.go, then the controllers'). */
export const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: readonly ClusterRoleBinding[] = [
  ...POLICY_BINDINGS,
  ...CONTROLLER_CLUSTER_ROLE_BINDINGS,
];
