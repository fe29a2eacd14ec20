/**
 * The second half of upstream 1.33's controller roles, in controller_policy.go's order (from the
 * resource quota controller on); bootstrap-controller-roles.ts turns them into ClusterRoles
 * and bindings.
 */
import type { PolicyRule } from '../../resources/rbac/rbac.schema.js';
import { READ, core, eventsRule, rule } from './bootstrap-rules.js';

const APPS = 'apps';
const BATCH = 'batch';
const STORAGE = 'storage.k8s.io';
const CERTS = 'certificates.k8s.io';
const NETWORKING = 'networking.k8s.io';

export const MORE_CONTROLLERS: readonly [string, PolicyRule[]][] = [
  [
    'resourcequota-controller',
    [rule(['*'], ['*'], ['list', 'watch']), core(['resourcequotas/status'], ['update']), eventsRule()],
  ],
  ['route-controller', [core(['nodes'], ['list', 'watch']), core(['nodes/status'], ['patch']), eventsRule()]],
  ['service-account-controller', [core(['serviceaccounts'], ['create']), eventsRule()]],
  [
    'service-controller',
    [
      core(['services'], READ),
      core(['services/status'], ['patch', 'update']),
      core(['nodes'], ['list', 'watch']),
      eventsRule(),
    ],
  ],
  [
    'service-cidrs-controller',
    [
      rule([NETWORKING], ['servicecidrs'], [...READ, 'patch', 'update']),
      rule([NETWORKING], ['servicecidrs/finalizers'], ['patch', 'update']),
      rule([NETWORKING], ['servicecidrs/status'], ['patch', 'update']),
      rule([NETWORKING], ['ipaddresses'], READ),
      eventsRule(),
    ],
  ],
  [
    'statefulset-controller',
    [
      core(['pods'], ['list', 'watch']),
      rule([APPS], ['statefulsets'], READ),
      rule([APPS], ['statefulsets/status'], ['update']),
      rule([APPS], ['statefulsets/finalizers'], ['update']),
      core(['pods'], ['get', 'create', 'delete', 'update', 'patch']),
      rule([APPS], ['controllerrevisions'], [...READ, 'create', 'delete', 'update', 'patch']),
      core(['persistentvolumeclaims'], ['get', 'create', 'list', 'watch']),
      core(['persistentvolumeclaims'], ['update', 'delete']),
      core(['pods/finalizers'], ['update']),
      eventsRule(),
    ],
  ],
  ['ttl-controller', [core(['nodes'], ['update', 'patch', 'list', 'watch']), eventsRule()]],
  [
    'certificate-controller',
    [
      rule([CERTS], ['certificatesigningrequests'], [...READ, 'delete']),
      rule([CERTS], ['certificatesigningrequests/status', 'certificatesigningrequests/approval'], ['update']),
      rule([CERTS], ['signers'], ['approve'], ['kubernetes.io/kube-apiserver-client-kubelet']),
      rule(
        [CERTS],
        ['signers'],
        ['sign'],
        [
          'kubernetes.io/legacy-unknown',
          'kubernetes.io/kube-apiserver-client',
          'kubernetes.io/kube-apiserver-client-kubelet',
          'kubernetes.io/kubelet-serving',
        ],
      ),
      rule(['authorization.k8s.io'], ['subjectaccessreviews'], ['create']),
      eventsRule(),
    ],
  ],
  [
    'pvc-protection-controller',
    [core(['persistentvolumeclaims'], [...READ, 'update']), core(['pods'], READ), eventsRule()],
  ],
  ['pv-protection-controller', [core(['persistentvolumes'], [...READ, 'update']), eventsRule()]],
  ['ttl-after-finished-controller', [rule([BATCH], ['jobs'], [...READ, 'delete']), eventsRule()]],
  ['root-ca-cert-publisher', [core(['configmaps'], ['create', 'update']), eventsRule()]],
  [
    'validatingadmissionpolicy-status-controller',
    [
      rule(['admissionregistration.k8s.io'], ['validatingadmissionpolicies'], READ),
      rule(['admissionregistration.k8s.io'], ['validatingadmissionpolicies/status'], ['get', 'patch', 'update']),
      eventsRule(),
    ],
  ],
  [
    'legacy-service-account-token-cleaner',
    [
      core(['configmaps'], ['get'], ['kube-apiserver-legacy-service-account-token-tracking']),
      core(['secrets'], ['patch', 'delete']),
    ],
  ],
  [
    'selinux-warning-controller',
    [
      eventsRule(),
      core(['persistentvolumes'], READ),
      core(['persistentvolumeclaims'], READ),
      core(['pods'], READ),
      rule([STORAGE], ['csidrivers'], READ),
    ],
  ],
];
