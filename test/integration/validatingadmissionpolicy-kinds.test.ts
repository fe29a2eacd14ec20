/**
 * The ValidatingAdmissionPolicy kinds as a client sees them (admissionregistration.k8s.io/v1,
 * upstream 1.33): create, get, list, update and `/status` of a policy with upstream's v1
 * defaults, the generation counting spec changes only, bindings, Table columns, discovery, and
 * the paramKind/paramRef read-permission checks (validation: validatingadmissionpolicy-validation.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const BASE = '/apis/admissionregistration.k8s.io/v1';
const VAP = `${BASE}/validatingadmissionpolicies`;
const VAPB = `${BASE}/validatingadmissionpolicybindings`;
const RULE = {
  operations: ['CREATE'],
  apiGroups: ['fixtures.example.com'],
  apiVersions: ['v1'],
  resources: ['nothings'],
};
const spec = (over: object = {}) => ({
  matchConstraints: { resourceRules: [RULE] },
  validations: [{ expression: 'true' }],
  ...over,
});

describe('ValidatingAdmissionPolicy CRUD and status', () => {
  it('creates with upstream v1 defaults, generation 1 and an empty status', async () => {
    const res = await srv.api('POST', VAP, {
      metadata: { name: 'crud.example.com' },
      spec: { matchConstraints: { resourceRules: [RULE] }, validations: [{ expression: 'true' }] },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'crud.example.com', generation: 1 },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          matchPolicy: 'Equivalent',
          namespaceSelector: {},
          objectSelector: {},
          resourceRules: [{ ...RULE, scope: '*' }],
        },
      },
      status: {},
    });
    const got = await srv.api('GET', `${VAP}/crud.example.com`);
    expect(got.body.spec).toEqual(res.body.spec);
    const list = await srv.api('GET', VAP);
    expect(list.body.kind).toBe('ValidatingAdmissionPolicyList');
    expect(list.body.items.map((i: any) => i.metadata.name)).toContain('crud.example.com');
  });

  it('bumps the generation on spec changes only, and keeps the status on a main update', async () => {
    const created = await srv.api('POST', VAP, { metadata: { name: 'gen.example.com' }, spec: spec() });
    expect(created.status, created.text).toBe(201);
    const relabel = await srv.api('PUT', `${VAP}/gen.example.com`, {
      ...created.body,
      metadata: { ...created.body.metadata, labels: { a: 'b' } },
      status: { observedGeneration: 7 },
    });
    expect(relabel.status, relabel.text).toBe(200);
    expect(relabel.body.metadata.generation).toBe(1);
    expect(relabel.body.status).toEqual({});
    const changed = await srv.api('PUT', `${VAP}/gen.example.com`, {
      ...relabel.body,
      spec: { ...relabel.body.spec, failurePolicy: 'Ignore' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.metadata.generation).toBe(2);
  });

  it('writes the status through /status only, keeping spec and generation', async () => {
    const created = await srv.api('POST', VAP, { metadata: { name: 'status.example.com' }, spec: spec() });
    const condition = {
      type: 'Ready',
      status: 'True',
      reason: 'Checked',
      message: '',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    };
    const res = await srv.api('PUT', `${VAP}/status.example.com/status`, {
      ...created.body,
      spec: { ...created.body.spec, failurePolicy: 'Ignore' },
      status: {
        observedGeneration: 1,
        typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'a warning' }] },
        conditions: [condition],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.spec.failurePolicy).toBe('Fail');
    expect(res.body.metadata.generation).toBe(1);
    expect(res.body.status.typeChecking.expressionWarnings[0].warning).toBe('a warning');
    const bad = await srv.api('PUT', `${VAP}/status.example.com/status`, {
      ...res.body,
      status: {
        conditions: [{ ...condition, status: 'Maybe', reason: '' }],
        typeChecking: { expressionWarnings: [{ fieldRef: '', warning: '' }] },
      },
    });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.body.message).toBe(
      'ValidatingAdmissionPolicy.admissionregistration.k8s.io "status.example.com" is invalid: [status.typeChecking.expressionWarnings[0].warning: Required value, status.typeChecking.expressionWarnings[0].fieldRef: Required value, status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown", status.conditions[0].reason: Required value: must be set]',
    );
  });

  it('prints upstream Table columns for policies and bindings', async () => {
    await srv.api('POST', VAP, {
      metadata: { name: 'table.example.com' },
      spec: spec({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }),
    });
    const table = await srv.api('GET', `${VAP}/table.example.com`, undefined, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    expect(table.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Validations', 'ParamKind', 'Age']);
    expect(table.body.rows[0].cells.slice(0, 3)).toEqual(['table.example.com', 1, 'v1/ConfigMap']);
    await srv.api('POST', VAPB, {
      metadata: { name: 'table-binding' },
      spec: {
        policyName: 'table.example.com',
        paramRef: { name: 'cm', parameterNotFoundAction: 'Allow' },
        validationActions: ['Warn'],
      },
    });
    const bt = await srv.api('GET', `${VAPB}/table-binding`, undefined, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    expect(bt.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'PolicyName', 'ParamRef', 'Age']);
    expect(bt.body.rows[0].cells.slice(0, 3)).toEqual(['table-binding', 'table.example.com', '*/cm']);
  });

  it('is in discovery at v1, cluster-scoped, with /status and the api-extensions category', async () => {
    const res = await srv.api('GET', BASE);
    const byName = new Map(res.body.resources.map((r: any) => [r.name, r]));
    expect(byName.get('validatingadmissionpolicies')).toMatchObject({
      namespaced: false,
      kind: 'ValidatingAdmissionPolicy',
      categories: ['api-extensions'],
    });
    expect(byName.get('validatingadmissionpolicies/status')).toMatchObject({ kind: 'ValidatingAdmissionPolicy' });
    expect(byName.get('validatingadmissionpolicybindings')).toMatchObject({ namespaced: false });
    const beta = await srv.api('GET', '/apis/admissionregistration.k8s.io/v1beta1');
    expect((beta.body.resources ?? []).map((r: any) => r.name)).not.toContain('validatingadmissionpolicies');
  });
});

