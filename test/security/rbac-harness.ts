/**
 * What the RBAC escalation suites share: a server of their own with a token file of many users,
 * requests as the admin (group system:masters) or as any user, SubjectAccessReviews asked by
 * the admin about a user, grants (a ClusterRole bound to a user, cluster-wide or in one
 * namespace) that are waited for until the server's authorizer answers with them, and the
 * write requests a user makes to an RBAC object: create (POST), update (PUT of the object as
 * read), JSON patch, merge patch, strategic merge patch and server-side apply, each optionally
 * a dry run, under either group serving RBAC (`rbac.authorization.k8s.io`, the spec's
 * `rbac.authorization.ck.io`).
 *
 * The authorizer (and the escalation checks) answer from memory fed by watches, so a grant is
 * only used once a SubjectAccessReview shows it; nothing sleeps a fixed time.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type ApiResponse, type TestServer } from '../helpers/in-process.js';

/** Both groups RBAC is served under; they share one storage and must behave the same. */
export const RBAC_GROUPS = ['rbac.authorization.k8s.io', 'rbac.authorization.ck.io'] as const;
export type RbacGroup = (typeof RBAC_GROUPS)[number];
/** Upstream's group: the one RoleRefs, bind and escalate rules and messages name. */
export const RBAC = 'rbac.authorization.k8s.io';

export type Kind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';
export const PLURAL: Record<Kind, string> = {
  Role: 'roles',
  ClusterRole: 'clusterroles',
  RoleBinding: 'rolebindings',
  ClusterRoleBinding: 'clusterrolebindings',
};
export const NAMESPACED: Record<Kind, boolean> = {
  Role: true,
  ClusterRole: false,
  RoleBinding: true,
  ClusterRoleBinding: false,
};
export const isBinding = (kind: Kind): boolean => kind === 'RoleBinding' || kind === 'ClusterRoleBinding';

/** A PolicyRule as written in a Role or ClusterRole. */
export interface PolicyRule {
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
  readonly verbs: readonly string[];
}

/** An authenticated user of the token file (the server adds `system:authenticated`). */
export interface User {
  readonly name: string;
  readonly token: string;
  readonly groups: readonly string[];
}

/** The groups the server sees for `user`, in order (token-file groups, then system:authenticated). */
export const groupsOf = (user: User): string[] => [...user.groups, 'system:authenticated'];

/** The ways a user writes an RBAC object. `apply-create` applies to an object that does not exist yet. */
export const WRITE_VERBS = [
  'create',
  'update',
  'patch-json',
  'patch-merge',
  'patch-strategic',
  'apply',
  'apply-create',
] as const;
export type WriteVerb = (typeof WRITE_VERBS)[number];
/** Verbs that change an object the admin wrote first (the others create it). */
export const updatesExisting = (verb: WriteVerb): boolean => verb !== 'create' && verb !== 'apply-create';
/** The verb the request itself is authorized for (upstream RequestInfo.Verb). */
export const requestVerb = (verb: WriteVerb): string =>
  verb === 'create' ? 'create' : verb === 'update' ? 'update' : 'patch';
/** The status of a write that is let through: 201 for what creates, 200 for what updates. */
export const allowedStatus = (verb: WriteVerb): number => (updatesExisting(verb) ? 200 : 201);

const PATCH_TYPES: Partial<Record<WriteVerb, string>> = {
  'patch-json': 'application/json-patch+json',
  'patch-merge': 'application/merge-patch+json',
  'patch-strategic': 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
  'apply-create': 'application/apply-patch+yaml',
};

