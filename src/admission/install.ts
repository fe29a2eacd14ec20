/**
 * The admission chain, installed on the stores of the registry in upstream's default order
 * (1.10 kube-apiserver --enable-admission-plugins defaults, for the kinds served here):
 * NamespaceLifecycle, LimitRanger, ServiceAccount, DefaultTolerationSeconds, DefaultStorageClass, then service IP
 * and node port allocation (upstream's service REST), the admission webhooks (mutating, then
 * validating: webhooks/) with ValidatingAdmissionPolicy (policy/) between them, and ResourceQuota last, so it charges what the others filled in. Mutating steps run before the kind's validation, the others after.
 */
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { ObjectStorage } from '../storage/types.js';
import { installDefaultTolerationSeconds } from './default-toleration-seconds.js';
import { installDefaultStorageClass } from './default-storage-class.js';
import { installStorageObjectInUseProtection } from './storage-object-in-use-protection.js';
import { installLimitRanger } from './limit-ranger.js';
import { namespaceLifecycle } from './namespace-lifecycle.js';
import { evaluatorsFor, type Evaluator } from './quota/evaluators.js';
import { installResourceQuota } from './quota/resource-quota.js';
import { installServiceAccountAdmission } from './service-account.js';
import { serviceAllocation } from './service-allocation/service-allocation.js';
import { services } from '../resources/services/services.resource.js';
import { installClusterServiceAdmission } from '../resources/groups/cluster-services.admission.js';
import { installCertificatesRegistrationAdmission } from '../resources/groups/certificates-registration.admission.js';
import { installAdmissionPolicyAuthz } from '../resources/groups/admission-policies.authz.js';
import { installWebhookAdmission } from './webhooks/install.js';
import type { ReadyWebhookSource } from './webhooks/plugin.js';
import { installPolicyAdmission } from './policy/install.js';
import type { PolicySource } from './policy/source.js';
import { celMatchConditions } from './webhooks/match-conditions.js';
import type { Authorizer } from '../authorization/types.js';

export interface AdmissionSettings {
  readonly serviceClusterIpRange: string;
  readonly serviceNodePortRange: string;
  /**
   * Whether the pvc-protection and pv-protection controllers run (`--controllers`; with
   * simulated nodes by default): StorageObjectInUseProtection adds their finalizers only then,
   * so that no delete waits on a finalizer nobody removes.
   */
  readonly storageProtection?: boolean;
}

/**
 * Install every plugin; `evaluators` are the quota evaluators shared with the quota controller,
 * `webhooks` the admission webhook configurations (none: no webhook is called), `authorizer`
 * the server's authorizer once built (CEL `authorizer` checks; none: they have no opinion),
 * `policies` the ValidatingAdmissionPolicies and their bindings (none: no policy applies).
 */
export function installAdmission(
  registry: ResourceRegistry,
  storage: ObjectStorage,
  settings: AdmissionSettings,
  evaluators: readonly Evaluator[],
  webhooks?: ReadyWebhookSource,
  authorizer: () => Authorizer | undefined = () => undefined,
  policies?: PolicySource,
): void {
  for (const store of registry.all()) {
    if (store.def.namespaced) store.addAdmission(namespaceLifecycle(registry, store));
  }
  // Resources served at run time (custom resources) get the plugins that apply to any resource.
  registry.onStoreCreated((store) => {
    if (store.def.namespaced) store.addAdmission(namespaceLifecycle(registry, store));
    installResourceQuota(registry, evaluatorsFor([store]));
  });
  installLimitRanger(registry);
  installServiceAccountAdmission(registry);
  installDefaultTolerationSeconds(registry);
  installDefaultStorageClass(registry);
  if (settings.storageProtection) installStorageObjectInUseProtection(registry);
  registry
    .of(services)
    .addAdmission(serviceAllocation(registry, storage, settings.serviceClusterIpRange, settings.serviceNodePortRange));
  installClusterServiceAdmission(registry);
  installCertificatesRegistrationAdmission(registry);
  // ValidatingAdmissionPolicy(Binding) strategies' checks that the writer may get the params.
  installAdmissionPolicyAuthz(registry, authorizer);
  // MutatingAdmissionWebhook, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook, then ResourceQuota, as
  // upstream: mutating webhooks run in the mutate step, before every validating hook installed here.
  if (policies) installPolicyAdmission(registry, policies, authorizer);
  if (webhooks) installWebhookAdmission(registry, webhooks, undefined, celMatchConditions(authorizer));
  installResourceQuota(registry, evaluators);
}
