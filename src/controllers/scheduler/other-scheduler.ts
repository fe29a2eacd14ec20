/**
 * Whether another kube-scheduler runs against this server: upstream's kube-scheduler elects its
 * leader through the Lease `kube-system/kube-scheduler` (its --leader-elect-resource-name and
 * namespace defaults), renewing it every few seconds. A Lease held by someone and renewed within
 * its duration means a scheduler is deciding; this server's own scheduler never writes that
 * Lease, so a real kube-scheduler takes it at once and ours stands down (`--scheduler=auto`).
 */
import { ApiError } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { Lease } from '../../resources/leases/leases.schema.js';

/** The Lease a kube-scheduler leader holds (namespace, name). */
export const KUBE_SCHEDULER_LEASE = { namespace: 'kube-system', name: 'kube-scheduler' } as const;

/**
 * Whether `lease` names a holder whose last renewal (renewTime, else acquireTime) is younger than
 * leaseDurationSeconds at `nowMs` (ms since the epoch). A Lease without a holder, a duration or
 * a time is not held (upstream's leader election treats it as free).
 */
export function leaseHeld(lease: Lease | undefined, nowMs: number): boolean {
  const spec = lease?.spec;
  const holder = spec?.holderIdentity ?? '';
  const seconds = spec?.leaseDurationSeconds ?? 0;
  const renewed = Date.parse(spec?.renewTime ?? spec?.acquireTime ?? '');
  return holder !== '' && seconds > 0 && Number.isFinite(renewed) && renewed + seconds * 1000 > nowMs;
}

/**
 * Whether another kube-scheduler holds its Lease now, read from `leases` (the watch cache).
 * Throws what the store throws, except 404 (no Lease: no other scheduler).
 */
export async function otherSchedulerActive(leases: GenericStore<Lease>, nowMs = Date.now()): Promise<boolean> {
  try {
    const lease = await leases.get(KUBE_SCHEDULER_LEASE.namespace, KUBE_SCHEDULER_LEASE.name, '0');
    return leaseHeld(lease, nowMs);
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return false;
    throw err;
  }
}