/** A server of the suite's own with `users` (and the admin) in its token file. */
export interface RbacServer {
  readonly srv: TestServer;
  readonly admin: User;
  /** A request as `user`. */
  as<T = any>(
    user: User,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
  /** A request as the admin (system:masters); throws unless it answers 2xx. */
  must<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T>;
  stop(): Promise<void>;
}

/** Start a server (RBAC on, the default) whose token file holds the admin and `users`. */
export async function startRbacServer(users: readonly User[]): Promise<RbacServer> {
  const dir = await mkdtemp(join(tmpdir(), 'ck-rbac-escalation-'));
  const admin: User = { name: 'escalation-admin', token: 'escalation-admin-token', groups: ['system:masters'] };
  const line = (u: User) => `${u.token},${u.name},uid-${u.name}${u.groups.length ? `,"${u.groups.join(',')}"` : ''}`;
  await writeFile(join(dir, 'tokens.csv'), [admin, ...users].map(line).join('\n') + '\n');
  const srv = await startTestServer({ tokenAuthFile: join(dir, 'tokens.csv') });
  const as = <T>(user: User, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    srv.api<T>(method, path, body, { authorization: `Bearer ${user.token}`, ...headers });
  return {
    srv,
    admin,
    as,
    async must<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
      const res = await as<T>(admin, method, path, body, headers);
      if (res.status >= 300) throw new Error(`admin ${method} ${path}: ${res.status} ${res.text}`);
      return res.body;
    },
    async stop() {
      await srv.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The path of `kind` (optionally one object of it) under `group`. */
export function rbacPath(group: RbacGroup, kind: Kind, namespace: string | undefined, name?: string): string {
  const ns = NAMESPACED[kind] ? `/namespaces/${namespace}` : '';
  return `/apis/${group}/v1${ns}/${PLURAL[kind]}${name === undefined ? '' : `/${name}`}`;
}

/** What a SubjectAccessReview asks: a resource (namespace undefined = cluster-wide) or a URL. */
export type AccessAttributes =
  | {
      readonly verb: string;
      readonly group: string;
      readonly resource: string;
      readonly subresource?: string;
      readonly name?: string;
      readonly namespace?: string;
    }
  | { readonly verb: string; readonly path: string };

/** Whether the server says `user` may do `attrs` (a SubjectAccessReview asked by the admin). */
export async function allowed(server: RbacServer, user: User, attrs: AccessAttributes): Promise<boolean> {
  const spec =
    'path' in attrs
      ? { nonResourceAttributes: { verb: attrs.verb, path: attrs.path } }
      : {
          resourceAttributes: {
            verb: attrs.verb,
            group: attrs.group,
            resource: attrs.resource,
            subresource: attrs.subresource,
            name: attrs.name,
            namespace: attrs.namespace,
          },
        };
  const review = await server.must<{ status: { allowed: boolean } }>(
    'POST',
    '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: user.name, groups: groupsOf(user), ...spec },
    },
  );
  return review.status.allowed === true;
}

/** Poll until `check` is true (the watch-fed authorizer catching up); throws after `timeoutMs`. */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * A request the rule allows, to see a grant of it arrive: wildcards become concrete values,
 * `res/sub` a subresource, resourceNames the first name. Undefined for a rule no request in
 * `namespace` can match (a URL rule granted in a namespace).
 */
export function probeOf(rule: PolicyRule, namespace: string | undefined): AccessAttributes | undefined {
  const verb = rule.verbs[0] === '*' ? 'get' : rule.verbs[0]!;
  if (rule.nonResourceURLs?.length) {
    if (namespace !== undefined) return undefined;
    const url = rule.nonResourceURLs[0]!;
    return { verb, path: url === '*' ? '/probe' : url.endsWith('*') ? `${url.slice(0, -1)}probe` : url };
  }
  const group = rule.apiGroups![0] === '*' ? 'probe.example' : rule.apiGroups![0]!;
  const [resource, subresource] = rule.resources![0]!.split('/');
  return {
    verb,
    group,
    resource: resource === '*' ? 'probes' : resource!,
    ...(subresource ? { subresource } : {}),
    ...(rule.resourceNames?.length ? { name: rule.resourceNames[0] } : {}),
    namespace,
  };
}

/**
 * Grant `rules` to `user`: a ClusterRole `name` bound by a ClusterRoleBinding (namespace
 * undefined) or by a RoleBinding in `namespace`, both named `name`. Unless `wait` is false,
 * resolves once a SubjectAccessReview shows the grant (by the first rule a request can match).
 */
export async function grant(
  server: RbacServer,
  user: User,
  name: string,
  rules: readonly PolicyRule[],
  namespace?: string,
  wait = true,
): Promise<void> {
  await server.must('POST', rbacPath(RBAC, 'ClusterRole', undefined), {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name },
    rules,
  });
  const binding = {
    apiVersion: `${RBAC}/v1`,
    kind: namespace === undefined ? 'ClusterRoleBinding' : 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name },
    subjects: [{ kind: 'User', apiGroup: RBAC, name: user.name }],
  };
  await server.must(
    'POST',
    rbacPath(RBAC, namespace === undefined ? 'ClusterRoleBinding' : 'RoleBinding', namespace),
    binding,
  );
  const probe = rules.map((r) => probeOf(r, namespace)).find((p) => p !== undefined);
  if (probe && wait) await eventually(`${user.name} to hold ${name}`, () => allowed(server, user, probe));
}

/** Create namespace `name`; answers its uid. */
export async function createNamespace(server: RbacServer, name: string): Promise<string> {
  const ns = await server.must<{ metadata: { uid: string } }>('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  });
  return ns.metadata.uid;
}

/** An RBAC object as read from the server. */
export interface RbacObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string }[];
    finalizers?: string[];
    [key: string]: unknown;
  };
  rules?: PolicyRule[];
  aggregationRule?: unknown;
  roleRef?: { apiGroup: string; kind: string; name: string };
  subjects?: { kind: string; apiGroup?: string; name: string; namespace?: string }[];
}

