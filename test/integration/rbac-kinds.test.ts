/**
 * The RBAC kinds as stored objects: Role, ClusterRole, RoleBinding and ClusterRoleBinding are
 * served under `rbac.authorization.k8s.io/v1` and `rbac.authorization.ck.io/v1` from one
 * storage each; bindings get upstream's defaults (roleRef and User/Group subject apiGroup);
 * upstream 1.10's validation answers with its field paths, reasons and messages; a binding's
 * roleRef cannot change; bindings print NAME ROLE AGE (wide: USERS GROUPS SERVICEACCOUNTS);
 * protobuf bodies are read and answered.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codecFor } from '../../src/api/protobuf/codec.js';
import { RBAC_RESOURCES } from '../../src/resources/rbac/rbac.resource.js';
import { TEST_TOKEN, startTestServer, type TestServer } from '../helpers/in-process.js';

const K8S = '/apis/rbac.authorization.k8s.io/v1';
const CK = '/apis/rbac.authorization.ck.io/v1';
const NS = 'default';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await srv?.stop();
});

const rule = (extra: Record<string, unknown> = {}) => ({
  verbs: ['get'],
  apiGroups: [''],
  resources: ['pods'],
  ...extra,
});
const ref = (kind: string, name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });

describe('RBAC kinds under both groups', () => {
  it('stores a Role once: created under upstream group, read and listed under ours', async () => {
    const created = await srv.api('POST', `${K8S}/namespaces/${NS}/roles`, {
      metadata: { name: 'pod-reader' },
      rules: [rule({ verbs: ['get', 'list'] })],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'pod-reader', namespace: NS },
    });
    const got = await srv.api('GET', `${CK}/namespaces/${NS}/roles/pod-reader`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      apiVersion: 'rbac.authorization.ck.io/v1',
      kind: 'Role',
      rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
    });
    expect(got.body.metadata.uid).toBe(created.body.metadata.uid);
    for (const base of [K8S, CK]) {
      const list = await srv.api('GET', `${base}/namespaces/${NS}/roles`);
      expect(list.body.kind).toBe('RoleList');
      expect(list.body.items.map((r: any) => r.metadata.name)).toContain('pod-reader');
    }
  });

  it('stores ClusterRoles with path-segment names, nonResourceURLs and an aggregationRule, read under the other group', async () => {
    const plain = { metadata: { name: 'test:healthz' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] };
    // The rules of an aggregated ClusterRole are the aggregation controller's to compute.
    const aggregated = {
      metadata: { name: 'test:aggregate' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-test': 'true' } }] },
    };
    for (const body of [plain, aggregated]) {
      const created = await srv.api('POST', `${CK}/clusterroles`, body);
      expect(created.status, created.text).toBe(201);
      expect(created.body.metadata.namespace).toBeUndefined();
      const got = await srv.api('GET', `${K8S}/clusterroles/${body.metadata.name}`);
      expect(got.body).toMatchObject({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', ...body });
    }
    const list = await srv.api('GET', `${K8S}/clusterroles`);
    expect(list.body.items.map((r: any) => r.metadata.name)).toEqual(
      expect.arrayContaining(['test:healthz', 'test:aggregate']),
    );
  });

  it('defaults roleRef and User/Group subject apiGroups of a RoleBinding, not a ServiceAccount one', async () => {
    const created = await srv.api('POST', `${CK}/namespaces/${NS}/rolebindings`, {
      metadata: { name: 'read-pods' },
      roleRef: { kind: 'Role', name: 'pod-reader' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'builder' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.roleRef).toEqual(ref('Role', 'pod-reader'));
    expect(created.body.subjects).toEqual([
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
      { kind: 'ServiceAccount', name: 'builder' },
    ]);
    const got = await srv.api('GET', `${K8S}/namespaces/${NS}/rolebindings/read-pods`);
    expect(got.body).toMatchObject({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      roleRef: ref('Role', 'pod-reader'),
    });
  });

  it('stores a ClusterRoleBinding, accepting our group in roleRef and subjects', async () => {
    const created = await srv.api('POST', `${K8S}/clusterrolebindings`, {
      metadata: { name: 'aggregate-binding' },
      roleRef: { apiGroup: 'rbac.authorization.ck.io', kind: 'ClusterRole', name: 'test:aggregate' },
      subjects: [
        { kind: 'User', apiGroup: 'rbac.authorization.ck.io', name: 'bob' },
        { kind: 'ServiceAccount', name: 'builder', namespace: NS },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const got = await srv.api('GET', `${CK}/clusterrolebindings/aggregate-binding`);
    expect(got.body).toMatchObject({
      kind: 'ClusterRoleBinding',
      roleRef: { apiGroup: 'rbac.authorization.ck.io', kind: 'ClusterRole', name: 'test:aggregate' },
    });
  });

  it('refuses a roleRef change on update, under either group, and keeps other updates', async () => {
    const current = (await srv.api('GET', `${K8S}/namespaces/${NS}/rolebindings/read-pods`)).body;
    const changed = await srv.api('PUT', `${K8S}/namespaces/${NS}/rolebindings/read-pods`, {
      ...current,
      roleRef: ref('ClusterRole', 'view'),
    });
    expect(changed.status).toBe(422);
    const cause = {
      reason: 'FieldValueInvalid',
      field: 'roleRef',
      message:
        'Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"view"}: cannot change roleRef',
    };
    expect(changed.body).toMatchObject({
      reason: 'Invalid',
      message: `RoleBinding.rbac.authorization.k8s.io "read-pods" is invalid: roleRef: ${cause.message}`,
      details: { name: 'read-pods', group: 'rbac.authorization.k8s.io', kind: 'RoleBinding', causes: [cause] },
    });
    const crb = (await srv.api('GET', `${CK}/clusterrolebindings/aggregate-binding`)).body;
    const crbChanged = await srv.api('PUT', `${CK}/clusterrolebindings/aggregate-binding`, {
      ...crb,
      roleRef: { ...crb.roleRef, name: 'other' },
    });
    expect(crbChanged.status).toBe(422);
    expect(crbChanged.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'roleRef',
        message:
          'Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.ck.io", Kind:"ClusterRole", Name:"other"}: cannot change roleRef',
      },
    ]);
    const subjectsChanged = await srv.api('PUT', `${K8S}/namespaces/${NS}/rolebindings/read-pods`, {
      ...current,
      subjects: [{ kind: 'User', name: 'carol' }],
    });
    expect(subjectsChanged.status, subjectsChanged.text).toBe(200);
    expect(subjectsChanged.body.subjects).toEqual([
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'carol' },
    ]);
  });

  it('prints RoleBindings as NAME ROLE AGE, wide USERS GROUPS SERVICEACCOUNTS', async () => {
    await srv.api('POST', `${K8S}/namespaces/${NS}/rolebindings`, {
      metadata: { name: 'printed' },
      roleRef: ref('ClusterRole', 'view'),
      subjects: [
        { kind: 'User', name: 'u1' },
        { kind: 'User', name: 'u2' },
        { kind: 'Group', name: 'g1' },
        { kind: 'ServiceAccount', name: 'sa1', namespace: 'kube-system' },
        { kind: 'ServiceAccount', name: 'sa2' },
      ],
    });
    const res = await srv.api('GET', `${K8S}/namespaces/${NS}/rolebindings/printed`, undefined, { accept: TABLE });
    expect(res.headers['content-type']).toBe(TABLE);
    expect(res.body.columnDefinitions.map((c: any) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0',
      'Role:0',
      'Age:0',
      'Users:1',
      'Groups:1',
      'ServiceAccounts:1',
    ]);
    expect(res.body.rows).toHaveLength(1);
    const [name, role, age, users, groups, sas] = res.body.rows[0].cells;
    expect([name, role, users, groups, sas]).toEqual([
      'printed',
      'ClusterRole/view',
      'u1, u2',
      'g1',
      'kube-system/sa1, /sa2',
    ]);
    expect(age).toMatch(/^\d+s$/);
    const roles = await srv.api('GET', `${CK}/namespaces/${NS}/roles`, undefined, { accept: TABLE });
    expect(roles.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Created At']);
    const crbs = await srv.api('GET', `${CK}/clusterrolebindings`, undefined, { accept: TABLE });
    const row = crbs.body.rows.find((r: any) => r.cells[0] === 'aggregate-binding');
    expect([row.cells[1], ...row.cells.slice(3)]).toEqual(['ClusterRole/test:aggregate', 'bob', '', 'default/builder']);
  });

  it('creates from a protobuf body and answers in protobuf what JSON shows, also under the other group', async () => {
    const codec = codecFor(RBAC_RESOURCES);
    const PB = 'application/vnd.kubernetes.protobuf';
    const body = codec.encodeObject({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'pb' },
      roleRef: { kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'Group', name: 'g' }],
    });
    const res = await request(`${srv.url}${K8S}/clusterrolebindings`, {
      method: 'POST',
      dispatcher: srv.agent,
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': PB, accept: PB },
      body,
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    expect(res.statusCode, bytes.toString()).toBe(201);
    const created = codec.decodeObject(bytes);
    expect(created).toMatchObject({
      kind: 'ClusterRoleBinding',
      roleRef: ref('ClusterRole', 'view'),
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'g' }],
    });
    expect(created).toEqual((await srv.api('GET', `${K8S}/clusterrolebindings/pb`)).body);
    const ours = (await srv.api('GET', `${CK}/clusterrolebindings/pb`)).body;
    expect(ours).toMatchObject({
      apiVersion: 'rbac.authorization.ck.io/v1',
      roleRef: created.roleRef,
      subjects: created.subjects,
    });
  });

  it('answers a DELETE with a Success Status, under either group', async () => {
    const res = await srv.api('DELETE', `${CK}/namespaces/${NS}/rolebindings/printed`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'printed', group: 'rbac.authorization.ck.io', kind: 'rolebindings' },
    });
    expect((await srv.api('GET', `${K8S}/namespaces/${NS}/rolebindings/printed`)).status).toBe(404);
  });
});

type Cause = { field: string; reason: string; message: string };
const required = (field: string, detail = ''): Cause => ({
  field,
  reason: 'FieldValueRequired',
  message: detail ? `Required value: ${detail}` : 'Required value',
});
const invalid = (field: string, message: string): Cause => ({
  field,
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${message}`,
});
const unsupported = (field: string, message: string): Cause => ({
  field,
  reason: 'FieldValueNotSupported',
  message: `Unsupported value: ${message}`,
});
const DNS_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const SELECTOR = 'aggregationRule.clusterRoleSelectors[0]';
const BAD_SELECTOR = invalid(SELECTOR, '"null": invalid label selector.');
const K8S_GROUP = 'supported values: "rbac.authorization.k8s.io"';

const roleCases: [string, string, Record<string, unknown>, Cause[]][] = [
  [
    'a rule without verbs',
    'roles',
    { rules: [rule({ verbs: [] })] },
    [required('rules[0].verbs', 'verbs must contain at least one value')],
  ],
  [
    'nonResourceURLs in a Role',
    'roles',
    { rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] },
    [invalid('rules[0].nonResourceURLs', '[]string{"/healthz"}: namespaced rules cannot apply to non-resource URLs')],
  ],
  [
    'nonResourceURLs with resources',
    'clusterroles',
    { rules: [rule({ nonResourceURLs: ['/api', '/apis/*'] })] },
    [
      invalid(
        'rules[0].nonResourceURLs',
        '[]string{"/api", "/apis/*"}: rules cannot apply to both regular resources and non-resource URLs',
      ),
    ],
  ],
  [
    'a resource rule without apiGroups',
    'roles',
    { rules: [{ verbs: ['get'], resources: ['pods'] }] },
    [required('rules[0].apiGroups', 'resource rules must supply at least one api group')],
  ],
  [
    'a rule with neither resources nor URLs',
    'clusterroles',
    { rules: [rule(), { verbs: ['*'], apiGroups: ['*'] }] },
    [required('rules[1].resources', 'resource rules must supply at least one resource')],
  ],
  [
    'an aggregationRule without selectors',
    'clusterroles',
    { aggregationRule: {} },
    [
      required(
        'aggregationRule.clusterRoleSelectors',
        'at least one clusterRoleSelector required if aggregationRule is non-nil',
      ),
    ],
  ],
  [
    'a selector with an unknown operator',
    'clusterroles',
    {
      aggregationRule: {
        clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Like', values: ['b'] }] }],
      },
    },
    [invalid(`${SELECTOR}.matchExpressions[0].operator`, '"Like": not a valid selector operator'), BAD_SELECTOR],
  ],
  [
    'a selector In without values',
    'clusterroles',
    { aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'In' }] }] } },
    [
      required(`${SELECTOR}.matchExpressions[0].values`, "must be specified when `operator` is 'In' or 'NotIn'"),
      BAD_SELECTOR,
    ],
  ],
  [
    'a selector Exists with values',
    'clusterroles',
    {
      aggregationRule: {
        clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['b'] }] }],
      },
    },
    [
      {
        field: `${SELECTOR}.matchExpressions[0].values`,
        reason: 'FieldValueForbidden',
        message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      },
      BAD_SELECTOR,
    ],
  ],
  [
    'a selector expression value that is no label value',
    'clusterroles',
    {
      aggregationRule: {
        clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'In', values: ['not a value'] }] }],
      },
    },
    [BAD_SELECTOR],
  ],
  [
    'a selector label value that is no label value',
    'clusterroles',
    { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b c' } }] } },
    [
      invalid(
        `${SELECTOR}.matchLabels`,
        `"b c": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      ),
      BAD_SELECTOR,
    ],
  ],
];

const bindingCases: [string, string, Record<string, unknown>, Cause[]][] = [
  [
    'a roleRef of another group',
    'rolebindings',
    { roleRef: { apiGroup: 'example.com', kind: 'Role', name: 'r' } },
    [unsupported('roleRef.apiGroup', `"example.com": ${K8S_GROUP}`)],
  ],
  [
    'a roleRef of another kind',
    'rolebindings',
    { roleRef: ref('Pod', 'r') },
    [unsupported('roleRef.kind', '"Pod": supported values: "Role", "ClusterRole"')],
  ],
  [
    'a ClusterRoleBinding to a Role',
    'clusterrolebindings',
    { roleRef: ref('Role', 'r') },
    [unsupported('roleRef.kind', '"Role": supported values: "ClusterRole"')],
  ],
  [
    'a roleRef without name (and kind)',
    'rolebindings',
    { roleRef: {} },
    [unsupported('roleRef.kind', '"": supported values: "Role", "ClusterRole"'), required('roleRef.name')],
  ],
  [
    'a roleRef name that is no path segment',
    'clusterrolebindings',
    { roleRef: ref('ClusterRole', 'a%b') },
    [invalid('roleRef.name', `"a%b": may not contain '%'`)],
  ],
  [
    'a subject without name',
    'rolebindings',
    { roleRef: ref('Role', 'r'), subjects: [{ kind: 'User' }] },
    [required('subjects[0].name')],
  ],
  [
    'a subject of an unknown kind',
    'rolebindings',
    { roleRef: ref('Role', 'r'), subjects: [{ kind: 'Robot', name: 'r2' }] },
    [unsupported('subjects[0].kind', '"Robot": supported values: "ServiceAccount", "User", "Group"')],
  ],
  [
    'a ServiceAccount with an apiGroup',
    'rolebindings',
    {
      roleRef: ref('Role', 'r'),
      subjects: [{ kind: 'ServiceAccount', apiGroup: 'rbac.authorization.k8s.io', name: 'sa' }],
    },
    [unsupported('subjects[0].apiGroup', '"rbac.authorization.k8s.io": supported values: ""')],
  ],
  [
    'a ServiceAccount name that is no DNS subdomain',
    'rolebindings',
    { roleRef: ref('Role', 'r'), subjects: [{ kind: 'ServiceAccount', name: 'Builder' }] },
    [invalid('subjects[0].name', `"Builder": ${DNS_SUBDOMAIN}`)],
  ],
  [
    'a ServiceAccount without namespace in a ClusterRoleBinding',
    'clusterrolebindings',
    { roleRef: ref('ClusterRole', 'r'), subjects: [{ kind: 'ServiceAccount', name: 'sa' }] },
    [required('subjects[0].namespace')],
  ],
  [
    'a User and a Group of another group',
    'clusterrolebindings',
    {
      roleRef: ref('ClusterRole', 'r'),
      subjects: [
        { kind: 'User', apiGroup: 'example.com', name: 'u' },
        { kind: 'Group', apiGroup: 'example.com', name: 'g' },
      ],
    },
    [
      unsupported('subjects[0].apiGroup', `"example.com": ${K8S_GROUP}`),
      unsupported('subjects[1].apiGroup', `"example.com": ${K8S_GROUP}`),
    ],
  ],
];

const CLUSTER = new Set(['clusterroles', 'clusterrolebindings']);

describe.each([...roleCases, ...bindingCases])('refuses %s', (_what, plural, fields, causes) => {
  it.each([K8S, CK])('under %s with upstream path, reason and message', async (base) => {
    const path = CLUSTER.has(plural) ? `${base}/${plural}` : `${base}/namespaces/${NS}/${plural}`;
    const res = await srv.api('POST', path, { metadata: { name: 'invalid' }, ...fields });
    expect(res.status, res.text).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    expect(res.body.details.causes).toEqual(causes);
  });
});
