/**
 * Keep the bootstrap policy in storage (upstream's rbac/bootstrap-roles post-start hook with
 * reconciliation, pkg/registry/rbac/reconciliation): at every start, on every replica, a
 * missing bootstrap ClusterRole or ClusterRoleBinding is created; an existing one whose
 * `rbac.authorization.kubernetes.io/autoupdate` annotation is not "false" gets the rules,
 * aggregation selectors, subjects, labels and annotations it lacks (nothing is removed; a
 * binding whose roleRef differs is deleted and created again, as roleRef is immutable).
 * Replicas doing this at once are safe: creates that lose are 409s, updates retry conflicts.
 */
import type { Logger } from 'pino';
import type { ApiObject } from '../../api/object.js';
import { ApiError } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { SERVER_WRITER } from '../../registry/hooks.js';
import { AUTOUPDATE_ANNOTATION, BOOTSTRAP_CLUSTER_ROLE_BINDINGS, BOOTSTRAP_CLUSTER_ROLES } from './bootstrap-policy.js';
import type { RbacStores } from './rbac-authorizer.js';

type Merge = (existing: ApiObject, wanted: ApiObject) => ApiObject;

/** Create or complete every bootstrap object. Throws only storage failures. */
export async function reconcileBootstrapPolicy(stores: Pick<RbacStores, 'clusterRoles' | 'clusterRoleBindings'>, logger: Logger): Promise<void> {
  for (const role of BOOTSTRAP_CLUSTER_ROLES) await ensure(stores.clusterRoles, role, mergeRole, logger);
  for (const binding of BOOTSTRAP_CLUSTER_ROLE_BINDINGS) await ensure(stores.clusterRoleBindings, binding, mergeBinding, logger);
}

const is = (err: unknown, code: number) => err instanceof ApiError && err.code === code;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

async function ensure(store: GenericStore, wanted: ApiObject, merge: Merge, logger: Logger): Promise<void> {
  const name = wanted.metadata.name!;
  for (let attempt = 0; attempt < 3; attempt++) {
    let existing: ApiObject;
    try {
      existing = await store.get('', name);
    } catch (err) {
      if (!is(err, 404)) throw err;
      try {
        await store.create('', structuredClone(wanted), { user: SERVER_WRITER });
        logger.info({ kind: wanted.kind, name }, 'created bootstrap policy');
        return;
      } catch (e) {
        if (is(e, 409)) continue; // another replica created it
        throw e;
      }
    }
    if (existing.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false') return;
    const roleRef = (wanted as { roleRef?: unknown }).roleRef;
    if (roleRef && !same((existing as { roleRef?: unknown }).roleRef, roleRef)) {
      await store.remove('', name, { preconditions: { uid: existing.metadata.uid } }).catch((e) => {
        if (!is(e, 404) && !is(e, 409)) throw e;
      });
      continue;
    }
    if (same(merge(existing, wanted), existing)) return;
    await store.update('', name, (latest) => merge(latest, wanted), undefined, { user: SERVER_WRITER });
    logger.info({ kind: wanted.kind, name }, 'reconciled bootstrap policy');
    return;
  }
}

/** Union of two lists by JSON equality, `a`'s items first. */
function union<T>(a: readonly T[] = [], b: readonly T[] = []): T[] {
  const seen = new Set(a.map((x) => JSON.stringify(x)));
  return [...a, ...b.filter((x) => !seen.has(JSON.stringify(x)))];
}

function mergeMeta(existing: ApiObject, wanted: ApiObject): ApiObject['metadata'] {
  return {
    ...existing.metadata,
    labels: { ...wanted.metadata.labels, ...existing.metadata.labels },
    annotations: { ...wanted.metadata.annotations, ...existing.metadata.annotations },
  };
}

const mergeRole: Merge = (existing, wanted) => {
  const e = existing as ApiObject & { rules?: unknown[]; aggregationRule?: { clusterRoleSelectors?: unknown[] } };
  const w = wanted as ApiObject & { rules?: unknown[]; aggregationRule?: { clusterRoleSelectors?: unknown[] } };
  const out: Record<string, unknown> = { ...e, metadata: mergeMeta(existing, wanted) };
  // An aggregated role's rules belong to the aggregation controller.
  if (w.aggregationRule) out.aggregationRule = { clusterRoleSelectors: union(e.aggregationRule?.clusterRoleSelectors, w.aggregationRule.clusterRoleSelectors) };
  else out.rules = union(e.rules, w.rules);
  return out as ApiObject;
};

const mergeBinding: Merge = (existing, wanted) => {
  const subjects = union((existing as { subjects?: unknown[] }).subjects, (wanted as { subjects?: unknown[] }).subjects);
  return { ...existing, metadata: mergeMeta(existing, wanted), subjects } as ApiObject;
};
