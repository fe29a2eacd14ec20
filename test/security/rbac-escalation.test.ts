/**
 * Nobody grants through RBAC what they do not hold (upstream pkg/registry/rbac/*\/policybased):
 * the cases of rbac-cases.ts, each taken from an upstream test, run as a user of the token file
 * against a real server. Every case is written by each way a client writes (create, update by
 * PUT, JSON / merge / strategic merge patch, server-side apply), under both groups serving RBAC
 * (rbac.authorization.k8s.io and rbac.authorization.ck.io, which must answer alike), each once
 * as a dry run and once for real. Each write checks:
 *  - the answer: its status, and for a refusal upstream's exact message (`is attempting to grant
 *    RBAC permissions not currently held:` and the missing rules in upstream's compact form,
 *    or the aggregationRule message, or the missing role's NotFound);
 *  - what the server then holds: a refused write or a dry run leaves the object exactly as it
 *    was (or absent), a write let through leaves it as written.
 * A dry run answers exactly as the real write: both are held to the same expected answer.
 * For every case that refuses something, a control shows that a member of system:masters makes
 * the same writes (so a refusal is the escalation check, not a malformed request).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_WRITES,
  ESCALATION_CASES,
  type Content,
  type EscalationCase,
  type Outcome,
  type Scope,
} from './rbac-cases.js';
import {
  NAMESPACED,
  PLURAL,
  RBAC,
  RBAC_GROUPS,
  aggregationMessage,
  allowed,
  allowedStatus,
  createNamespace,
  escalationMessage,
  essence,
  eventually,
  fullObject,
  grant,
  isBinding,
  probeOf,
  rbacPath,
  requestVerb,
  startRbacServer,
  updatesExisting,
  writeRequest,
  type Desired,
  type PolicyRule,
  type RbacGroup,
  type RbacObject,
  type RbacServer,
  type User,
  type WriteVerb,
} from './rbac-harness.js';

/** A case with its id (the prefix of its namespace and cluster-scoped names) and its writer. */
interface Prepared extends EscalationCase {
  readonly id: string;
  readonly writer: User;
}

const SHORT: Record<WriteVerb, string> = {
  create: 'create',
  update: 'update',
  'patch-json': 'json',
  'patch-merge': 'merge',
  'patch-strategic': 'smp',
  apply: 'apply',
  'apply-create': 'apply-new',
};
const groupShort = (group: RbacGroup) => (group === RBAC ? 'k8s' : 'ck');

/** The name of the object one write (or its control, `as` "admin") of case `id` writes. */
function targetName(
  c: { id: string; kind: EscalationCase['kind'] },
  verb: WriteVerb,
  mode: 'dry' | 'real' | 'admin',
  group: RbacGroup,
): string {
  const name = `${SHORT[verb]}-${mode}-${groupShort(group)}`;
  return NAMESPACED[c.kind] ? name : `${c.id}-${name}`;
}

const verbsOf = (c: EscalationCase): readonly WriteVerb[] => c.verbs ?? ALL_WRITES;

/**
 * The case with its local names made real: `~name` becomes `<id>-name` and `@target` in a
 * list becomes the names of every object the writer writes.
 */
function localize(c: EscalationCase, index: number): Prepared {
  const id = `esc${String(index).padStart(2, '0')}`;
  const targets = RBAC_GROUPS.flatMap((group) =>
    verbsOf(c).flatMap((verb) =>
      (['dry', 'real'] as const).map((mode) => targetName({ id, kind: c.kind }, verb, mode, group)),
    ),
  );
  const localized = JSON.parse(JSON.stringify(c), (_key, value: unknown) => {
    if (typeof value === 'string' && value.startsWith('~')) return `${id}-${value.slice(1)}`;
    if (Array.isArray(value) && value.includes('@target'))
      return value.flatMap((v) => (v === '@target' ? targets : [v]));
    return value;
  }) as EscalationCase;
  return { ...localized, id, writer: { name: `writer-${id}`, token: `token-${id}`, groups: c.groups ?? [] } };
}

