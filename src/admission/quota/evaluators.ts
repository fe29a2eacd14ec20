/**
 * Quota evaluators (upstream pkg/quota/evaluator/core and pkg/quota/generic, 1.10): for each
 * namespaced kind, which quota resource names it accounts for and what one object uses.
 * Every kind counts as `count/<plural>[.<group>]`; the legacy core names (`pods`, `services`,
 * `secrets`, ...) count too, pods add their compute resources, services their node ports and
 * load balancers, claims their storage (also per storage class). Only pods support scopes.
 */
import type { ApiObject } from '../../api/object.js';
import { quantityOf } from '../../api/quantity.js';
import { addLists, maxLists, parseResourceList, type ResourceList } from '../../api/resource-list.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';

/**
 * What the quota plugin and controller need of a kind. `T` is the kind's object type (KindObject
 * of its schema) for evaluators of one kind; they are used as evaluators of ApiObject.
 */
export interface Evaluator<T extends ApiObject = ApiObject> {
  readonly store: GenericStore;
  /** Whether an update can change usage (services change type, claims grow). */
  readonly chargesUpdates: boolean;
  /** Whether this evaluator accounts for quota resource `name`. */
  matches(name: string): boolean;
  /** What `obj` uses, by quota resource name (upstream Usage). */
  usage(obj: T): ResourceList;
  /** Whether `obj` is in `scope` (upstream MatchingScopes); kinds without scopes match none. */
  inScope(scope: string, obj: T): boolean;
  /** Resources `obj` must state because a quota limits them (upstream Constraints), or null. */
  missing?(required: readonly string[], obj: T): string | null;
}

/** Legacy object-count names of core kinds (upstream's ResourcePods, ResourceServices, ...). */
const LEGACY_COUNT = new Set([
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
]);

/** `count/<plural>` for the core group, `count/<plural>.<group>` otherwise (upstream ObjectCountQuotaResourceNameFor). */
export function countName(store: GenericStore): string {
  return store.def.group ? `count/${store.def.plural}.${store.def.group}` : `count/${store.def.plural}`;
}

function one(): ResourceList {
  return new Map();
}

/** The object-count evaluator of any kind. */
function objectCount(store: GenericStore): Evaluator {
  const names = new Set([countName(store)]);
  if (!store.def.group && LEGACY_COUNT.has(store.def.plural)) names.add(store.def.plural);
  return {
    store,
    chargesUpdates: false,
    matches: (name) => names.has(name),
    usage: () => {
      const out = one();
      for (const n of names) out.set(n, quantityOf(1));
      return out;
    },
    inScope: () => false,
  };
}

const COMPUTE = ['cpu', 'memory', 'ephemeral-storage'];
/** Resources every container must state when a quota limits them (upstream's validationSet). */
const MUST_STATE = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

type PodSpec = Partial<NonNullable<Pod['spec']>>;

/** Compute usage of requests and limits (upstream podComputeUsageHelper): `cpu` = `requests.cpu`. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out = one();
  out.set('pods', quantityOf(1));
  for (const r of COMPUTE) {
    const req = requests.get(r);
    if (req) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  return out;
}

/** Whether a pod still uses compute quota (upstream QuotaPod): not finished, not past its grace. */
export function podCountsForQuota(pod: Pod, now = Date.now()): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata;
  if (deletionTimestamp && deletionGracePeriodSeconds != null) {
    return now <= Date.parse(deletionTimestamp) + deletionGracePeriodSeconds * 1000;
  }
  return true;
}

function isBestEffort(pod: Pod): boolean {
  const spec: PodSpec = pod.spec ?? {};
  return [...(spec.containers ?? []), ...(spec.initContainers ?? [])].every((c) => {
    const req = parseResourceList(c.resources?.requests);
    const lim = parseResourceList(c.resources?.limits);
    return !['cpu', 'memory'].some((r) => req.has(r) || lim.has(r));
  });
}

