/**
 * The new ReplicaSet of a Deployment (upstream pkg/controller/deployment/sync.go
 * getAllReplicaSetsAndSyncRevision and getNewReplicaSet): the one whose template is the
 * Deployment's, its annotations and minReadySeconds kept in step and its revision raised above
 * every old one's; or, when asked, a new one named `<deployment>-<hash>` with the
 * pod-template-hash label on itself, its template and its selector, created at the size
 * NewRSNewReplicas allows. A name taken by a ReplicaSet that is not ours bumps
 * status.collisionCount (the next sync tries another name).
 */
import { ApiError } from '../../errors/api-error.js';
import { computeHash } from './hash.js';
import { getCondition, hasProgressDeadline, newCondition, setCondition } from './conditions.js';
import { equalIgnoreHash, findNewReplicaSet, findOldReplicaSets } from './replica-sets.js';
import { maxSurge, newRSNewReplicas } from './replicas.js';
import { maxRevision, setDeploymentRevision, setNewReplicaSetAnnotations } from './revisions.js';
import {
  POD_TEMPLATE_HASH,
  REVISION_ANNOTATION,
  Reason,
  specReplicas,
  type Deployment,
  type ReplicaSet,
  type SyncContext,
} from './types.js';

/** The new ReplicaSet (undefined when there is none and none was created) and every old one. */
export interface ReplicaSetsOf {
  newRS: ReplicaSet | undefined;
  oldRSs: ReplicaSet[];
}

/**
 * getAllReplicaSetsAndSyncRevision: `rsList` (the Deployment's claimed ReplicaSets) split into
 * the new one (created when `create`) and the old ones. `d` may be updated in place (revision,
 * conditions, collisionCount). Throws what the client throws.
 */
export async function replicaSetsAndSyncRevision(
  ctx: SyncContext,
  d: Deployment,
  rsList: readonly ReplicaSet[],
  create: boolean,
): Promise<ReplicaSetsOf> {
  const { all } = findOldReplicaSets(d, rsList);
  const newRS = await getNewReplicaSet(ctx, d, rsList, all, create);
  return { newRS, oldRSs: all };
}

/** The owner reference a Deployment puts on its ReplicaSets (metav1.NewControllerRef). */
export function controllerRefOf(d: Deployment) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    name: d.metadata.name ?? '',
    uid: d.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** getNewReplicaSet. Throws what the client throws (a collision: the create's 409). */
export async function getNewReplicaSet(
  ctx: SyncContext,
  d: Deployment,
  rsList: readonly ReplicaSet[],
  oldRSs: readonly ReplicaSet[],
  create: boolean,
): Promise<ReplicaSet | undefined> {
  const existing = findNewReplicaSet(d, rsList);
  const newRevision = String(maxRevision(oldRSs) + 1);
  const replicas = { desired: specReplicas(d), max: specReplicas(d) + maxSurge(d) };
  if (existing) {
    const rs = structuredClone(existing);
    const annotated = setNewReplicaSetAnnotations(d, rs, newRevision, true, replicas);
    const minReady = d.spec?.minReadySeconds ?? 0;
    if (annotated || (rs.spec?.minReadySeconds ?? 0) !== minReady) {
      rs.spec = { ...rs.spec, minReadySeconds: minReady };
      return ctx.client.updateReplicaSet(rs);
    }
    let needsUpdate = setDeploymentRevision(d, rs.metadata.annotations?.[REVISION_ANNOTATION] ?? '');
    if (hasProgressDeadline(d) && !getCondition(d.status, 'Progressing')) {
      const msg = `Found new replica set "${rs.metadata.name}"`;
      setCondition((d.status ??= {}), newCondition('Progressing', 'True', Reason.FoundNewRS, msg, ctx.now()));
      needsUpdate = true;
    }
    if (needsUpdate) Object.assign(d, await ctx.client.updateDeploymentStatus(d));
    return rs;
  }
  if (!create) return undefined;

  const template = structuredClone(d.spec?.template ?? {});
  const hash = computeHash(template, d.status?.collisionCount);
  const labels = { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH]: hash };
  template.metadata = { ...(template.metadata ?? {}), labels };
  const selector = structuredClone(d.spec?.selector ?? {});
  selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH]: hash };
  const rs: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name}-${hash}`,
      namespace: d.metadata.namespace,
      ownerReferences: [controllerRefOf(d)],
      labels: { ...labels },
    },
    spec: { replicas: 0, minReadySeconds: d.spec?.minReadySeconds ?? 0, selector, template },
  };
  const count = newRSNewReplicas(d, [...oldRSs, rs], rs);
  rs.spec!.replicas = count;
  setNewReplicaSetAnnotations(d, rs, newRevision, false, replicas);

  let created: ReplicaSet;
  let alreadyExists = false;
  try {
    created = await ctx.client.createReplicaSet(rs);
  } catch (err) {
    if (err instanceof ApiError && err.reason === 'AlreadyExists') {
      alreadyExists = true;
      const found = await ctx.client.getReplicaSet(d.metadata.namespace ?? '', rs.metadata.name ?? '');
      const ref = found.metadata.ownerReferences?.find((r) => r.controller);
      if (!(ref && ref.uid === d.metadata.uid && equalIgnoreHash(d.spec?.template, found.spec?.template))) {
        (d.status ??= {}).collisionCount = (d.status.collisionCount ?? 0) + 1;
        await ctx.client.updateDeploymentStatus(d).catch(() => undefined);
        throw err;
      }
      created = found;
    } else if (isNamespaceTerminating(err)) {
      throw err;
    } else {
      const msg = `Failed to create new replica set "${rs.metadata.name}": ${err instanceof Error ? err.message : String(err)}`;
      if (hasProgressDeadline(d)) {
        setCondition((d.status ??= {}), newCondition('Progressing', 'False', Reason.FailedRSCreate, msg, ctx.now()));
        await ctx.client.updateDeploymentStatus(d).catch(() => undefined);
      }
      ctx.client.event(d, 'Warning', Reason.FailedRSCreate, msg);
      throw err;
    }
  }
  if (!alreadyExists && count > 0)
    ctx.client.event(
      d,
      'Normal',
      'ScalingReplicaSet',
      `Scaled up replica set ${created.metadata.name} from 0 to ${count}`,
    );
  let needsUpdate = setDeploymentRevision(d, newRevision);
  if (!alreadyExists && hasProgressDeadline(d)) {
    const msg = `Created new replica set "${created.metadata.name}"`;
    setCondition((d.status ??= {}), newCondition('Progressing', 'True', Reason.NewReplicaSet, msg, ctx.now()));
    needsUpdate = true;
  }
  if (needsUpdate) Object.assign(d, await ctx.client.updateDeploymentStatus(d));
  return created;
}

/** Upstream errors.HasStatusCause(err, NamespaceTerminatingCause). */
function isNamespaceTerminating(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  return (err.details?.causes ?? []).some((c) => String(c.reason) === 'NamespaceTerminating');
}