const CASES: readonly Prepared[] = ESCALATION_CASES.map(localize);

/** The writer of the `kubectl patch clusterrolebinding cluster-admin` case. */
const PATCHER: User = { name: 'writer-patcher', token: 'token-patcher', groups: [] };

let server: RbacServer;
beforeAll(async () => {
  server = await startRbacServer([...CASES.map((c) => c.writer), PATCHER]);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** What a case's preparation found out: its namespaces and the owner its objects may name. */
interface CaseState {
  ns: string;
  other: string;
  owner: {
    namespaced: NonNullable<RbacObject['metadata']['ownerReferences']>[number];
    cluster: NonNullable<RbacObject['metadata']['ownerReferences']>[number];
  };
}

const subject = (name: string) => ({ kind: 'User', apiGroup: RBAC, name });
const scopeNamespace = (scope: Scope, st: CaseState): string | undefined =>
  scope === 'cluster' ? undefined : scope === 'namespace' ? st.ns : st.other;

/**
 * Set a case up as the admin: its namespaces, an owner for ownerReferences, the roles its
 * bindings refer to (each seen by the authorizer before use), and the writer's grants.
 */
async function prepare(c: Prepared, st: CaseState): Promise<void> {
  st.ns = c.id;
  st.other = `${c.id}-other`;
  const nsUid = await createNamespace(server, st.ns);
  await createNamespace(server, st.other);
  const cm = await server.must<RbacObject>('POST', `/api/v1/namespaces/${st.ns}/configmaps`, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'owner' },
  });
  st.owner = {
    namespaced: { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: cm.metadata.uid as string },
    cluster: { apiVersion: 'v1', kind: 'Namespace', name: st.ns, uid: nsUid },
  };
  const prober: User = { name: `prober-${c.id}`, token: 'unused', groups: [] };
  for (const role of c.roles ?? []) {
    const ns = role.kind === 'Role' ? st.ns : undefined;
    await server.must('POST', rbacPath(RBAC, role.kind, ns), {
      apiVersion: `${RBAC}/v1`,
      kind: role.kind,
      metadata: { name: role.name },
      rules: role.rules,
    });
    // Bind the role to a user of nobody's, and wait until it grants: the authorizer (and the escalation check) sees it.
    const bindingKind = ns ? 'RoleBinding' : 'ClusterRoleBinding';
    await server.must('POST', rbacPath(RBAC, bindingKind, ns), {
      apiVersion: `${RBAC}/v1`,
      kind: bindingKind,
      metadata: { name: `${role.name}-probe` },
      roleRef: { apiGroup: RBAC, kind: role.kind, name: role.name },
      subjects: [subject(prober.name)],
    });
    const probe = probeOf(role.rules[0]!, ns);
    if (probe) await eventually(`role ${role.name}`, () => allowed(server, prober, probe));
  }
  if (c.writeAccess !== false) {
    const write: PolicyRule = {
      apiGroups: [...RBAC_GROUPS],
      resources: [PLURAL[c.kind]],
      verbs: ['create', 'update', 'patch'],
    };
    await grant(server, c.writer, `${c.id}-write`, [write], NAMESPACED[c.kind] ? st.ns : undefined);
  }
  for (const [i, holding] of (c.holds ?? []).entries())
    await grant(server, c.writer, `${c.id}-holds-${i}`, holding.rules, scopeNamespace(holding.scope, st));
}

/** The object `content` describes, as written by a client (see rbac-cases.ts Content). */
function desiredOf(c: Prepared, content: Content, st: CaseState): Desired {
  const metadata: Desired['metadata'] = {
    ...(content.labels ? { labels: { ...content.labels } } : {}),
    ...(content.annotations ? { annotations: { ...content.annotations } } : {}),
    ...(content.owned ? { ownerReferences: [NAMESPACED[c.kind] ? st.owner.namespaced : st.owner.cluster] } : {}),
    ...(content.finalizers ? { finalizers: [...content.finalizers] } : {}),
  };
  if (!isBinding(c.kind)) {
    const aggregationRule = content.aggregated
      ? { clusterRoleSelectors: [{ matchLabels: { 'escalation-test/aggregate': c.id } }] }
      : undefined;
    return { metadata, rules: (content.rules ?? []) as PolicyRule[], ...(aggregationRule ? { aggregationRule } : {}) };
  }
  return {
    metadata,
    roleRef: { apiGroup: RBAC, ...content.roleRef! },
    subjects: (content.subjects ?? ['bound-1', 'bound-2']).map(subject),
  };
}

