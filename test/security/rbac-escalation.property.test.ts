/**
 * Property: writing RBAC objects never gives a user a permission they did not hold, unless they
 * could have granted it (upstream's escalate and bind verbs).
 *
 * For each RBAC kind, fast-check draws: rules the admin grants a fresh user (cluster-wide or in
 * the run's namespace), perhaps `escalate` or `bind` (on roles or clusterroles, some limited by
 * resourceNames), and one write by that user through a random way of writing (create, update,
 * each patch type, apply to an existing or a missing object; dry run or not; either RBAC group)
 * that could raise their own permissions:
 *  - a Role / ClusterRole the admin already bound to the user, created or rewritten with random
 *    rules;
 *  - a RoleBinding / ClusterRoleBinding naming the user, created, or added to a binding of
 *    someone else, referring to a role with random rules.
 * Every write is authorized (the user may create, update and patch every RBAC kind in both
 * groups); only the escalation checks stand in the way. The server itself answers what the
 * user may do, by SubjectAccessReviews over a fixed set of permissions, before and after the
 * write (after waiting until the authorizer has seen every write: see `barrier`):
 *  - after a refused write or a dry run the answers are exactly the same as before;
 *  - after a write let through, every permission allowed is one allowed before, unless the user
 *    had escalate on the role written (or bind on the role referred to), as the server itself
 *    answered before the write.
 * One server serves every run; each run has its own user and namespace. Runs per kind:
 * RBAC_PROPERTY_RUNS (default 15); RBAC_PROPERTY_SEED replays a seed fast-check printed.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  PLURAL,
  RBAC,
  RBAC_GROUPS,
  WRITE_VERBS,
  allowed,
  createNamespace,
  eventually,
  fullObject,
  grant,
  isBinding,
  rbacPath,
  startRbacServer,
  updatesExisting,
  writeRequest,
  type AccessAttributes,
  type Desired,
  type Kind,
  type PolicyRule,
  type RbacGroup,
  type RbacObject,
  type RbacServer,
  type User,
  type WriteVerb,
} from './rbac-harness.js';

const RUNS = Number(process.env.RBAC_PROPERTY_RUNS ?? 15);
const SEED = process.env.RBAC_PROPERTY_SEED === undefined ? undefined : Number(process.env.RBAC_PROPERTY_SEED);
const KINDS: readonly Kind[] = ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'];

/** The small world rules are drawn from, and every permission asked about. */
const API_GROUPS = ['', 'apps'];
const RESOURCES = ['pods', 'secrets'];
const VERBS = ['get', 'delete'];
const URL = '/ck-prop/a';

/** A list drawn from `values`, or now and then the wildcard. */
const listOf = (values: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.subarray(values, { minLength: 1 }) },
    { weight: 1, arbitrary: fc.constant(['*']) },
  );
const resourceRule: fc.Arbitrary<PolicyRule> = fc
  .record({ apiGroups: listOf(API_GROUPS), resources: listOf(RESOURCES), verbs: listOf(VERBS), named: fc.boolean() })
  .map(({ named, ...rule }) => (named ? { ...rule, resourceNames: ['a'] } : rule));
const urlRule: fc.Arbitrary<PolicyRule> = fc.record({
  nonResourceURLs: fc.constantFrom([URL], ['/ck-prop/*']),
  verbs: fc.constantFrom(['get'], ['*']),
});
/** A rule of a Role (`urls` false) or of a ClusterRole. */
const ruleOf = (urls: boolean) =>
  urls ? fc.oneof({ weight: 3, arbitrary: resourceRule }, { weight: 1, arbitrary: urlRule }) : resourceRule;

type Scope = 'cluster' | 'namespace';
interface Run {
  readonly held: readonly PolicyRule[];
  readonly heldScope: Scope;
  readonly escalate: 'none' | 'roles' | 'clusterroles';
  readonly bind:
    'none' | 'roles' | 'clusterroles' | 'clusterroles named the referenced role' | 'clusterroles named another role';
  readonly powersScope: Scope;
  readonly verb: WriteVerb;
  readonly dryRun: boolean;
  readonly group: RbacGroup;
  /** Rules of the role before an update (role kinds), or of the role referred to (binding kinds). */
  readonly oldRules: readonly PolicyRule[];
  /** Rules the user writes (role kinds). */
  readonly newRules: readonly PolicyRule[];
  /** What a RoleBinding refers to. */
  readonly refKind: 'Role' | 'ClusterRole';
}

