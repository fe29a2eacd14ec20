/**
 * The legacy rollback (upstream pkg/controller/deployment/rollback.go): a Deployment annotated
 * `deprecated.deployment.rollback.to` (apps/v1's form of v1beta1's spec.rollbackTo, set by
 * POST .../rollback) gets the template of that revision (0: the previous one) and that
 * ReplicaSet's annotations, and the annotation is cleared. `kubectl rollout undo` today writes
 * the template itself, which needs nothing here: the old ReplicaSet becomes the new one and
 * takes the next revision.
 */
import { replicaSetsAndSyncRevision } from './new-replica-set.js';
import { equalIgnoreHash } from './replica-sets.js';
import { lastRevision, revisionOf, setDeploymentAnnotationsTo } from './revisions.js';
import { getRollbackTo } from './sync.js';
import {
  POD_TEMPLATE_HASH,
  ROLLBACK_TO_ANNOTATION,
  RollbackReason,
  type Deployment,
  type ReplicaSet,
  type SyncContext,
} from './types.js';

/** rollback. Throws what the client throws. */
export async function rollback(ctx: SyncContext, d: Deployment, rsList: readonly ReplicaSet[]): Promise<void> {
  const { newRS, oldRSs } = await replicaSetsAndSyncRevision(ctx, d, rsList, true);
  const all = [...oldRSs, ...(newRS ? [newRS] : [])];
  let revision = getRollbackTo(d) ?? 0;
  if (revision === 0) {
    revision = lastRevision(all);
    if (revision === 0) {
      ctx.client.event(d, 'Warning', RollbackReason.RevisionNotFound, 'Unable to find last revision.');
      return clearRollbackTo(ctx, d);
    }
  }
  const target = all.find((rs) => revisionOf(rs) === revision);
  if (!target) {
    ctx.client.event(d, 'Warning', RollbackReason.RevisionNotFound, 'Unable to find the revision to rollback to.');
    return clearRollbackTo(ctx, d);
  }
  if (!equalIgnoreHash(d.spec?.template, target.spec?.template)) {
    const template = structuredClone(target.spec?.template ?? {});
    const labels = { ...(template.metadata?.labels ?? {}) };
    delete labels[POD_TEMPLATE_HASH];
    template.metadata = { ...(template.metadata ?? {}), labels };
    d.spec = { ...d.spec, template };
    setDeploymentAnnotationsTo(d, target);
    await clearRollbackTo(ctx, d);
    ctx.client.event(
      d,
      'Normal',
      RollbackReason.Done,
      `Rolled back deployment "${d.metadata.name}" to revision ${revision}`,
    );
    return;
  }
  ctx.client.event(
    d,
    'Warning',
    RollbackReason.TemplateUnchanged,
    `The rollback revision contains the same template as current deployment "${d.metadata.name}"`,
  );
  return clearRollbackTo(ctx, d);
}

/** updateDeploymentAndClearRollbackTo. */
async function clearRollbackTo(ctx: SyncContext, d: Deployment): Promise<void> {
  const annotations = { ...(d.metadata.annotations ?? {}) };
  delete annotations[ROLLBACK_TO_ANNOTATION];
  d.metadata = { ...d.metadata, annotations };
  Object.assign(d, await ctx.client.updateDeployment(d));
}