/** The object before an update: the case's `old`, else a role without rules or the binding with its first subject only. */
const oldOf = (c: Prepared): Content =>
  c.old ?? (isBinding(c.kind) ? { roleRef: c.object.roleRef, subjects: ['bound-1'] } : { rules: [] });

/** A one-line description of an outcome, for test names. */
function describeOutcome(o: Outcome, verb: WriteVerb): string {
  if ('allowed' in o) return `${allowedStatus(verb)}`;
  if ('forbidden' in o) return '403 not currently held';
  if ('aggregationRule' in o) return '403 aggregationRule';
  if ('roleNotFound' in o) return '404 role not found';
  return '403 request forbidden';
}

/** Check the answer to a write of `name` against the expected `outcome`. */
function expectAnswer(
  c: Prepared,
  res: { status: number; body: any; text: string },
  outcome: Outcome,
  verb: WriteVerb,
  group: RbacGroup,
  name: string,
): void {
  const seen = `${res.status} ${typeof res.body === 'object' ? res.body?.message : res.text}`;
  if ('allowed' in outcome) {
    expect(res.status, seen).toBe(allowedStatus(verb));
    return;
  }
  if ('roleNotFound' in outcome) {
    expect(res.status, seen).toBe(404);
    expect(res.body).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      message: `${PLURAL[outcome.roleNotFound.kind]}.${RBAC} "${outcome.roleNotFound.name}" not found`,
    });
    return;
  }
  expect(res.status, seen).toBe(403);
  expect(res.body.reason, seen).toBe('Forbidden');
  if ('forbidden' in outcome)
    expect(res.body.message).toBe(escalationMessage(group, c.kind, name, c.writer, outcome.forbidden));
  else if ('aggregationRule' in outcome) expect(res.body.message).toBe(aggregationMessage(group, name));
  else
    expect(res.body.message).toContain(
      `User "${c.writer.name}" cannot ${requestVerb(verb)} resource "${PLURAL[c.kind]}" in API group "${group}"`,
    );
}

/** Check that the object the server holds is `desired` (what a write let through wrote). */
function expectWritten(c: Prepared, obj: RbacObject, desired: Desired): void {
  if (isBinding(c.kind)) {
    expect(obj.roleRef).toEqual(desired.roleRef);
    expect(obj.subjects).toEqual(desired.subjects);
  } else if (desired.aggregationRule) expect(obj.aggregationRule).toEqual(desired.aggregationRule);
  else expect(obj.rules ?? []).toEqual(desired.rules);
  const m = desired.metadata;
  if (m.labels) expect(obj.metadata.labels).toMatchObject(m.labels);
  if (m.annotations) expect(obj.metadata.annotations).toMatchObject(m.annotations);
  if (m.ownerReferences)
    expect((obj.metadata.ownerReferences ?? []).map((o) => o.uid)).toEqual(m.ownerReferences.map((o) => o.uid));
  if (m.finalizers) expect(obj.metadata.finalizers).toEqual(m.finalizers);
}

/** As the admin, write the object an update starts from; answers it as stored. */
async function seed(c: Prepared, st: CaseState, name: string): Promise<RbacObject> {
  const ns = NAMESPACED[c.kind] ? st.ns : undefined;
  return server.must<RbacObject>(
    'POST',
    rbacPath(RBAC, c.kind, ns),
    fullObject(RBAC, c.kind, ns, name, desiredOf(c, oldOf(c), st)),
  );
}

