/**
 * Evicting a pod (upstream pkg/registry/core/pod/storage/eviction.go EvictionREST.Create): the
 * pod is deleted with the eviction's DeleteOptions unless the PodDisruptionBudget that selects
 * it forbids the disruption.
 *
 * - A pod that is Pending, Succeeded, Failed or already being deleted is deleted without
 *   looking at budgets (a Pending one with its resourceVersion as a precondition; a conflict is
 *   retried, unless the client gave a resourceVersion precondition itself).
 * - Budgets of the pod's namespace whose selector matches its labels apply (a null or empty
 *   selector, or one upstream cannot build, matches nothing). None: the pod is deleted. More
 *   than one: 500 InternalError `Internal error occurred: This pod has more than one
 *   PodDisruptionBudget, which the eviction subresource does not support.` (only creating two such budgets leads there).
 * - An unready pod does not use the budget up: with unhealthyPodEvictionPolicy AlwaysAllow, or
 *   while currentHealthy >= desiredHealthy > 0, it is deleted with its resourceVersion as a
 *   precondition (a conflict answers 429, so the client retries).
 * - Otherwise the budget is checked and decremented in one compare-and-swap
 *   (ResourceStore.mutate retries on conflict with the current budget): a status whose
 *   observedGeneration is behind the budget's generation is 429 with the cause `The disruption
 *   budget <name> is still being processed by the server.` (Retry-After 10); a negative
 *   disruptionsAllowed or more than 2000 disruptedPods is 403; 0 allowed is 429 `Cannot evict
 *   pod as it would violate the pod's disruption budget.` with a DisruptionBudget cause; else
 *   disruptionsAllowed goes down by one (the DisruptionAllowed condition turns False at 0) and
 *   disruptedPods records the pod and the time, and the pod is deleted.
 * - Every deletion is preceded, unless a dry run, by the pod's `DisruptionTarget=True` condition
 *   (reason EvictionByEvictionAPI) written to its status, the delete's resourceVersion
 *   precondition then moved to that write's (upstream addConditionAndDeletePod).
 *
 * The answer is a Success Status (201). A dry run checks everything and changes nothing.
 */
import { rfc3339 } from '../../api/object.js';
import { successStatus } from '../../api/status.js';
import { notSupported } from '../../api/validation/field-errors.js';
import { ApiError, conflict, forbidden, internalError, invalid } from '../../errors/api-error.js';
import { deleteObject } from '../../registry/deletion.js';
import type { CreateAnswer, CreateRequest, DeleteOptions, ResourceStore } from '../../registry/types.js';
import { selectsForEviction } from '../apps-common/label-selector.js';
import type { PodDisruptionBudget } from '../poddisruptionbudgets/poddisruptionbudgets.schema.js';
import { podDisruptionBudgets } from '../poddisruptionbudgets/poddisruptionbudgets.resource.js';
import type { Pod } from '../pods/pods.schema.js';
import type { Eviction } from './evictions.schema.js';

/** Upstream MaxDisruptedPodSize. */
const MAX_DISRUPTED_PODS = 2000;
/** Upstream EvictionsRetry: 20 tries, 500 ms apart (jitter 10%). */
const RETRIES = 20;
const RETRY_MS = 500;

const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

/** 429 TooManyRequests with a DisruptionBudget cause (upstream NewTooManyRequests plus the cause). */
function tooManyRequests(cause: string, retryAfterSeconds: number): ApiError {
  return new ApiError(429, 'TooManyRequests', VIOLATION, {
    ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
    causes: [{ reason: 'DisruptionBudget', message: cause }],
  });
}

/** Upstream createTooManyRequestsError. */
const stillProcessing = (pdb: string) =>
  tooManyRequests(`The disruption budget ${pdb} is still being processed by the server.`, 10);

