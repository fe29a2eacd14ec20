/**
 * One sync of a PodDisruptionBudget (upstream 1.33 pkg/controller/disruption/disruption.go
 * sync, trySync, getPodsForPdb, failSafe): the pods its selector matches in its namespace,
 * the expected and desired counts (expected-pods.ts), the disrupted-pods map and healthy count
 * (status.ts), and the status written through `/status` when it changed.
 *
 * A conflict writing the status is thrown (the work queue retries; the eviction subresource
 * may have decremented the budget meanwhile, and a stale value must not be written over it).
 * Any other failure writes the fail-safe status (disruptionsAllowed 0, DisruptionAllowed False
 * with reason SyncFailed and the error as message). Events as upstream's: NoPods (Normal when
 * no pod matches, Warning when the selector is invalid), CalculateExpectedPodCountFailed,
 * UnmanagedPods (on the budget), NotDeleted (on a pod whose eviction expired).
 */
import { errorMessage } from '../../api/error-message.js';
import { ApiError } from '../../errors/api-error.js';
import { asSelector, formatLabelSelector, selects } from '../../resources/apps-common/label-selector.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { PodDisruptionBudget } from '../../resources/poddisruptionbudgets/poddisruptionbudgets.schema.js';
import { getExpectedPodCount } from './expected-pods.js';
import { buildDisruptedPodMap, countHealthyPods, failSafeStatus, nextPdbStatus } from './status.js';
import type { DisruptionClient } from './types.js';

/** What a sync asks of its caller. */
export interface SyncResult {
  /** Sync the budget again after this many ms (the earliest disruptedPods entry expires then). */
  readonly recheckAfterMs?: number;
}

/** Upstream getPodsForPdb: the namespace's pods the selector matches (a nil selector matches none). Throws for an invalid selector. */
export async function podsForPdb(client: DisruptionClient, pdb: PodDisruptionBudget): Promise<Pod[]> {
  const selector = asSelector(pdb.spec?.selector);
  const pods = await client.listPods(pdb.metadata.namespace ?? '');
  return pods.filter((p) => selects(selector, p.metadata.labels));
}

/** Upstream trySync at `now` (ms). Throws what reading or writing throws. */
async function trySync(client: DisruptionClient, pdb: PodDisruptionBudget, now: number): Promise<SyncResult> {
  let pods: Pod[];
  try {
    pods = await podsForPdb(client, pdb);
  } catch (err) {
    client.record(pdb, 'PodDisruptionBudget', {
      type: 'Warning',
      reason: 'NoPods',
      message: `Failed to get pods: ${errorMessage(err)}`,
    });
    throw err;
  }
  if (pods.length === 0)
    client.record(pdb, 'PodDisruptionBudget', { type: 'Normal', reason: 'NoPods', message: 'No matching pods found' });

  let expected;
  try {
    expected = await getExpectedPodCount(client, pdb, pods);
  } catch (err) {
    client.record(pdb, 'PodDisruptionBudget', {
      type: 'Warning',
      reason: 'CalculateExpectedPodCountFailed',
      message: `Failed to calculate the number of expected pods: ${errorMessage(err)}`,
    });
    throw err;
  }
  if (expected.unmanagedPods.length > 0)
    client.record(pdb, 'PodDisruptionBudget', {
      type: 'Warning',
      reason: 'UnmanagedPods',
      message:
        `Pods selected by this PodDisruptionBudget (selector: ${formatLabelSelector(pdb.spec?.selector)}) were found ` +
        'to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. ' +
        'To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
    });

  const disrupted = buildDisruptedPodMap(pods, pdb, now);
  for (const pod of disrupted.notDeleted)
    client.record(pod, 'Pod', {
      type: 'Warning',
      reason: 'NotDeleted',
      message: `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.name} to be deleted but it wasn't`,
    });
  const next = nextPdbStatus(
    pdb,
    {
      currentHealthy: countHealthyPods(pods, disrupted.disruptedPods, now),
      desiredHealthy: expected.desiredHealthy,
      expectedPods: expected.expectedCount,
      disruptedPods: disrupted.disruptedPods,
    },
    now,
  );
  if (next) await client.writeStatus(next);
  return disrupted.recheckAt === undefined ? {} : { recheckAfterMs: Math.max(0, disrupted.recheckAt - now) };
}

const isConflict = (err: unknown) => err instanceof ApiError && err.code === 409;

/**
 * Upstream sync of the budget `namespace/name` at `now` (ms): nothing when it does not exist;
 * a conflict is thrown; another failure is answered by the fail-safe status (whose own write
 * failure is thrown, so the queue retries).
 */
export async function syncDisruptionBudget(
  client: DisruptionClient,
  namespace: string,
  name: string,
  now = Date.now(),
): Promise<SyncResult> {
  const pdb = await client.getPdb(namespace, name);
  if (!pdb) return {};
  try {
    return await trySync(client, pdb, now);
  } catch (err) {
    if (isConflict(err)) throw err;
    const safe = failSafeStatus(pdb, errorMessage(err), now);
    // The same status again would be a no-op write (upstream's storage skips it too).
    if (JSON.stringify(safe.status) !== JSON.stringify(pdb.status)) await client.writeStatus(safe);
    return {};
  }
}