for (const c of CASES) {
  describe(`${c.name} [${c.kind}] (${c.upstream})`, () => {
    const st = {} as CaseState;
    beforeAll(() => prepare(c, st), 60_000);

    for (const group of RBAC_GROUPS) {
      for (const verb of verbsOf(c)) {
        const outcome = c.expectOn?.[verb] ?? c.expect;
        for (const dryRun of [true, false]) {
          it(`${verb}${dryRun ? ' dryRun=All' : ''} via ${group}: ${describeOutcome(outcome, verb)}`, async () => {
            const ns = NAMESPACED[c.kind] ? st.ns : undefined;
            const name = targetName(c, verb, dryRun ? 'dry' : 'real', group);
            const live = updatesExisting(verb) ? await seed(c, st, name) : undefined;
            const desired = desiredOf(c, c.object, st);
            const req = writeRequest(group, c.kind, ns, name, verb, dryRun, desired, live);
            const res = await server.as(c.writer, req.method, req.path, req.body, req.headers);
            expectAnswer(c, res, outcome, verb, group, name);

            const after = await server.as<RbacObject>(server.admin, 'GET', rbacPath(RBAC, c.kind, ns, name));
            if (dryRun || !('allowed' in outcome)) {
              // Nothing was kept: no object where there was none, the old one unchanged otherwise.
              if (!live) expect(after.status, 'the write must not have created the object').toBe(404);
              else expect(essence(after.body), 'the write must not have changed the object').toEqual(essence(live));
            } else {
              expect(after.status).toBe(200);
              expectWritten(c, after.body, desired);
            }
          });
        }
      }
    }

    if (verbsOf(c).some((verb) => !('allowed' in (c.expectOn?.[verb] ?? c.expect)))) {
      it('control: a member of system:masters makes the same writes', async () => {
        const ns = NAMESPACED[c.kind] ? st.ns : undefined;
        for (const group of RBAC_GROUPS) {
          for (const verb of verbsOf(c)) {
            const name = targetName(c, verb, 'admin', group);
            const live = updatesExisting(verb) ? await seed(c, st, name) : undefined;
            const req = writeRequest(group, c.kind, ns, name, verb, false, desiredOf(c, c.object, st), live);
            const res = await server.as(server.admin, req.method, req.path, req.body, req.headers);
            expect(res.status, `${verb} via ${group}: ${res.text}`).toBe(allowedStatus(verb));
          }
        }
      });
    }
  });
}

describe('kubectl patch clusterrolebinding cluster-admin --type=json adding a subject (rolebinding policybased Update: subjects-only updates are checked)', () => {
  let admins: RbacObject;
  beforeAll(async () => {
    await grant(server, PATCHER, 'patch-clusterrolebindings', [
      { apiGroups: [...RBAC_GROUPS], resources: ['clusterrolebindings'], verbs: ['patch'] },
    ]);
    admins = await server.must<RbacObject>('GET', rbacPath(RBAC, 'ClusterRoleBinding', undefined, 'cluster-admin'));
  }, 60_000);

  for (const group of RBAC_GROUPS) {
    for (const dryRun of [true, false]) {
      it(`${dryRun ? 'dryRun=All ' : ''}via ${group}: 403 not currently held, and cluster-admin keeps its subjects`, async () => {
        const patch = [{ op: 'add', path: '/subjects/-', value: subject('would-be-admin') }];
        const path = rbacPath(group, 'ClusterRoleBinding', undefined, 'cluster-admin') + (dryRun ? '?dryRun=All' : '');
        const res = await server.as(PATCHER, 'PATCH', path, JSON.stringify(patch), {
          'content-type': 'application/json-patch+json',
        });
        expect(res.status, res.text).toBe(403);
        const clusterAdminRules = [
          { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
          { nonResourceURLs: ['*'], verbs: ['*'] },
        ];
        expect(res.body.message).toBe(
          escalationMessage(group, 'ClusterRoleBinding', 'cluster-admin', PATCHER, clusterAdminRules),
        );
        const after = await server.must<RbacObject>(
          'GET',
          rbacPath(RBAC, 'ClusterRoleBinding', undefined, 'cluster-admin'),
        );
        expect(after.subjects).toEqual(admins.subjects);
      });
    }
  }
});
