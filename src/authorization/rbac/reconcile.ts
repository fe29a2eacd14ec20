/**
 * Keep the bootstrap policy in storage (upstream's rbac/bootstrap-roles post-start hook with
 * reconciliation, pkg/registry/rbac/reconciliation): at every start, on every replica, a
 * missing bootstrap ClusterRole, ClusterRoleBinding, Role or RoleBinding (the namespaced ones in
 * kube-system and kube-public, which exist by then) is created; an existing one whose
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
import {
  AUTOUPDATE_ANNOTATION,
  BOOTSTRAP_CLUSTER_ROLE_BINDINGS,
  BOOTSTRAP_CLUSTER_ROLES,
  BOOTSTRAP_ROLE_BINDINGS,
  BOOTSTRAP_ROLES,
} from './bootstrap-policy.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../resources/rbac/rbac.schema.js';
import type { RbacStores } from './rbac-authorizer.js';

type Merge<T extends ApiObject> = (existing: T, wanted: T) => T;

/** Create or complete every bootstrap object. Throws only storage failures. */
export async function reconcileBootstrapPolicy(
  stores: Pick<RbacStores, 'clusterRoles' | 'clusterRoleBindings' | 'roles' | 'roleBindings'>,
  logger: Logger,
): Promise<void> {
  for (const role of BOOTSTRAP_CLUSTER_ROLES) await ensure(stores.clusterRoles, role, mergeRole, logger);
  for (const binding of BOOTSTRAP_CLUSTER_ROLE_BINDINGS)
    await ensure(stores.clusterRoleBindings, binding, mergeBinding, logger);
  for (const role of BOOTSTRAP_ROLES) await ensure(stores.roles, role, mergeRole, logger);
  for (const binding of BOOTSTRAP_ROLE_BINDINGS) await ensure(stores.roleBindings, binding, mergeBinding, logger);
}

const is = (err: unknown, code: number) => err instanceof ApiError && err.code === code;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

async function ensure<T extends ApiObject>(
  store: GenericStore<T>,
  wanted: T,
  merge: Merge<T>,
  logger: Logger,
): Promise<void> {
  const name = wanted.metadata.name!;
  const namespace = wanted.metadata.namespace ?? '';
  for (let attempt = 0; attempt < 3; attempt++) {
    let existing: T;
    try {
      existing = await store.get(namespace, name);
    } catch (err) {
      if (!is(err, 404)) throw err;
      try {
        await store.create(namespace, structuredClone(wanted), { user: SERVER_WRITER });
        logger.info({ kind: wanted.kind, namespace, name }, 'created bootstrap policy');
        return;
      } catch (e) {
        if (is(e, 409)) continue; // another replica created it
        throw e;
      }
    }
    if (existing.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false') return;
    const roleRef = wanted.roleRef;
    if (roleRef && !same(existing.roleRef, roleRef)) {
      await store.remove(namespace, name, { preconditions: { uid: existing.metadata.uid } }).catch((e) => {
        if (!is(e, 404) && !is(e, 409)) throw e;
      });
      continue;
    }
    if (same(merge(existing, wanted), existing)) return;
    await store.update(namespace, name, (latest) => merge(latest, wanted), undefined, { user: SERVER_WRITER });
    logger.info({ kind: wanted.kind, namespace, name }, 'reconciled bootstrap policy');
    return;
  }
}

/** Union of two lists by JSON equality, `a`'s items first. */
function union<T>(a: readonly T[] | null = [], b: readonly T[] | null = []): T[] {
  const seen = new Set((a ?? []).map((x) => JSON.stringify(x)));
  return [...(a ?? []), ...(b ?? []).filter((x) => !seen.has(JSON.stringify(x)))];
}

function mergeMeta(existing: ApiObject, wanted: ApiObject): ApiObject['metadata'] {
  return {
    ...existing.metadata,
    labels: { ...wanted.metadata.labels, ...existing.metadata.labels },
    annotations: { ...wanted.metadata.annotations, ...existing.metadata.annotations },
  };
}

const mergeRole: Merge<ClusterRole | Role> = (existing, wanted) => {
  const out: ClusterRole = { ...existing, metadata: mergeMeta(existing, wanted) };
  const selectors = (r: ClusterRole) => r.aggregationRule?.clusterRoleSelectors;
  // An aggregated role's rules belong to the aggregation controller (a Role has no aggregationRule).
  if ('aggregationRule' in wanted && wanted.aggregationRule)
    out.aggregationRule = { clusterRoleSelectors: union(selectors(existing), selectors(wanted)) };
  else out.rules = union(existing.rules, wanted.rules);
  return out;
};

const mergeBinding: Merge<ClusterRoleBinding | RoleBinding> = (existing, wanted) => {
  const subjects = union(existing.subjects, wanted.subjects);
  return { ...existing, metadata: mergeMeta(existing, wanted), subjects };
};
