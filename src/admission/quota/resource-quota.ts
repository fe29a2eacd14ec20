/**
 * ResourceQuota admission (upstream plugin/pkg/admission/resourcequota, 1.10): a create (and
 * an update that changes usage) is charged to every quota of its namespace that limits what it
 * uses; a charge that would pass `status.hard` is 403 `exceeded quota: NAME, requested: ...,
 * used: ..., limited: ...`. The charge is a compare-and-swap on the quota's `status.used`, so
 * writes racing through several replicas cannot overshoot; a write that fails afterwards gives
 * its charge back, and the quota controller recomputes usage from the objects themselves.
 * A dry run checks without charging.
 */
import type { ApiObject } from '../../api/object.js';
import {
  addLists,
  formatResourceList,
  lessThanOrEqual,
  maskList,
  parseResourceList,
  prettyPrint,
  removeZeros,
  subtractLists,
  type ResourceList,
} from '../../api/resource-list.js';
import { forbidden } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { AdmissionAttributes, Undo } from '../../registry/hooks.js';
import { buildPredicate, type Predicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { Evaluator } from './evaluators.js';
import { resourceQuotas } from '../../resources/resourcequotas/resourcequotas.resource.js';
import type { ResourceQuota } from '../../resources/resourcequotas/resourcequotas.schema.js';

/** A quota as admission reads it: its status (what the controller has accepted) and scopes. */
export interface QuotaView {
  readonly name: string;
  readonly hard: ResourceList;
  readonly used: ResourceList;
  readonly scopes: readonly string[];
}

/** Read a ResourceQuota object's status and scopes. */
export function quotaView(quota: ResourceQuota): QuotaView {
  const status: NonNullable<ResourceQuota['status']> = quota.status ?? {};
  return {
    name: quota.metadata.name ?? '',
    hard: parseResourceList(status.hard),
    used: parseResourceList(status.used),
    scopes: quota.spec?.scopes ?? [],
  };
}

/**
 * Whether `quota` governs `obj` (upstream generic Matches): its hard limits name a resource the
 * evaluator accounts for, and `obj` is in each of its scopes.
 */
export function quotaMatches(quota: QuotaView, ev: Evaluator, obj: ApiObject): boolean {
  return [...quota.hard.keys()].some((k) => ev.matches(k)) && quota.scopes.every((s) => ev.inScope(s, obj));
}

/** Install the plugin on the store of each evaluator. */
export function installResourceQuota(registry: ResourceRegistry, evaluators: readonly Evaluator[]): void {
  const quotas = registry.of(resourceQuotas);
  const everything = buildPredicate(quotas.def);
  for (const ev of evaluators) {
    ev.store.addAdmission({
      beforeCreate: (obj, attrs) => charge(quotas, everything, ev, obj, null, attrs),
      beforeUpdate: (obj, old, attrs) =>
        ev.chargesUpdates && !attrs.subresource ? charge(quotas, everything, ev, obj, old, attrs) : Promise.resolve(),
    });
  }
}

async function charge(
  quotas: GenericStore<ResourceQuota>,
  everything: Predicate,
  ev: Evaluator,
  obj: ApiObject,
  old: ApiObject | null,
  attrs: AdmissionAttributes,
): Promise<Undo | void> {
  const ns = obj.metadata.namespace ?? '';
  const listed = await quotas.list(ns, { predicate: everything, resourceVersion: '0' });
  if (!listed.items.length) return;
  const delta = removeZeros(old ? subtractLists(ev.usage(obj), ev.usage(old)) : ev.usage(obj));
  if (!delta.size) return;
  const store = ev.store;
  const refuse = (message: string) => forbidden(store.def.plural, obj.metadata.name ?? '', message, store.def.group);
  const governing: string[] = [];
  for (const item of [...listed.items].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1))) {
    const quota = quotaView(item);
    if (!quotaMatches(quota, ev, obj)) continue;
    const restricted = [...quota.hard.keys()].filter((k) => ev.matches(k));
    const missing = ev.missing?.(restricted, obj);
    if (missing) throw refuse(`failed quota: ${quota.name}: ${missing}`);
    if ([...quota.hard.keys()].some((k) => !quota.used.has(k))) throw refuse(`status unknown for quota: ${quota.name}`);
    if (maskList(delta, quota.hard.keys()).size) governing.push(quota.name);
  }
  const charged: { name: string; amount: ResourceList }[] = [];
  const giveBack: Undo = async () => {
    for (const c of charged)
      await adjust(quotas, ns, c.name, (used) => subtractLists(used, c.amount)).catch(() => undefined);
  };
  try {
    for (const name of governing) {
      let amount: ResourceList = new Map();
      await quotas.mutate(
        ns,
        name,
        (current) => {
          const quota = quotaView(current);
          amount = maskList(delta, quota.hard.keys());
          const used = addLists(quota.used, amount);
          const { allowed, exceeded } = lessThanOrEqual(maskList(used, amount.keys()), quota.hard);
          if (!allowed) {
            throw refuse(
              `exceeded quota: ${quota.name}, requested: ${prettyPrint(maskList(amount, exceeded))}, ` +
                `used: ${prettyPrint(maskList(quota.used, exceeded))}, limited: ${prettyPrint(maskList(quota.hard, exceeded))}`,
            );
          }
          return withUsed(current, used);
        },
        { dryRun: attrs.dryRun },
      );
      if (!attrs.dryRun) charged.push({ name, amount });
    }
  } catch (err) {
    await giveBack();
    throw err;
  }
  return charged.length ? giveBack : undefined;
}

/** `quota` with `status.used` set to `used` (canonical quantities). */
function withUsed(quota: ResourceQuota, used: ResourceList): ResourceQuota {
  return { ...quota, status: { ...(quota.status ?? {}), used: formatResourceList(used) } };
}

/** Change a quota's `status.used` by `change` under compare-and-swap (a charge given back). */
async function adjust(
  quotas: GenericStore<ResourceQuota>,
  ns: string,
  name: string,
  change: (used: ResourceList) => ResourceList,
): Promise<void> {
  await quotas.mutate(ns, name, (current) => withUsed(current, change(quotaView(current).used)));
}
