/**
 * ValidatingAdmissionPolicy with its bindings, driven over HTTP as upstream's integration test
 * (test/integration/apiserver/cel/validatingadmissionpolicy_test.go) drives kube-apiserver:
 * refusals with upstream's message, reason and code; messages and messageExpressions; Warn;
 * failurePolicy; matchConditions; namespaceObject and variables; dry run; DELETE. Matching is
 * in validating-admission-policy-matching.test.ts, params and audit in their own files.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import {
  BINDINGS,
  POLICIES,
  binding,
  configMap,
  configMapRule,
  configMaps,
  create,
  denied,
  eventually,
  inForce,
  namespace,
  policy,
} from './validating-admission-policy-fixtures.js';

const srv = useTestServer();

describe('Deny', () => {
  it("refuses with upstream's message, reason Invalid and code 422; admits a valid object", async () => {
    await inForce(srv, 'vap-deny', { validations: [{ expression: "object.data.k == 'ok'" }] });
    const res = await srv.api('POST', configMaps('vap-deny'), configMap('bad', { k: 'no' }));
    const message = `ValidatingAdmissionPolicy 'vap-deny' with binding 'vap-deny' denied request: failed expression: object.data.k == 'ok'`;
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `configmaps "bad" is forbidden: ${message}`,
      reason: 'Invalid',
      details: { name: 'bad', kind: 'configmaps', causes: [{ message }] },
      code: 422,
    });
    expect((await srv.api('POST', configMaps('vap-deny'), configMap('good', { k: 'ok' }))).status).toBe(201);
    // An update is validated too.
    const update = await srv.api('PUT', `${configMaps('vap-deny')}/good`, configMap('good', { k: 'changed' }));
    expect(update.status).toBe(422);
    expect(update.body.message).toBe(
      denied('configmaps', 'good', 'vap-deny', "failed expression: object.data.k == 'ok'"),
    );
  });

  it("answers the validation's reason with its code, and its message or messageExpression", async () => {
    await inForce(srv, 'vap-reasons', {
      validations: [
        { expression: 'has(object.data.k)' },
        { expression: "object.data.k != 'trimmed'", message: ' trimmed ' },
        {
          expression: "object.data.k != 'forbidden'",
          reason: 'Forbidden',
          messageExpression: "'value ' + object.data.k",
        },
        { expression: "object.data.k != 'large'", reason: 'RequestEntityTooLarge' },
        { expression: "object.data.k != 'invalid'", reason: 'Invalid', message: 'fixed', messageExpression: "'a\\nb'" },
      ],
    });
    const cases: [string, number, string, string][] = [
      ['trimmed', 422, 'Invalid', 'trimmed'],
      ['forbidden', 403, 'Forbidden', 'value forbidden'],
      ['large', 413, 'RequestEntityTooLarge', "failed expression: object.data.k != 'large'"],
      ['invalid', 422, 'Invalid', 'fixed'],
    ];
    for (const [k, code, reason, message] of cases) {
      const res = await srv.api('POST', configMaps('vap-reasons'), configMap(k, { k }));
      expect(res.body).toMatchObject({ code, reason, message: denied('configmaps', k, 'vap-reasons', message) });
    }
  });
});

describe('failurePolicy', () => {
  it('Fail refuses an expression that fails to evaluate; Ignore admits it', async () => {
    const failing = { expression: "object.data.nope == 'x'" };
    const refused = await inForce(srv, 'vap-fail', { validations: [failing] });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(
      /ValidatingAdmissionPolicy 'vap-fail' with binding 'vap-fail' denied request: expression 'object\.data\.nope == 'x'' resulted in error: no such key: nope$/,
    );
    await inForce(srv, 'vap-ignore', {
      failurePolicy: 'Ignore',
      validations: [failing, { expression: '!has(object.data.probe)' }],
    });
    expect((await srv.api('POST', configMaps('vap-ignore'), configMap('x', { a: 'b' }))).status).toBe(201);
  });
});

describe('Warn', () => {
  it('admits and answers a Warning header with upstream text', async () => {
    await namespace(srv, 'vap-warn', { vap: 'vap-warn' });
    await create(
      srv,
      POLICIES,
      policy('vap-warn', {
        matchConstraints: { resourceRules: [configMapRule()], namespaceSelector: { matchLabels: { vap: 'vap-warn' } } },
        validations: [{ expression: "object.data.k == 'ok'", message: 'k must be ok' }],
      }),
    );
    await create(srv, BINDINGS, binding('vap-warn', 'vap-warn', { validationActions: ['Warn'] }));
    const res = await eventually(
      () =>
        srv.api('POST', configMaps('vap-warn'), { ...configMap('', { k: 'no' }), metadata: { generateName: 'w-' } }),
      (r) => r.headers.warning !== undefined,
    );
    expect(res.status).toBe(201);
    expect([res.headers.warning].flat()).toEqual([
      `299 - "Validation failed for ValidatingAdmissionPolicy 'vap-warn' with binding 'vap-warn': k must be ok"`,
    ]);
  });
});

describe('matchConditions', () => {
  it('a false condition skips the policy; an error refuses under Fail', async () => {
    const probe = {
      ...configMap('', {}, { check: 'yes' }),
      metadata: { generateName: 'p-', labels: { check: 'yes' } },
    };
    await inForce(
      srv,
      'vap-conditions',
      {
        matchConditions: [{ name: 'labelled', expression: "'check' in object.metadata.labels" }],
        validations: [{ expression: "has(object.data.k) && object.data.k == 'ok'" }],
      },
      {},
      probe,
    );
    const unlabelled = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'free', labels: { a: 'b' } } };
    expect((await srv.api('POST', configMaps('vap-conditions'), unlabelled)).status).toBe(201);
    const refused = await inForce(srv, 'vap-condition-error', {
      matchConditions: [{ name: 'broken', expression: "object.metadata.labels.check == 'x'" }],
      validations: [{ expression: 'true' }],
    });
    expect(refused.body.message).toMatch(
      /denied request: expression 'object\.metadata\.labels\.check == 'x'' resulted in error: no such key: labels$/,
    );
  });
});

describe('what expressions see', () => {
  it('authorizer asks about the writer', async () => {
    await inForce(srv, 'vap-authz', {
      validations: [
        {
          expression:
            "!has(object.data.probe) && authorizer.group('').resource('configmaps').namespace(request.namespace).check('delete').allowed()",
          messageExpression: "request.userInfo.username + ' may not delete configmaps'",
        },
      ],
    });
    // alice may create ConfigMaps in the namespace but not delete them.
    const rbac = '/apis/rbac.authorization.k8s.io/v1/namespaces/vap-authz';
    await create(srv, `${rbac}/roles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'creator' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }],
    });
    await create(srv, `${rbac}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'creator' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'creator' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
    });
    const asAlice = await eventually(
      () => srv.api('POST', configMaps('vap-authz'), configMap('by-alice'), { 'Impersonate-User': 'alice' }),
      (r) => r.status !== 403 || !String(r.body.message).includes('cannot create'),
    );
    expect(asAlice.body.message).toBe(denied('configmaps', 'by-alice', 'vap-authz', 'alice may not delete configmaps'));
    // The admin may delete them.
    expect((await srv.api('POST', configMaps('vap-authz'), configMap('by-admin'))).status).toBe(201);
  });

  it('namespaceObject and variables', async () => {
    await inForce(srv, 'vap-vars', {
      variables: [
        { name: 'team', expression: "namespaceObject.metadata.labels['vap']" },
        { name: 'owner', expression: "object.metadata.labels['owner']" },
      ],
      validations: [
        {
          expression: 'variables.owner == variables.team',
          messageExpression: "'owner ' + variables.owner + ' is not ' + variables.team",
        },
      ],
    });
    const cm = (name: string, owner: string) => configMap(name, {}, { owner });
    expect((await srv.api('POST', configMaps('vap-vars'), cm('mine', 'vap-vars'))).status).toBe(201);
    const res = await srv.api('POST', configMaps('vap-vars'), cm('theirs', 'other'));
    expect(res.body.message).toBe(denied('configmaps', 'theirs', 'vap-vars', 'owner other is not vap-vars'));
  });

  it('a dry run is validated, and nothing is stored', async () => {
    await inForce(srv, 'vap-dry', { validations: [{ expression: "object.data.k == 'ok' && request.dryRun" }] });
    const bad = await srv.api('POST', `${configMaps('vap-dry')}?dryRun=All`, configMap('bad', { k: 'no' }));
    expect(bad.status).toBe(422);
    const good = await srv.api('POST', `${configMaps('vap-dry')}?dryRun=All`, configMap('good', { k: 'ok' }));
    expect(good.status).toBe(201);
    expect((await srv.api('GET', `${configMaps('vap-dry')}/good`)).status).toBe(404);
    // Not a dry run: `request.dryRun` is false.
    expect((await srv.api('POST', configMaps('vap-dry'), configMap('good', { k: 'ok' }))).status).toBe(422);
  });

  it('DELETE is validated with the stored object as oldObject', async () => {
    await namespace(srv, 'vap-delete', { vap: 'vap-delete' });
    await create(
      srv,
      POLICIES,
      policy('vap-delete', {
        matchConstraints: {
          resourceRules: [configMapRule({ operations: ['DELETE'] })],
          namespaceSelector: { matchLabels: { vap: 'vap-delete' } },
        },
        validations: [{ expression: "object == null && oldObject.data.locked != 'yes'", message: 'locked' }],
      }),
    );
    await create(srv, BINDINGS, binding('vap-delete', 'vap-delete'));
    let i = 0;
    const res = await eventually(
      async () => {
        const name = `locked-${i++}`;
        await create(srv, configMaps('vap-delete'), configMap(name, { locked: 'yes' }));
        return srv.api('DELETE', `${configMaps('vap-delete')}/${name}`);
      },
      (r) => r.status !== 200,
    );
    expect(res.body.message).toBe(denied('configmaps', `locked-${i - 1}`, 'vap-delete', 'locked'));
    await create(srv, configMaps('vap-delete'), configMap('open', { locked: 'no' }));
    expect((await srv.api('DELETE', `${configMaps('vap-delete')}/open`)).status).toBe(200);
  });
});
