/**
 * NetworkPolicy: one storage (networking.k8s.io/v1, upstream's storage version) served as
 * networking.k8s.io/v1, as networking.ck.io/v1 (the spec's name for the group, the same schema,
 * as RBAC's two groups), and as 1.10's extensions/v1beta1 through a VersionConversion (that
 * version has no `endPort`: a read drops it, a write through it stores none). Short name
 * `netpol`; generation counts spec changes (pkg/registry/networking/networkpolicy/strategy.go).
 */
import type { ApiObject } from '../../api/object.js';
import { patchMetaOf } from '../../api/core/patch-meta.js';
import type { ResourceDefinition, VersionConversion } from '../../registry/types.js';
import { defineResource, specGeneration } from '../define.js';
import { networkPolicyMessages, networkPolicyV1beta1Messages } from './networkpolicies.protobuf.js';
import { networkPolicySchema, networkPolicyV1beta1Schema, type NetworkPolicy } from './networkpolicies.schema.js';
import { networkPolicyPrinter } from './networkpolicies.table.js';
import { validateNetworkPolicy, validateNetworkPolicyUpdate } from './networkpolicies.validation.js';

export const NETWORKING_K8S_GROUP = 'networking.k8s.io';
export const NETWORKING_CK_GROUP = 'networking.ck.io';

type Spec = NonNullable<NetworkPolicy['spec']>;
type Rule = { ports?: { protocol?: string | null; endPort?: number | null; port?: unknown }[] | null };

/**
 * Upstream networking/v1 SetDefaults_NetworkPolicy and SetDefaults_NetworkPolicyPort (the
 * extensions/v1beta1 defaults are the same): every port's protocol TCP; policyTypes Ingress,
 * plus Egress when there are egress rules. The podSelector, a struct upstream always
 * writes, is `{}` when absent.
 */
export function defaultNetworkPolicy(obj: ApiObject): void {
  const spec = ((obj as NetworkPolicy).spec ??= {}) as Spec;
  spec.podSelector ??= {};
  for (const rule of [...(spec.ingress ?? []), ...(spec.egress ?? [])] as Rule[])
    for (const port of rule.ports ?? []) port.protocol ??= 'TCP';
  if (!spec.policyTypes?.length) spec.policyTypes = spec.egress?.length ? ['Ingress', 'Egress'] : ['Ingress'];
}

const common = {
  kind: 'NetworkPolicy',
  description: 'NetworkPolicy describes what network traffic is allowed for a set of Pods.',
  plural: 'networkpolicies',
  namespaced: true,
  shortNames: ['netpol'],
  storagePrefix: 'networkpolicies',
  printer: networkPolicyPrinter,
  strategy: {
    ...specGeneration(),
    defaults: defaultNetworkPolicy,
    validate: validateNetworkPolicy,
    validateUpdate: validateNetworkPolicyUpdate,
  },
} as const;

/** networking.k8s.io/v1: the storage version. */
export const networkPolicies = defineResource({
  ...common,
  group: NETWORKING_K8S_GROUP,
  schema: networkPolicySchema,
  protobuf: networkPolicyMessages,
});

/** networking.ck.io/v1: the spec's name of the group, over the same storage. */
export const networkPoliciesCk = defineResource({
  ...common,
  group: NETWORKING_CK_GROUP,
  schema: networkPolicySchema,
  protobuf: networkPolicyMessages,
});

/** Each port of each rule of `spec` without `endPort`. */
function withoutEndPorts(spec: Record<string, unknown>): Record<string, unknown> {
  const strip = (rules: unknown) =>
    Array.isArray(rules)
      ? rules.map((rule: Rule) =>
          rule.ports ? { ...rule, ports: rule.ports.map(({ endPort: _e, ...port }) => port) } : rule,
        )
      : rules;
  const out = { ...spec };
  if ('ingress' in out) out.ingress = strip(out.ingress);
  if ('egress' in out) out.egress = strip(out.egress);
  return out;
}

/**
 * extensions/v1beta1 over networking.k8s.io/v1 (upstream Convert_v1beta1_NetworkPolicy_* are
 * field for field): the same defaults; reads drop `endPort`, which 1.10 does not have.
 */
export const extensionsNetworkPolicyConversion: VersionConversion = {
  defaults: defaultNetworkPolicy,
  toStorage: (obj) => ({ ...obj, apiVersion: `${NETWORKING_K8S_GROUP}/v1` }),
  fromStorage: (obj) => ({
    ...obj,
    apiVersion: 'extensions/v1beta1',
    ...(obj.spec ? { spec: withoutEndPorts(obj.spec as Record<string, unknown>) } : {}),
  }),
};

/**
 * For an update through extensions/v1beta1: each port keeps the `endPort` the stored policy
 * had at the same place (same rule, same position, same port and protocol), which 1.10 cannot show.
 */
function keepEndPorts(np: NetworkPolicy, old: NetworkPolicy): void {
  for (const kind of ['ingress', 'egress'] as const) {
    const before: Rule[] = old.spec?.[kind] ?? [];
    (np.spec?.[kind] ?? []).forEach((rule: Rule, i) =>
      (rule.ports ?? []).forEach((port, j) => {
        const was = before[i]?.ports?.[j];
        const same = was && was.port === port.port && was.protocol === port.protocol;
        if (same && typeof was.endPort === 'number' && port.endPort === undefined) port.endPort = was.endPort;
      }),
    );
  }
}

/**
 * extensions/v1beta1 of 1.10 over the v1 storage (its strategy and printer see stored objects);
 * an update keeps the endPorts it cannot show.
 */
export const networkPoliciesExtensions: ResourceDefinition<NetworkPolicy> = {
  ...networkPolicies,
  group: 'extensions',
  version: 'v1beta1',
  schema: networkPolicyV1beta1Schema,
  patchMeta: patchMetaOf(networkPolicyV1beta1Schema),
  protobuf: networkPolicyV1beta1Messages,
  conversion: extensionsNetworkPolicyConversion,
  strategy: {
    ...networkPolicies.strategy,
    prepareForUpdate(obj, old) {
      keepEndPorts(obj, old);
      networkPolicies.strategy.prepareForUpdate?.(obj, old);
    },
  },
};
