/**
 * The namespaced bootstrap Roles and RoleBindings of upstream 1.33 (plugin/pkg/auth/authorizer/
 * rbac/bootstrappolicy/namespace_policy.go): in kube-system, the reader of the
 * extension-apiserver-authentication ConfigMap (bound to the controller manager and the
 * scheduler), their leader-locking roles, and the roles of the bootstrap signer, the (deprecated)
 * cloud provider and the token cleaner; in kube-public, the bootstrap signer's role on the
 * cluster-info ConfigMap. Both namespaces exist from the start (controllers/bootstrap.ts).
 */
import type { Role, RoleBinding } from '../../resources/rbac/rbac.schema.js';
import { READ, core, eventsRule, role, roleBinding, serviceAccountSubject, userSubject } from './bootstrap-rules.js';

const SYSTEM = 'kube-system';
const PUBLIC = 'kube-public';
const KCM = 'system:kube-controller-manager';
const SCHEDULER = 'system:kube-scheduler';

export const BOOTSTRAP_ROLES: readonly Role[] = [
  role(SYSTEM, 'extension-apiserver-authentication-reader', [
    core(['configmaps'], READ, ['extension-apiserver-authentication']),
  ]),
  role(SYSTEM, 'system:controller:bootstrap-signer', [core(['secrets'], READ)]),
  role(SYSTEM, 'system:controller:cloud-provider', [core(['configmaps'], ['create', 'get', 'list', 'watch'])]),
  role(SYSTEM, 'system:controller:token-cleaner', [core(['secrets'], [...READ, 'delete']), eventsRule()]),
  role(SYSTEM, 'system::leader-locking-kube-controller-manager', [
    core(['configmaps'], ['watch']),
    core(['configmaps'], ['get', 'update'], ['kube-controller-manager']),
  ]),
  role(SYSTEM, 'system::leader-locking-kube-scheduler', [
    core(['configmaps'], ['watch']),
    core(['configmaps'], ['get', 'update'], ['kube-scheduler']),
  ]),
  role(PUBLIC, 'system:controller:bootstrap-signer', [
    core(['configmaps'], READ),
    core(['configmaps'], ['update'], ['cluster-info']),
    eventsRule(),
  ]),
];

const controllerBinding = (namespace: string, controller: string) =>
  roleBinding(namespace, `system:controller:${controller}`, `system:controller:${controller}`, [
    serviceAccountSubject(SYSTEM, controller),
  ]);

export const BOOTSTRAP_ROLE_BINDINGS: readonly RoleBinding[] = [
  roleBinding(
    SYSTEM,
    'system::extension-apiserver-authentication-reader',
    'extension-apiserver-authentication-reader',
    [userSubject(KCM), userSubject(SCHEDULER)],
  ),
  roleBinding(
    SYSTEM,
    'system::leader-locking-kube-controller-manager',
    'system::leader-locking-kube-controller-manager',
    [userSubject(KCM), serviceAccountSubject(SYSTEM, 'kube-controller-manager')],
  ),
  roleBinding(SYSTEM, 'system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler', [
    userSubject(SCHEDULER),
    serviceAccountSubject(SYSTEM, 'kube-scheduler'),
  ]),
  controllerBinding(SYSTEM, 'bootstrap-signer'),
  controllerBinding(SYSTEM, 'cloud-provider'),
  controllerBinding(SYSTEM, 'token-cleaner'),
  controllerBinding(PUBLIC, 'bootstrap-signer'),
];