/** The eviction's DeleteOptions as the registry takes them (dryRun: the body's, else the query's). */
function deleteOptionsOf(eviction: Eviction, queryDryRun: boolean): DeleteOptions {
  const o = eviction.deleteOptions ?? {};
  const dryRun = o.dryRun ?? [];
  const bad = dryRun.find((v) => v !== 'All');
  if (bad !== undefined) throw invalid('DeleteOptions', '', [notSupported('dryRun', bad, ['All'])], 'meta.k8s.io');
  const opts: DeleteOptions = { dryRun: dryRun.length > 0 || queryDryRun };
  if (typeof o.gracePeriodSeconds === 'number') opts.gracePeriodSeconds = o.gracePeriodSeconds;
  if (o.preconditions) {
    const { uid, resourceVersion } = o.preconditions;
    opts.preconditions = {
      ...(typeof uid === 'string' ? { uid } : {}),
      ...(typeof resourceVersion === 'string' ? { resourceVersion } : {}),
    };
  }
  if (typeof o.orphanDependents === 'boolean') opts.orphanDependents = o.orphanDependents;
  if (o.propagationPolicy) opts.propagationPolicy = o.propagationPolicy as DeleteOptions['propagationPolicy'];
  return opts;
}

const hasResourceVersion = (o: DeleteOptions) => o.preconditions?.resourceVersion !== undefined;

/** `opts` with the pod's resourceVersion as a precondition (upstream setPreconditionsResourceVersion). */
const pinned = (o: DeleteOptions, pod: Pod): DeleteOptions => ({
  ...o,
  preconditions: { ...o.preconditions, resourceVersion: pod.metadata.resourceVersion ?? '' },
});