describe('ValidatingAdmissionPolicyBinding', () => {
  it('defaults parameterNotFoundAction and the match resources, bumps the generation on spec changes', async () => {
    const res = await srv.api('POST', VAPB, {
      metadata: { name: 'defaults-binding' },
      spec: {
        policyName: 'p.example.com',
        paramRef: { selector: { matchLabels: { a: 'b' } } },
        matchResources: { resourceRules: [RULE] },
        validationActions: ['Deny', 'Audit'],
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.metadata.generation).toBe(1);
    expect(res.body.spec.paramRef.parameterNotFoundAction).toBe('Deny');
    expect(res.body.spec.matchResources).toEqual({
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      resourceRules: [{ ...RULE, scope: '*' }],
    });
    const upd = await srv.api('PUT', `${VAPB}/defaults-binding`, {
      ...res.body,
      spec: { ...res.body.spec, validationActions: ['Warn'] },
    });
    expect(upd.status, upd.text).toBe(200);
    expect(upd.body.metadata.generation).toBe(2);
  });
});

/** Retry `fn` until it does not throw (RBAC's mirrors see new objects after a watch event). */
async function eventually(fn: () => Promise<void>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('read permission on the parameters (upstream authz.go)', () => {
  const bob = { authorization: 'Bearer other-token' };
  const RBAC = '/apis/rbac.authorization.k8s.io/v1';
  const grant = async (name: string, rules: object[]) => {
    expect((await srv.api('POST', `${RBAC}/clusterroles`, { metadata: { name }, rules })).status).toBe(201);
    const crb = {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
    };
    expect((await srv.api('POST', `${RBAC}/clusterrolebindings`, crb)).status).toBe(201);
  };

  it('refuses a paramKind or paramRef the writer may not get, accepts it once granted', async () => {
    await grant('vap-writer', [
      {
        apiGroups: ['admissionregistration.k8s.io'],
        resources: ['validatingadmissionpolicies', 'validatingadmissionpolicybindings'],
        verbs: ['create', 'update', 'get'],
      },
    ]);
    const withParams = {
      metadata: { name: 'authz.example.com' },
      spec: spec({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }),
    };
    await eventually(async () => {
      const res = await srv.api('POST', VAP, withParams, bob);
      expect(res.status, res.text).toBe(422);
      expect(res.body.message).toBe(
        'ValidatingAdmissionPolicy.admissionregistration.k8s.io "authz.example.com" is invalid: spec.paramKind: Forbidden: user &{bob uid-bob [system:authenticated] map[]} must have "get" permission on all objects of the referenced paramKind (kind=ConfigMap, apiVersion=v1)',
      );
    });
    // Without a paramKind nothing is asked.
    const plain = await srv.api('POST', VAP, { metadata: { name: 'authz-plain.example.com' }, spec: spec() }, bob);
    expect(plain.status, plain.text).toBe(201);
    // An administrator's policy; bob binds it with a paramRef he may not read.
    expect((await srv.api('POST', VAP, withParams)).status).toBe(201);
    const bindingBody = {
      metadata: { name: 'authz-binding' },
      spec: {
        policyName: 'authz.example.com',
        paramRef: { name: 'cm', namespace: 'default' },
        validationActions: ['Deny'],
      },
    };
    const refused = await srv.api('POST', VAPB, bindingBody, bob);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.details.causes).toEqual([
      {
        reason: 'FieldValueForbidden',
        field: 'spec.paramRef',
        message:
          'Forbidden: user &{bob uid-bob [system:authenticated] map[]} does not have "get" permission on the object referenced by paramRef',
      },
    ]);
    await grant('configmap-reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]);
    await eventually(async () => {
      const res = await srv.api('POST', VAPB, bindingBody, bob);
      expect(res.status, res.text).toBe(201);
    });
    const policyNow = await srv.api('POST', VAP, { ...withParams, metadata: { name: 'authz-2.example.com' } }, bob);
    expect(policyNow.status, policyNow.text).toBe(201);
  });
});