/** The fields an escalation check guards, to compare an object before and after a write. */
export function essence(obj: RbacObject): Record<string, unknown> {
  const m = obj.metadata;
  return {
    labels: m.labels ?? {},
    annotations: m.annotations ?? {},
    ownerReferences: (m.ownerReferences ?? []).map((o) => o.uid),
    finalizers: m.finalizers ?? [],
    rules: obj.rules ?? [],
    aggregationRule: obj.aggregationRule ?? null,
    roleRef: obj.roleRef ?? null,
    subjects: obj.subjects ?? [],
  };
}

/** The fields of an object that a write sets (everything but server-managed metadata). */
export type Desired = Omit<RbacObject, 'metadata' | 'apiVersion' | 'kind'> & {
  metadata: Pick<RbacObject['metadata'], 'labels' | 'annotations' | 'ownerReferences' | 'finalizers'>;
};

const TOP_FIELDS = ['rules', 'aggregationRule', 'roleRef', 'subjects'] as const;
const META_FIELDS = ['labels', 'annotations', 'ownerReferences', 'finalizers'] as const;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The full object `desired` describes, named `name`, as written under `group`. */
export function fullObject(
  group: RbacGroup,
  kind: Kind,
  namespace: string | undefined,
  name: string,
  desired: Desired,
): RbacObject {
  const metadata: RbacObject['metadata'] = { name, ...(NAMESPACED[kind] ? { namespace } : {}) };
  for (const f of META_FIELDS)
    if (desired.metadata[f] !== undefined) (metadata as Record<string, unknown>)[f] = desired.metadata[f];
  const obj: RbacObject = { apiVersion: `${group}/v1`, kind, metadata };
  for (const f of TOP_FIELDS) if (desired[f] !== undefined) (obj as unknown as Record<string, unknown>)[f] = desired[f];
  return obj;
}

/** A write request: method, path, body (a string for patches) and content type. */
export interface WriteRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly headers: Record<string, string>;
}

/**
 * The request that makes the object `name` look like `desired` by `verb` (a dry run when
 * `dryRun`), under `group`. `live` is the object as the server holds it (for the verbs that
 * change an existing one): an update PUTs it back changed, as `kubectl replace` does, and the
 * patches carry only what differs (JSON patch `add` operations; a subject list that grows is
 * appended to with `/subjects/-`, as `kubectl patch --type=json` users write it).
 */
export function writeRequest(
  group: RbacGroup,
  kind: Kind,
  namespace: string | undefined,
  name: string,
  verb: WriteVerb,
  dryRun: boolean,
  desired: Desired,
  live?: RbacObject,
): WriteRequest {
  const query = new URLSearchParams();
  if (verb === 'apply' || verb === 'apply-create') {
    query.set('fieldManager', 'escalation-test');
    query.set('force', 'true');
  }
  if (dryRun) query.set('dryRun', 'All');
  const qs = query.toString() ? `?${query}` : '';
  const full = fullObject(group, kind, namespace, name, desired);
  if (verb === 'create')
    return { method: 'POST', path: rbacPath(group, kind, namespace) + qs, body: full, headers: {} };
  const path = rbacPath(group, kind, namespace, name) + qs;
  const contentType = PATCH_TYPES[verb];
  if (verb === 'apply' || verb === 'apply-create')
    return { method: 'PATCH', path, body: JSON.stringify(full), headers: { 'content-type': contentType! } };
  if (!live) throw new Error(`${verb} needs the live object`);
  if (verb === 'update') {
    const body = structuredClone(live) as RbacObject;
    body.apiVersion = `${group}/v1`;
    for (const f of META_FIELDS)
      if (desired.metadata[f] !== undefined) (body.metadata as Record<string, unknown>)[f] = desired.metadata[f];
    for (const f of TOP_FIELDS)
      if (desired[f] !== undefined) (body as unknown as Record<string, unknown>)[f] = desired[f];
    return { method: 'PUT', path, body, headers: {} };
  }
  const changedTop = TOP_FIELDS.filter((f) => desired[f] !== undefined && !same(desired[f], live[f]));
  const changedMeta = META_FIELDS.filter(
    (f) => desired.metadata[f] !== undefined && !same(desired.metadata[f], live.metadata[f]),
  );
  if (verb === 'patch-json') {
    const ops: unknown[] = [];
    for (const f of changedTop) {
      const before = (live[f] ?? []) as unknown[];
      const after = desired[f] as unknown[];
      if (
        f === 'subjects' &&
        before.length > 0 &&
        after.length > before.length &&
        same(after.slice(0, before.length), before)
      ) {
        for (const s of after.slice(before.length)) ops.push({ op: 'add', path: '/subjects/-', value: s });
      } else ops.push({ op: 'add', path: `/${f}`, value: desired[f] });
    }
    for (const f of changedMeta) ops.push({ op: 'add', path: `/metadata/${f}`, value: desired.metadata[f] });
    return { method: 'PATCH', path, body: JSON.stringify(ops), headers: { 'content-type': contentType! } };
  }
  const patch: Record<string, unknown> = {};
  for (const f of changedTop) patch[f] = desired[f];
  if (changedMeta.length) patch.metadata = Object.fromEntries(changedMeta.map((f) => [f, desired.metadata[f]]));
  return { method: 'PATCH', path, body: JSON.stringify(patch), headers: { 'content-type': contentType! } };
}