function podEvaluator(store: GenericStore): Evaluator<Pod> {
  const count = countName(store);
  const names = new Set([count, 'pods', ...COMPUTE, ...COMPUTE.flatMap((r) => [`requests.${r}`, `limits.${r}`])]);
  return {
    store,
    chargesUpdates: false,
    matches: (name) => names.has(name),
    usage(pod) {
      const usage = one();
      usage.set(count, quantityOf(1));
      if (!podCountsForQuota(pod)) return usage;
      const spec: PodSpec = pod.spec ?? {};
      let requests = one();
      let limits = one();
      for (const c of spec.containers ?? []) {
        requests = addLists(requests, parseResourceList(c.resources?.requests));
        limits = addLists(limits, parseResourceList(c.resources?.limits));
      }
      for (const c of spec.initContainers ?? []) {
        requests = maxLists(requests, parseResourceList(c.resources?.requests));
        limits = maxLists(limits, parseResourceList(c.resources?.limits));
      }
      return addLists(usage, computeUsage(requests, limits));
    },
    inScope(scope, pod) {
      const deadline = pod.spec?.activeDeadlineSeconds;
      const terminating = deadline !== undefined && deadline !== null && deadline >= 0;
      switch (scope) {
        case 'Terminating':
          return terminating;
        case 'NotTerminating':
          return !terminating;
        case 'BestEffort':
          return isBestEffort(pod);
        case 'NotBestEffort':
          return !isBestEffort(pod);
        default:
          return false;
      }
    },
    missing(required, pod) {
      const needed = required.filter((r) => MUST_STATE.has(r));
      if (!needed.length) return null;
      const spec: PodSpec = pod.spec ?? {};
      const absent = new Set<string>();
      for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
        const have = computeUsage(parseResourceList(c.resources?.requests), parseResourceList(c.resources?.limits));
        for (const r of needed) if (!have.has(r)) absent.add(r);
      }
      return absent.size ? `must specify ${[...absent].sort().join(',')}` : null;
    },
  };
}

function serviceEvaluator(store: GenericStore): Evaluator<Service> {
  const base = objectCount(store);
  const extra = new Set(['services.nodeports', 'services.loadbalancers']);
  return {
    ...base,
    chargesUpdates: true,
    matches: (name) => base.matches(name) || extra.has(name),
    usage(svc) {
      const usage = base.usage(svc);
      const spec: NonNullable<Service['spec']> = svc.spec ?? {};
      const ports = spec.ports?.length ?? 0;
      if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') usage.set('services.nodeports', quantityOf(ports));
      if (spec.type === 'LoadBalancer') usage.set('services.loadbalancers', quantityOf(1));
      return usage;
    },
  };
}

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';

function claimEvaluator(store: GenericStore): Evaluator<PersistentVolumeClaim> {
  const base = objectCount(store);
  return {
    ...base,
    chargesUpdates: true,
    matches: (name) =>
      base.matches(name) ||
      name === 'requests.storage' ||
      (name.includes(STORAGE_CLASS_SUFFIX) && /\/(requests\.storage|persistentvolumeclaims)$/.test(name)),
    usage(pvc) {
      const usage = base.usage(pvc);
      const spec: NonNullable<PersistentVolumeClaim['spec']> = pvc.spec ?? {};
      const cls = spec.storageClassName ?? pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
      if (cls) usage.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, quantityOf(1));
      const storage = parseResourceList(spec.resources?.requests).get('storage');
      if (storage) {
        usage.set('requests.storage', storage);
        if (cls) usage.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
      }
      return usage;
    },
  };
}

/**
 * The evaluator of each namespaced store, by the store's plural (core kinds with their own
 * accounting get it; every other kind counts objects).
 */
export function evaluatorsFor(stores: readonly GenericStore[]): Evaluator[] {
  return stores
    .filter((s) => s.def.namespaced && s.def.verbs.includes('create') && s.def.verbs.includes('get'))
    .map((s) => {
      if (s.def.group) return objectCount(s);
      if (s.def.plural === 'pods') return podEvaluator(s);
      if (s.def.plural === 'services') return serviceEvaluator(s);
      if (s.def.plural === 'persistentvolumeclaims') return claimEvaluator(s);
      return objectCount(s);
    });
}