const terminal = (pod: Pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
/** Upstream canIgnorePDB. */
const canIgnorePdb = (pod: Pod) => terminal(pod) || pod.status?.phase === 'Pending' || !!pod.metadata.deletionTimestamp;
/** Upstream IsPodReady. */
const isReady = (pod: Pod) => (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/**
 * `conditions` with upstream's DisruptionTarget condition set (podutil.UpdatePodCondition: the
 * transition time kept when the status is unchanged, the probe time cleared).
 */
function withDisruptionTarget(conditions: NonNullable<Pod['status']>['conditions']) {
  const now = rfc3339();
  const wanted = {
    type: 'DisruptionTarget',
    status: 'True',
    reason: 'EvictionByEvictionAPI',
    message: 'Eviction API: evicting',
  };
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === wanted.type);
  if (i < 0) return [...list, { ...wanted, lastTransitionTime: now }];
  list[i] = { ...wanted, lastTransitionTime: list[i].status === wanted.status ? list[i].lastTransitionTime : now };
  return list;
}

/**
 * Upstream addConditionAndDeletePod: unless a dry run, mark the pod `DisruptionTarget=True`
 * (the latest pod, checked against the delete's uid and resourceVersion preconditions: 409 as
 * upstream's), move a resourceVersion precondition to that write's, then delete the pod.
 */
async function addConditionAndDeletePod(pods: ResourceStore<Pod>, ns: string, name: string, opts: DeleteOptions) {
  let options = opts;
  if (!opts.dryRun) {
    const updated = await pods.mutate(ns, name, (latest) => {
      const { uid, resourceVersion } = opts.preconditions ?? {};
      if (uid && uid !== latest.metadata.uid)
        throw conflict(
          'Pod',
          name,
          `the UID in the precondition (${uid}) does not match the UID in record (${latest.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
        );
      if (resourceVersion && resourceVersion !== latest.metadata.resourceVersion)
        throw conflict(
          'Pod',
          name,
          `the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${latest.metadata.resourceVersion ?? ''}). The object might have been modified`,
        );
      return { ...latest, status: { ...latest.status, conditions: withDisruptionTarget(latest.status?.conditions) } };
    });
    if (hasResourceVersion(opts)) options = pinned(opts, updated);
  }
  await deleteObject(pods, ns, name, options);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms * (1 + Math.random() * 0.1)));

/**
 * Upstream's first loop: a pod whose budget does not matter is deleted (retrying conflicts).
 * Returns the pod when its budgets must be checked, or null once it is deleted.
 */
async function deleteIfBudgetIgnored(pods: ResourceStore<Pod>, ns: string, name: string, opts: DeleteOptions) {
  for (let attempt = 1; ; attempt++) {
    const pod = await pods.get(ns, name);
    if (!canIgnorePdb(pod)) return pod;
    const enforce = !terminal(pod) && !pod.metadata.deletionTimestamp && !hasResourceVersion(opts);
    try {
      await addConditionAndDeletePod(pods, ns, name, enforce ? pinned(opts, pod) : opts);
      return null;
    } catch (err) {
      const retry = err instanceof ApiError && err.code === 409 && !hasResourceVersion(opts) && attempt < RETRIES;
      if (!retry) throw err;
      await sleep(RETRY_MS);
    }
  }
}

/** Upstream UpdateDisruptionAllowedCondition once disruptionsAllowed reached 0 (meta.SetStatusCondition). */
function insufficientPods(pdb: PodDisruptionBudget): NonNullable<PodDisruptionBudget['status']>['conditions'] {
  const status = pdb.status ?? {};
  const now = rfc3339();
  const wanted = {
    type: 'DisruptionAllowed',
    status: 'False',
    reason: 'InsufficientPods',
    message: '',
    observedGeneration: status.observedGeneration ?? 0,
  };
  const conditions = [...(status.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === wanted.type);
  if (i < 0) conditions.push({ ...wanted, lastTransitionTime: now });
  else {
    const changed = conditions[i].status !== wanted.status;
    conditions[i] = {
      ...conditions[i],
      ...wanted,
      lastTransitionTime: changed ? now : conditions[i].lastTransitionTime,
    };
  }
  return conditions;
}

/** Upstream checkAndDecrement, as one compare-and-swap of the budget's status. */
async function checkAndDecrement(
  pdbs: ResourceStore<PodDisruptionBudget>,
  pdb: PodDisruptionBudget,
  podName: string,
  dryRun: boolean,
): Promise<void> {
  const name = pdb.metadata.name ?? '';
  await pdbs.mutate(
    pdb.metadata.namespace ?? '',
    name,
    (current) => {
      const status = current.status ?? {};
      if ((status.observedGeneration ?? 0) < (current.metadata.generation ?? 0)) throw stillProcessing(name);
      const allowed = status.disruptionsAllowed ?? 0;
      if (allowed < 0) throw forbidden('poddisruptionbudget', name, 'pdb disruptions allowed is negative', 'policy');
      if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS)
        throw forbidden(
          'poddisruptionbudget',
          name,
          'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
          'policy',
        );
      if (allowed === 0)
        throw tooManyRequests(
          `The disruption budget ${name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`,
          0,
        );
      const next: PodDisruptionBudget = { ...current, status: { ...status, disruptionsAllowed: allowed - 1 } };
      if (allowed - 1 === 0) next.status = { ...next.status, conditions: insufficientPods(next) };
      next.status = { ...next.status, disruptedPods: { ...(status.disruptedPods ?? {}), [podName]: rfc3339() } };
      return next;
    },
    // A dry run writes nothing (upstream returns before UpdateStatus).
    { dryRun, operation: 'PUT' },
  );
}

/** EvictionREST.Create for the pod `req.name` of `req.target`. */
export async function evictPod(req: CreateRequest<Pod, Eviction>): Promise<CreateAnswer> {
  const pods = req.target;
  const { namespace: ns, name } = req;
  const opts = deleteOptionsOf(req.body, req.dryRun);
  const pod = await deleteIfBudgetIgnored(pods, ns, name, opts);
  if (!pod) return { code: 201, body: successStatus(undefined, 201) };

  const pdbs = req.store(podDisruptionBudgets);
  const matching = (await pdbs.items(ns)).filter((p) => selectsForEviction(p.spec?.selector, pod.metadata.labels));
  if (matching.length > 1)
    throw internalError(
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    );
  let pinRevision = false;
  const pdb = matching[0];
  if (pdb) {
    const status = pdb.status ?? {};
    const healthyEnough =
      (status.currentHealthy ?? 0) >= (status.desiredHealthy ?? 0) && (status.desiredHealthy ?? 0) > 0;
    if (!isReady(pod) && (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' || healthyEnough)) pinRevision = true;
    else await checkAndDecrement(pdbs, pdb, name, opts.dryRun === true);
  }
  try {
    await addConditionAndDeletePod(pods, ns, name, pinRevision ? pinned(opts, pod) : opts);
  } catch (err) {
    if (err instanceof ApiError && err.code === 409 && pinRevision && !hasResourceVersion(opts))
      throw stillProcessing(pdb?.metadata.name ?? '');
    throw err;
  }
  return { code: 201, body: successStatus(undefined, 201) };
}
