/**
 * Node rules of upstream 1.10 pkg/apis/core/validation (ValidateNode, validateNodeTaints,
 * ValidateNodeResources, ValidateNodeUpdate), with the DynamicKubeletConfig gate at its 1.10
 * default (off: spec.configSource may not be set).
 */
import { isIP } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { validateLabelValue, validateQualifiedName } from '../../api/names.js';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
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

/** Upstream ValidateNode (create): taints, resources, externalID, configSource gate, podCIDR. */
export function validateNode(obj: Node): FieldError[] {
  const spec = specOf(obj);
  const errs: FieldError[] = [];
  if (spec.taints?.length) errs.push(...validateNodeTaints(spec.taints));
  errs.push(...validateNodeResources(obj));
  if (!spec.externalID) errs.push(required('spec.externalID'));
  if (spec.configSource !== undefined && spec.configSource !== null) {
    errs.push(
      forbidden(
        'spec.configSource',
        'configSource may only be set if the DynamicKubeletConfig feature gate is enabled)',
      ),
    );
  }
  if (spec.podCIDR && !isCidr(spec.podCIDR)) errs.push(invalidValue('spec.podCIDR', spec.podCIDR, 'not a valid CIDR'));
  return errs;
}

/**
 * Upstream ValidateNodeUpdate: resources valid, no duplicate addresses, podCIDR and providerID
 * only set from empty, taints valid; beyond labels/metadata, unschedulable, taints and status,
 * nothing else may change.
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
  const prev = { ...specOf(old) };
  if (!prev.podCIDR) prev.podCIDR = spec.podCIDR;
  else if (prev.podCIDR !== spec.podCIDR)
    errs.push(forbidden('spec.podCIDR', 'node updates may not change podCIDR except from "" to valid'));
  if (!prev.providerID) prev.providerID = spec.providerID;
  else if (prev.providerID !== spec.providerID)
    errs.push(forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  if (spec.taints?.length) errs.push(...validateNodeTaints(spec.taints));
  const comparable = (s: NodeSpec) => {
    const { unschedulable: _u, taints: _t, ...rest } = s;
    return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== '' && v !== null));
  };
  if (!isDeepStrictEqual(comparable(spec), comparable(prev))) {
    errs.push(
      forbidden(
        '',
        'node updates may only change labels, taints, or capacity (or configSource, if the DynamicKubeletConfig feature gate is enabled)',
      ),
    );
  }
  return errs;
}