const runOf = (kind: Kind): fc.Arbitrary<Run> =>
  fc.record({
    held: fc.array(ruleOf(true), { maxLength: 3 }),
    heldScope: fc.constantFrom<Scope>('cluster', 'namespace'),
    escalate: fc.constantFrom('none', 'none', 'roles', 'clusterroles'),
    bind: fc.constantFrom(
      'none',
      'none',
      'roles',
      'clusterroles',
      'clusterroles named the referenced role',
      'clusterroles named another role',
    ),
    powersScope: fc.constantFrom<Scope>('cluster', 'namespace'),
    verb: fc.constantFrom(...WRITE_VERBS),
    dryRun: fc.boolean(),
    group: fc.constantFrom(...RBAC_GROUPS),
    oldRules: fc.array(ruleOf(kind !== 'Role'), { minLength: isBinding(kind) ? 1 : 0, maxLength: 2 }),
    newRules: fc.array(ruleOf(kind === 'ClusterRole'), { minLength: 1, maxLength: 3 }),
    refKind: fc.constantFrom<'Role' | 'ClusterRole'>('Role', 'ClusterRole'),
  });

/** Every permission asked about, in `namespace` and cluster-wide. */
function permissions(namespace: string): AccessAttributes[] {
  const out: AccessAttributes[] = [{ verb: 'get', path: URL }];
  for (const ns of [namespace, undefined]) {
    for (const group of API_GROUPS)
      for (const resource of RESOURCES) for (const verb of VERBS) out.push({ verb, group, resource, namespace: ns });
    out.push({ verb: 'get', group: '', resource: 'secrets', name: 'a', namespace: ns });
  }
  return out;
}

const show = (a: AccessAttributes) =>
  'path' in a
    ? `${a.verb} ${a.path}`
    : `${a.verb} ${a.resource}${a.name ? `/${a.name}` : ''} in group "${a.group}" ${a.namespace ? `in ${a.namespace}` : 'cluster-wide'}`;

let server: RbacServer;
const pool: User[] = KINDS.flatMap((kind) =>
  Array.from({ length: RUNS }, (_, i) => ({
    name: `prop-${kind.toLowerCase()}-${i}`,
    token: `prop-token-${kind.toLowerCase()}-${i}`,
    groups: [],
  })),
);
const marker: User = { name: 'marker', token: 'unused', groups: [] };
let barriers = 0;