/** Go's `%q` of a []string (`["a" "b"]`), as upstream prints a user's groups and a rule's lists. */
export const goQuoted = (list: readonly string[]): string => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

/**
 * Upstream's lines for missing rules (pkg/registry/rbac/validation/rule.go ConfirmNoEscalation):
 * the uncovered rules compacted (policy_compact.go CompactRules: rules of one group, one
 * resource and at most one name that differ only in verbs become one rule, verbs in order),
 * each printed by CompactString (pkg/apis/rbac/v1/evaluation_helpers.go:
 * `{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}`), as a sorted set.
 */
export function missingLines(uncovered: readonly PolicyRule[]): string[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<
    string,
    { apiGroups: string[]; resources: string[]; resourceNames?: string[]; verbs: string[] }
  >();
  for (const rule of uncovered) {
    const isSimple =
      !rule.nonResourceURLs?.length &&
      rule.apiGroups?.length === 1 &&
      rule.resources?.length === 1 &&
      (rule.resourceNames?.length ?? 0) <= 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups, rule.resources, rule.resourceNames ?? null]);
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...rule.verbs);
    else
      simple.set(key, {
        apiGroups: [...rule.apiGroups!],
        resources: [...rule.resources!],
        ...(rule.resourceNames?.length ? { resourceNames: [...rule.resourceNames] } : {}),
        verbs: [...rule.verbs],
      });
  }
  compacted.push(...simple.values());
  const compact = (r: PolicyRule) => {
    const parts: string[] = [];
    if (r.apiGroups?.length) parts.push(`APIGroups:${goQuoted(r.apiGroups)}`);
    if (r.resources?.length) parts.push(`Resources:${goQuoted(r.resources)}`);
    if (r.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuoted(r.nonResourceURLs)}`);
    if (r.resourceNames?.length) parts.push(`ResourceNames:${goQuoted(r.resourceNames)}`);
    if (r.verbs.length) parts.push(`Verbs:${goQuoted(r.verbs)}`);
    return `{${parts.join(', ')}}`;
  };
  return [...new Set(compacted.map(compact))].sort();
}

/**
 * Upstream's 403 message for a write of `kind` `name` by `user` that grants `uncovered`, made
 * under `group` (the resource is qualified by the group written to, as every other error of
 * the server is: `roles.rbac.authorization.ck.io "x" is forbidden` under ours).
 */
export function escalationMessage(
  group: RbacGroup,
  kind: Kind,
  name: string,
  user: User,
  uncovered: readonly PolicyRule[],
): string {
  return (
    `${PLURAL[kind]}.${group} "${name}" is forbidden: user "${user.name}" (groups=${goQuoted(groupsOf(user))}) ` +
    `is attempting to grant RBAC permissions not currently held:\n${missingLines(uncovered).join('\n')}`
  );
}

/** Upstream's 403 message for a ClusterRole with an aggregationRule written (under `group`) without full authority. */
export const aggregationMessage = (group: RbacGroup, name: string): string =>
  `clusterroles.${group} "${name}" is forbidden: must have cluster-admin privileges to use the aggregationRule`;
