/**
 * Node rules of upstream 1.33 pkg/apis/core/validation (ValidateNode, validateNodeTaints,
 * ValidateNodeResources, ValidateNodeUpdate, validateNodeConfigStatus). spec.configSource is
 * dropped by the strategy (DynamicKubeletConfig is gone), so its rules never run; externalID is
 * no longer required; podCIDRs replaced podCIDR. Rows N33-* of docs/validation/core-today.md.
 */
import { isIP } from 'node:net';
import {
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabelValue,
  validateQualifiedName,
} from '../../api/names.js';
import { isConfigMapKey } from '../../api/core/validation/strings.js';
import {
  duplicate,
  forbidden,
  invalidValue,
  notSupported,
  required,
  type FieldError,
} from '../../api/validation/field-errors.js';
import { duplicateGo, validateResourceQuantityValue } from '../../api/validation/resources.js';
import type { Node } from './nodes.schema.js';

type NodeSpec = NonNullable<Node['spec']>;
type NodeStatus = NonNullable<Node['status']>;
type Taint = NonNullable<NodeSpec['taints']>[number];

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

const specOf = (o: Node): NodeSpec => o.spec ?? {};
const statusOf = (o: Node): NodeStatus => o.status ?? {};

/** Go's net.ParseCIDR acceptance: an IPv4 or IPv6 address, '/', a prefix length in range. */
function isCidr(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const ip = value.slice(0, slash);
  const bits = value.slice(slash + 1);
  const family = isIP(ip);
  if (!family || !/^\d{1,3}$/.test(bits)) return false;
  if (family === 4 && /(^|\.)0\d/.test(ip)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Upstream validateNodeTaints: key a qualified name, value a label value, effect one of the
 * three, and <key, effect> unique. Upstream reports these under `metadata.taints` (it builds
 * the path from the metadata path), which is kept.
 */
export function validateNodeTaints(taints: Taint[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((t, i) => {
    const at = `metadata.taints[${i}]`;
    const key = t.key ?? '';
    errs.push(...validateQualifiedName(key).map((m) => invalidValue(`${at}.key`, key, m)));
    const valueErrs = validateLabelValue(t.value ?? '');
    if (valueErrs.length) errs.push(invalidValue(`${at}.value`, t.value ?? '', valueErrs.join(';')));
    const effect = t.effect ?? '';
    if (!effect) errs.push(required(`${at}.effect`));
    else if (!TAINT_EFFECTS.includes(effect)) errs.push(notSupported(`${at}.effect`, effect, TAINT_EFFECTS));
    const id = JSON.stringify([effect, key]);
    if (seen.has(id)) {
      const time = t.timeAdded ? '(*v1.Time)(<pointer>)' : '(*v1.Time)(nil)';
      const shown = `core.Taint{Key:${JSON.stringify(key)}, Value:${JSON.stringify(t.value ?? '')}, Effect:${JSON.stringify(effect)}, TimeAdded:${time}}`;
      errs.push(duplicateGo(at, shown, 'taints must be unique by key and effect pair'));
      return;
    }
    seen.add(id);
  });
  return errs;
}

/** Upstream ValidateNodeResources: capacity and allocatable quantities (paths `status.capacity.cpu`). */
function validateNodeResources(obj: Node): FieldError[] {
  const errs: FieldError[] = [];
  for (const part of ['capacity', 'allocatable'] as const) {
    for (const [k, v] of Object.entries(statusOf(obj)[part] ?? {}))
      errs.push(...validateResourceQuantityValue(k, v, `status.${part}.${k}`));
  }
  return errs;
}

const CIDR_MSG = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** podCIDRs, or podCIDR as v1's conversion makes it the only entry. */
const podCIDRsOf = (spec: NodeSpec): string[] =>
  spec.podCIDRs?.length ? [...spec.podCIDRs] : spec.podCIDR ? [spec.podCIDR] : [];

/** Upstream ValidateNode's podCIDRs rules: each a CIDR, at most one per family, no repeats. */
function validatePodCIDRs(cidrs: string[]): FieldError[] {
  const errs: FieldError[] = [];
  const path = 'spec.podCIDRs';
  cidrs.forEach((c, i) => {
    if (!isCidr(c)) errs.push(invalidValue(`${path}[${i}]`, c, CIDR_MSG));
  });
  if (cidrs.length > 1) {
    const families = cidrs.map((c) => (c.includes(':') ? 6 : 4));
    const dual = cidrs.length === 2 && families[0] !== families[1] && cidrs.every(isCidr);
    if (!dual) {
      const shown = `[]string{${cidrs.map((c) => JSON.stringify(c)).join(', ')}}`;
      errs.push({
        reason: 'FieldValueInvalid',
        field: path,
        message: `Invalid value: ${shown}: may specify no more than one CIDR for each IP family`,
      });
    }
    const seen = new Set<string>();
    cidrs.forEach((c, i) => {
      if (seen.has(c)) errs.push(duplicate(`${path}[${i}]`, c));
      seen.add(c);
    });
  }
  return errs;
}

/** Upstream validateNodeConfigSourceStatus (with its configMap rules) for status.config.* */
function validateConfigSourceStatus(source: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const src = (source ?? {}) as { configMap?: Record<string, string | undefined> | null };
  const cm = src.configMap;
  if (cm === undefined || cm === null) {
    errs.push({
      reason: 'FieldValueInvalid',
      field: path,
      message:
        'Invalid value: core.NodeConfigSource{ConfigMap:(*core.ConfigMapNodeConfigSource)(nil)}: exactly one reference subfield must be non-nil',
    });
    return errs;
  }
  const at = `${path}.configMap`;
  if (!cm.uid) errs.push(required(`${at}.uid`, 'uid must be set in status'));
  if (!cm.resourceVersion) errs.push(required(`${at}.resourceVersion`, 'resourceVersion must be set in status'));
  if (!cm.namespace) errs.push(required(`${at}.namespace`, 'namespace must be set'));
  else errs.push(...validateDns1123Label(cm.namespace).map((m) => invalidValue(`${at}.namespace`, cm.namespace, m)));
  if (!cm.name) errs.push(required(`${at}.name`, 'name must be set'));
  else errs.push(...validateDns1123Subdomain(cm.name).map((m) => invalidValue(`${at}.name`, cm.name, m)));
  if (!cm.kubeletConfigKey) errs.push(required(`${at}.kubeletConfigKey`, 'kubeletConfigKey must be set'));
  else
    errs.push(
      ...isConfigMapKey(cm.kubeletConfigKey).map((m) => invalidValue(`${at}.kubeletConfigKey`, cm.kubeletConfigKey, m)),
    );
  return errs;
}

/** Upstream ValidateNode (create): taints, resources, podCIDRs. */
export function validateNode(obj: Node): FieldError[] {
  const spec = specOf(obj);
  const errs: FieldError[] = [];
  if (spec.taints?.length) errs.push(...validateNodeTaints(spec.taints));
  errs.push(...validateNodeResources(obj));
  errs.push(...validatePodCIDRs(podCIDRsOf(spec)));
  return errs;
}

/**
 * Upstream ValidateNodeUpdate: resources valid, no duplicate addresses, podCIDRs and providerID
 * only set from empty, status.config valid, taints valid, externalID unchanged. Other spec
 * fields (unschedulable, taints) may change.
 */
export function validateNodeUpdate(obj: Node, old: Node): FieldError[] {
  const errs = validateNodeResources(obj);
  const seen = new Set<string>();
  (statusOf(obj).addresses ?? []).forEach((a, i) => {
    const id = JSON.stringify([a.type ?? '', a.address ?? '']);
    if (seen.has(id))
      errs.push(
        duplicateGo(
          `status.addresses[${i}]`,
          `core.NodeAddress{Type:${JSON.stringify(a.type ?? '')}, Address:${JSON.stringify(a.address ?? '')}}`,
        ),
      );
    seen.add(id);
  });
  const spec = specOf(obj);
  const oldSpec = specOf(old);
  const before = podCIDRsOf(oldSpec);
  const after = podCIDRsOf(spec);
  const cidrMsg = 'node updates may not change podCIDR except from "" to valid';
  if (before.length) {
    if (before.length !== after.length) errs.push(forbidden('spec.podCIDRs', cidrMsg));
    else before.forEach((c, i) => c !== after[i] && errs.push(forbidden('spec.podCIDRs', cidrMsg)));
  }
  if (oldSpec.providerID && oldSpec.providerID !== spec.providerID)
    errs.push(forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  const config = statusOf(obj).config;
  if (config) {
    for (const k of ['assigned', 'active', 'lastKnownGood'] as const)
      if (config[k] !== undefined && config[k] !== null)
        errs.push(...validateConfigSourceStatus(config[k], `status.config.${k}`));
  }
  if (spec.taints?.length) errs.push(...validateNodeTaints(spec.taints));
  if ((spec.externalID ?? '') !== (oldSpec.externalID ?? ''))
    errs.push(forbidden('spec.externalID', 'may not be updated'));
  return errs;
}
