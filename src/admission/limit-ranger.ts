/**
 * LimitRanger admission (upstream plugin/pkg/admission/limitranger/admission.go, 1.10): the
 * LimitRanges of a namespace give containers their default requests and limits (recorded in
 * the `kubernetes.io/limit-ranger` annotation) and bound containers, pods and
 * PersistentVolumeClaims by min, max and maxLimitRequestRatio. A violation is 403 Forbidden
 * with upstream's messages, e.g. `pods "web" is forbidden: maximum cpu usage per Container is
 * 1, but limit is 2.`; several are joined as upstream's aggregate (`[a, b]`).
 *
 * Pods are checked on create only (their containers' resources cannot change afterwards),
 * claims on create and update.
 *
 * Bounds compare as upstream's requestLimitEnforcedValues: the int64 Value()s, or MilliValue()s
 * when all three fit, with upstream's overflow. So a `max.memory: 1e99999` (whose values
 * overflow to 0) admits pods that take it as their default and refuses any stated limit above
 * zero, as upstream does. A LimitRange's quantities are read as upstream's informer has them:
 * parsed again from their canonical text.
 */
import type { ApiObject } from '../api/object.js';
import { formatQuantity, milliValue, quantityOf, wholeValue, type Quantity } from '../api/quantity.js';
import { addLists, maxLists, parseResourceList, type ResourceList } from '../api/resource-list.js';
import { forbidden } from '../errors/api-error.js';
import type { GenericStore } from '../registry/generic-store.js';
import type { StoreHooks } from '../registry/hooks.js';
import { buildPredicate } from '../registry/predicate.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { limitRanges as limitRangesResource } from '../resources/limitranges/limitranges.resource.js';
import type { LimitRange } from '../resources/limitranges/limitranges.schema.js';
import { persistentVolumeClaims } from '../resources/persistentvolumeclaims/persistentvolumeclaims.resource.js';
import { pods as podsResource } from '../resources/pods/pods.resource.js';
import type { PersistentVolumeClaim } from '../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { Pod } from '../resources/pods/pods.schema.js';

/** The annotation recording what the plugin filled in (upstream limitRangerAnnotation). */
export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

type LimitItem = NonNullable<NonNullable<LimitRange['spec']>['limits']>[number];
type Container = NonNullable<Pod['spec']>['containers'][number];
type Quantities = Record<string, string | number>;

/** Install LimitRanger on the pod and claim stores. */
export function installLimitRanger(registry: ResourceRegistry): void {
  const limitRanges = registry.of(limitRangesResource);
  const everything = buildPredicate(limitRanges.def);
  const itemsOf = async (ns: string): Promise<LimitItem[]> => {
    const list = await limitRanges.list(ns, { predicate: everything, resourceVersion: '0' });
    return list.items.flatMap((lr) => lr.spec?.limits ?? []);
  };
  const pods = registry.of(podsResource);
  // The items a pod create read in its mutate step, for its validate step (the same object).
  const readFor = new WeakMap<Pod, LimitItem[]>();
  const plugin: StoreHooks<Pod> = {
    // Defaults before the pod's validation (upstream Admit), bounds after it (upstream Validate).
    async mutate(obj, old, attrs) {
      if (old || attrs.subresource) return;
      const items = await itemsOf(obj.metadata.namespace ?? '');
      readFor.set(obj, items);
      if (items.length) applyContainerDefaults(obj, items);
    },
    async beforeCreate(obj) {
      const items = readFor.get(obj) ?? (await itemsOf(obj.metadata.namespace ?? ''));
      if (items.length) rejectIfAny(pods, obj, validatePod(obj, items));
    },
  };
  pods.addAdmission(plugin);
  const claims = registry.of(persistentVolumeClaims);
  const checkClaim = async (obj: PersistentVolumeClaim): Promise<void> => {
    const items = await itemsOf(obj.metadata.namespace ?? '');
    const requests = parseResourceList(obj.spec?.resources?.requests);
    const errs: string[] = [];
    for (const item of items.filter((i) => i.type === 'PersistentVolumeClaim')) {
      for (const [k, v] of sorted(item.min))
        push(errs, minConstraint('PersistentVolumeClaim', k, v, requests, new Map()));
      for (const [k, v] of sorted(item.max)) push(errs, maxRequestConstraint('PersistentVolumeClaim', k, v, requests));
    }
    rejectIfAny(claims, obj, errs);
  };
  const claimHooks: StoreHooks<PersistentVolumeClaim> = {
    beforeCreate: checkClaim,
    beforeUpdate: (obj, _old, attrs) => (attrs.subresource ? Promise.resolve() : checkClaim(obj)),
  };
  claims.addAdmission(claimHooks);
}