beforeAll(async () => {
  server = await startRbacServer(pool);
  await createNamespace(server, 'marker');
  const role = (kind: 'Role' | 'ClusterRole', name: string, rules: PolicyRule[]) =>
    server.must('POST', rbacPath(RBAC, kind, 'marker'), { apiVersion: `${RBAC}/v1`, kind, metadata: { name }, rules });
  await role('ClusterRole', 'marker-static', [
    { apiGroups: ['marker.example'], resources: ['widgets'], verbs: ['get'] },
  ]);
  await role('ClusterRole', 'marker', []);
  await role('Role', 'marker', []);
  const bindMarker = (kind: 'RoleBinding' | 'ClusterRoleBinding', roleKind: 'Role' | 'ClusterRole') =>
    server.must('POST', rbacPath(RBAC, kind, 'marker'), {
      apiVersion: `${RBAC}/v1`,
      kind,
      metadata: { name: 'marker' },
      roleRef: { apiGroup: RBAC, kind: roleKind, name: 'marker' },
      subjects: [{ kind: 'User', apiGroup: RBAC, name: marker.name }],
    });
  await bindMarker('ClusterRoleBinding', 'ClusterRole');
  await bindMarker('RoleBinding', 'Role');
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/**
 * Wait until the authorizer has seen every RBAC write made so far. It reads each kind from its
 * own watch, in order: once a write of each kind made now (by the admin) shows in a
 * SubjectAccessReview, every earlier write of that kind is seen too.
 */
async function barrier(): Promise<void> {
  const n = ++barriers;
  const mark: PolicyRule[] = [
    { apiGroups: ['marker.example'], resources: ['marks'], verbs: ['get'], resourceNames: [`m${n}`] },
  ];
  const merge = { 'content-type': 'application/merge-patch+json' };
  await server.must(
    'PATCH',
    rbacPath(RBAC, 'ClusterRole', undefined, 'marker'),
    JSON.stringify({ rules: mark }),
    merge,
  );
  await server.must('PATCH', rbacPath(RBAC, 'Role', 'marker', 'marker'), JSON.stringify({ rules: mark }), merge);
  const markerUser = (suffix: string): User => ({ name: `marker-${suffix}-${n}`, token: 'unused', groups: [] });
  for (const kind of ['RoleBinding', 'ClusterRoleBinding'] as const) {
    await server.must('POST', rbacPath(RBAC, kind, 'marker'), {
      apiVersion: `${RBAC}/v1`,
      kind,
      metadata: { name: `marker-${n}` },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'marker-static' },
      subjects: [{ kind: 'User', apiGroup: RBAC, name: markerUser(kind).name }],
    });
  }
  const seen = (user: User, attrs: AccessAttributes) => eventually(`barrier ${n}`, () => allowed(server, user, attrs));
  await seen(marker, { verb: 'get', group: 'marker.example', resource: 'marks', name: `m${n}` });
  await seen(marker, { verb: 'get', group: 'marker.example', resource: 'marks', name: `m${n}`, namespace: 'marker' });
  await seen(markerUser('RoleBinding'), {
    verb: 'get',
    group: 'marker.example',
    resource: 'widgets',
    namespace: 'marker',
  });
  await seen(markerUser('ClusterRoleBinding'), { verb: 'get', group: 'marker.example', resource: 'widgets' });
}

/** What the server says `user` may do, for each permission. */
const answers = (user: User, perms: AccessAttributes[]) => Promise.all(perms.map((p) => allowed(server, user, p)));

/** One run: set up as the admin, ask, let the user write, wait, ask again, compare. */
async function check(kind: Kind, index: number, run: Run): Promise<void> {
  const user = pool.find((u) => u.name === `prop-${kind.toLowerCase()}-${index}`);
  if (!user) throw new Error(`no user left for run ${index} of ${kind} (raise RBAC_PROPERTY_RUNS)`);
  const ns = `prop-${kind.toLowerCase()}-${index}`;
  await createNamespace(server, ns);
  const nsOf = (scope: Scope) => (scope === 'namespace' ? ns : undefined);
  // The write itself is always authorized: only the escalation checks may refuse it.
  const plurals = Object.values(PLURAL);
  await grant(
    server,
    user,
    `${ns}-write`,
    [{ apiGroups: [...RBAC_GROUPS], resources: plurals, verbs: ['create', 'update', 'patch'] }],
    undefined,
    false,
  );
  if (run.held.length) await grant(server, user, `${ns}-held`, run.held, nsOf(run.heldScope), false);

  // The object written: its name, what it looks like before (seeded by the admin) and after.
  const namespaced = kind === 'Role' || kind === 'RoleBinding';
  const objectNs = namespaced ? ns : undefined;
  const name = namespaced ? 'target' : `${ns}-target`;
  const refKind = kind === 'RoleBinding' ? run.refKind : 'ClusterRole';
  const refName = refKind === 'Role' ? 'referenced' : `${ns}-referenced`;
  const powers: PolicyRule[] = [];
  if (run.escalate !== 'none') powers.push({ apiGroups: [RBAC], resources: [run.escalate], verbs: ['escalate'] });
  if (run.bind !== 'none') {
    const names =
      run.bind === 'clusterroles named the referenced role'
        ? { resourceNames: [refName] }
        : run.bind === 'clusterroles named another role'
          ? { resourceNames: ['another'] }
          : {};
    powers.push({
      apiGroups: [RBAC],
      resources: [run.bind.startsWith('clusterroles') ? 'clusterroles' : 'roles'],
      verbs: ['bind'],
      ...names,
    });
  }
  if (powers.length) await grant(server, user, `${ns}-powers`, powers, nsOf(run.powersScope), false);

  const self = [{ kind: 'User', apiGroup: RBAC, name: user.name }];
  let desired: Desired;
  let old: Desired;
  if (!isBinding(kind)) {
    // The admin bound the user to the role already: writing the role's rules is what grants them.
    const bindingKind = kind === 'Role' ? 'RoleBinding' : 'ClusterRoleBinding';
    await server.must('POST', rbacPath(RBAC, bindingKind, objectNs), {
      apiVersion: `${RBAC}/v1`,
      kind: bindingKind,
      metadata: { name: `${ns}-self` },
      roleRef: { apiGroup: RBAC, kind, name },
      subjects: self,
    });
    old = { metadata: {}, rules: [...run.oldRules] };
    desired = { metadata: {}, rules: [...run.newRules] };
  } else {
    const roleNs = refKind === 'Role' ? ns : undefined;
    // A Role has no URL rules: they are left out of a referenced Role.
    const rules = refKind === 'Role' ? run.oldRules.filter((r) => !r.nonResourceURLs) : run.oldRules;
    await server.must('POST', rbacPath(RBAC, refKind, roleNs), {
      apiVersion: `${RBAC}/v1`,
      kind: refKind,
      metadata: { name: refName },
      rules,
    });
    const roleRef = { apiGroup: RBAC, kind: refKind, name: refName };
    old = { metadata: {}, roleRef, subjects: [{ kind: 'User', apiGroup: RBAC, name: 'nobody' }] };
    desired = { metadata: {}, roleRef, subjects: [...old.subjects!, ...self] };
  }
  const live = updatesExisting(run.verb)
    ? await server.must<RbacObject>('POST', rbacPath(RBAC, kind, objectNs), fullObject(RBAC, kind, objectNs, name, old))
    : undefined;

  await barrier();
  const perms = permissions(ns);
  const before = await answers(user, perms);
  // Whether the user may grant anything through this write, as upstream asks it (escalate on the
  // role written, by the request's name: none for a POST; bind on the role referred to).
  const mayGrant = isBinding(kind)
    ? await allowed(server, user, {
        verb: 'bind',
        group: RBAC,
        resource: refKind === 'Role' ? 'roles' : 'clusterroles',
        name: refName,
        namespace: objectNs,
      })
    : await allowed(server, user, {
        verb: 'escalate',
        group: RBAC,
        resource: PLURAL[kind],
        name: run.verb === 'create' ? undefined : name,
        namespace: objectNs,
      });

  const req = writeRequest(run.group, kind, objectNs, name, run.verb, run.dryRun, desired, live);
  const res = await server.as(user, req.method, req.path, req.body, req.headers);
  await barrier();
  const after = await answers(user, perms);

  const gained = perms.filter((_, i) => after[i] && !before[i]).map(show);
  const lost = perms.filter((_, i) => !after[i] && before[i]).map(show);
  const what = `${kind} ${run.verb}${run.dryRun ? ' dryRun=All' : ''} via ${run.group} answered ${res.status} ${res.body?.message ?? ''}`;
  if ((run.dryRun || res.status >= 300) && (gained.length || lost.length)) {
    throw new Error(
      `${what}, yet the user's permissions changed: gained [${gained.join('; ')}], lost [${lost.join('; ')}]`,
    );
  }
  if (!mayGrant && gained.length) {
    throw new Error(
      `${what}: the user (without ${isBinding(kind) ? 'bind' : 'escalate'}) gained permissions it did not hold: ${gained.join('; ')}`,
    );
  }
}

describe('RBAC writes never raise the writer above what it held (unless it had escalate or bind)', () => {
  for (const kind of KINDS) {
    it(`${kind}: ${RUNS} random writes`, async () => {
      let index = 0;
      await fc.assert(
        fc.asyncProperty(runOf(kind), (run) => check(kind, index++, run)),
        { numRuns: RUNS, endOnFailure: true, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    }, 300_000);
  }
});