function rejectIfAny<T extends ApiObject>(store: GenericStore<T>, obj: T, errs: string[]): void {
  if (!errs.length) return;
  const message = errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
  throw forbidden(store.def.plural, obj.metadata.name ?? obj.metadata.generateName ?? '', message, store.def.group);
}

function push(errs: string[], err: string | null): void {
  if (err) errs.push(err);
}

function containersOf(pod: Pod): { containers: Container[]; initContainers: Container[] } {
  return { containers: pod.spec?.containers ?? [], initContainers: pod.spec?.initContainers ?? [] };
}

/** A limit range item's list in key order (upstream iterates a map; we keep messages stable). */
function sorted(raw: unknown): [string, Quantity][] {
  return [...parseResourceList(raw, true)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Fill missing container requests and limits from the Container items' defaultRequest and
 * default (the last such item wins, as upstream defaultContainerResourceRequirements).
 */
function applyContainerDefaults(pod: Pod, items: LimitItem[]): void {
  let requests: Quantities = {};
  let limits: Quantities = {};
  // The values as upstream copies them from its informer's LimitRange: canonical text.
  const canonical = (raw: unknown): Quantities =>
    Object.fromEntries([...parseResourceList(raw, true)].map(([k, v]) => [k, formatQuantity(v)]));
  for (const item of items) {
    if (item.type !== 'Container') continue;
    requests = canonical(item.defaultRequest);
    limits = canonical(item.default);
  }
  if (!Object.keys(requests).length && !Object.keys(limits).length) return;
  const notes: string[] = [];
  const { containers, initContainers } = containersOf(pod);
  const merge = (c: Container, label: string): void => {
    const res = (c.resources ??= {});
    const set = (have: Quantities, defaults: Quantities): string[] => {
      const added = Object.keys(defaults)
        .filter((k) => !(k in have))
        .sort();
      for (const k of added) have[k] = defaults[k];
      return added;
    };
    const req = (res.requests ??= {});
    const lim = (res.limits ??= {});
    const setRequests = set(req, requests);
    const setLimits = set(lim, limits);
    if (!Object.keys(req).length) delete res.requests;
    if (!Object.keys(lim).length) delete res.limits;
    if (setRequests.length) notes.push(`${setRequests.join(', ')} request for ${label} ${c.name}`);
    if (setLimits.length) notes.push(`${setLimits.join(', ')} limit for ${label} ${c.name}`);
  };
  for (const c of containers) merge(c, 'container');
  for (const c of initContainers) merge(c, 'init container');
  if (notes.length)
    (pod.metadata.annotations ??= {})[LIMIT_RANGER_ANNOTATION] = `LimitRanger plugin set: ${notes.join('; ')}`;
}

/** Upstream PodValidateLimitFunc: Container items per container, Pod items on the pod's sums. */
function validatePod(pod: Pod, items: LimitItem[]): string[] {
  const errs: string[] = [];
  const { containers, initContainers } = containersOf(pod);
  const listsOf = (c: Container) => ({
    req: parseResourceList(c.resources?.requests),
    lim: parseResourceList(c.resources?.limits),
  });
  const bound = (type: string, item: LimitItem, req: ResourceList, lim: ResourceList): void => {
    for (const [k, v] of sorted(item.min)) push(errs, minConstraint(type, k, v, req, lim));
    for (const [k, v] of sorted(item.max)) push(errs, maxConstraint(type, k, v, req, lim));
    for (const [k, v] of sorted(item.maxLimitRequestRatio)) push(errs, ratioConstraint(type, k, v, req, lim));
  };
  for (const item of items) {
    if (item.type === 'Container') {
      for (const c of [...containers, ...initContainers]) {
        const { req, lim } = listsOf(c);
        bound('Container', item, req, lim);
      }
    } else if (item.type === 'Pod') {
      // The pod uses the sum of its containers, or its largest init container if larger.
      let req: ResourceList = new Map();
      let lim: ResourceList = new Map();
      for (const c of containers) {
        const l = listsOf(c);
        req = addLists(req, l.req);
        lim = addLists(lim, l.lim);
      }
      for (const c of initContainers) {
        const l = listsOf(c);
        req = maxLists(req, l.req);
        lim = maxLists(lim, l.lim);
      }
      bound('Pod', item, req, lim);
    }
  }
  return errs;
}

const q = formatQuantity;
const NO_QUANTITY = quantityOf(0);
/** Upstream resource.MaxMilliValue. */
const MAX_MILLI_VALUE = ((1n << 63n) - 1n) / 1000n;

/** Upstream requestLimitEnforcedValues: the Value()s, or the MilliValue()s when all three fit. */
function enforcedValues(
  req: Quantity | undefined,
  lim: Quantity | undefined,
  enforced: Quantity,
): [request: bigint, limit: bigint, enforced: bigint] {
  const r = req ?? NO_QUANTITY;
  const l = lim ?? NO_QUANTITY;
  const values: [bigint, bigint, bigint] = [wholeValue(r), wholeValue(l), wholeValue(enforced)];
  return values.every((v) => v <= MAX_MILLI_VALUE) ? [milliValue(r), milliValue(l), milliValue(enforced)] : values;
}

/** Upstream minConstraint: a request is required and neither it nor a limit may be below `min`. */
function minConstraint(type: string, name: string, min: Quantity, req: ResourceList, lim: ResourceList): string | null {
  const r = req.get(name);
  const l = lim.get(name);
  const [rv, lv, ev] = enforcedValues(r, l, min);
  if (!r) return `minimum ${name} usage per ${type} is ${q(min)}.  No request is specified.`;
  if (rv < ev) return `minimum ${name} usage per ${type} is ${q(min)}, but request is ${q(r)}.`;
  if (l && lv < ev) return `minimum ${name} usage per ${type} is ${q(min)}, but limit is ${q(l)}.`;
  return null;
}

/** Upstream maxConstraint: a limit is required and neither it nor a request may exceed `max`. */
function maxConstraint(type: string, name: string, max: Quantity, req: ResourceList, lim: ResourceList): string | null {
  const r = req.get(name);
  const l = lim.get(name);
  const [rv, lv, ev] = enforcedValues(r, l, max);
  if (!l) return `maximum ${name} usage per ${type} is ${q(max)}.  No limit is specified.`;
  if (lv > ev) return `maximum ${name} usage per ${type} is ${q(max)}, but limit is ${q(l)}.`;
  if (r && rv > ev) return `maximum ${name} usage per ${type} is ${q(max)}, but request is ${q(r)}.`;
  return null;
}

/** Upstream maxRequestConstraint (claims, which have no limits): the request may not exceed `max`. */
function maxRequestConstraint(type: string, name: string, max: Quantity, req: ResourceList): string | null {
  const r = req.get(name);
  const [rv, , ev] = enforcedValues(r, undefined, max);
  if (!r) return `maximum ${name} usage per ${type} is ${q(max)}.  No request is specified.`;
  if (rv > ev) return `maximum ${name} usage per ${type} is ${q(max)}, but request is ${q(r)}.`;
  return null;
}

/** Upstream limitRequestRatioConstraint: limit / request (as float64s of the values) may not exceed the ratio. */
function ratioConstraint(
  type: string,
  name: string,
  ratio: Quantity,
  req: ResourceList,
  lim: ResourceList,
): string | null {
  const r = req.get(name);
  const l = lim.get(name);
  const [rv, lv] = enforcedValues(r, l, ratio);
  if (!r || rv === 0n)
    return `${name} max limit to request ratio per ${type} is ${q(ratio)}, but no request is specified or request is 0.`;
  if (!l || lv === 0n)
    return `${name} max limit to request ratio per ${type} is ${q(ratio)}, but no limit is specified or limit is 0.`;
  const observed = Number(lv) / Number(rv);
  const milli = wholeValue(ratio) <= MAX_MILLI_VALUE;
  if ((milli ? observed * 1000 : observed) > Number(milli ? milliValue(ratio) : wholeValue(ratio))) {
    return `${name} max limit to request ratio per ${type} is ${q(ratio)}, but provided ratio is ${observed.toFixed(6)}.`;
  }
  return null;
}
