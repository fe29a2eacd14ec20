/**
 * ValidatingAdmissionPolicy params, as upstream's CollectParams finds them: paramRef by name
 * (in paramRef.namespace, else the request's), by selector (one evaluation per param),
 * parameterNotFoundAction Allow and Deny, a paramKind that is not served, and a namespaced
 * param for a cluster-scoped request; params are read as they change.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import {
  BINDINGS,
  POLICIES,
  binding,
  configMap,
  configMaps,
  create,
  eventually,
  inForce,
  namespace,
  policy,
} from './validating-admission-policy-fixtures.js';

const srv = useTestServer();
const CONFIG_MAP_PARAMS = { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } };
const prefix = (p: string, b: string) => `ValidatingAdmissionPolicy '${p}' with binding '${b}' denied request: `;

describe('paramRef', () => {
  it('by name in paramRef.namespace; a changed param applies at once', async () => {
    await namespace(srv, 'vap-param-cfg');
    await create(srv, configMaps('vap-param-cfg'), configMap('limits', { want: 'blue' }));
    await inForce(
      srv,
      'vap-param-name',
      {
        ...CONFIG_MAP_PARAMS,
        validations: [
          { expression: 'object.data.k == params.data.want', messageExpression: "'want ' + params.data.want" },
        ],
      },
      { paramRef: { name: 'limits', namespace: 'vap-param-cfg', parameterNotFoundAction: 'Deny' } },
    );
    expect((await srv.api('POST', configMaps('vap-param-name'), configMap('blue', { k: 'blue' }))).status).toBe(201);
    const red = await srv.api('POST', configMaps('vap-param-name'), configMap('red', { k: 'red' }));
    expect(red.body.message).toBe(
      `configmaps "red" is forbidden: ${prefix('vap-param-name', 'vap-param-name')}want blue`,
    );
    const put = await srv.api('PUT', `${configMaps('vap-param-cfg')}/limits`, configMap('limits', { want: 'red' }));
    expect(put.status).toBe(200);
    const later = await eventually(
      () => srv.api('POST', configMaps('vap-param-name'), configMap('red', { k: 'red' })),
      (r) => r.status === 201,
    );
    expect(later.status).toBe(201);
  });

  it("by name in the request's namespace when paramRef.namespace is unset", async () => {
    await inForce(
      srv,
      'vap-param-local',
      {
        ...CONFIG_MAP_PARAMS,
        // The param lives among the objects the policy governs: leave it out.
        matchConstraints: {
          excludeResourceRules: [
            {
              apiGroups: [''],
              apiVersions: ['v1'],
              operations: ['*'],
              resources: ['configmaps'],
              resourceNames: ['local-limits'],
            },
          ],
        },
        validations: [{ expression: 'object.data.k == params.data.want' }],
      },
      { paramRef: { name: 'local-limits', parameterNotFoundAction: 'Deny' } },
    );
    await create(srv, configMaps('vap-param-local'), configMap('local-limits', { want: 'x' }));
    const res = await eventually(
      () => srv.api('POST', configMaps('vap-param-local'), configMap('ok', { k: 'x' })),
      (r) => r.status === 201,
    );
    expect(res.status, res.text).toBe(201);
    expect((await srv.api('POST', configMaps('vap-param-local'), configMap('not-ok', { k: 'y' }))).status).toBe(422);
  });

  it('by selector: every param selected is evaluated', async () => {
    await namespace(srv, 'vap-param-sel-cfg');
    for (const [name, value] of [
      ['no-x', 'x'],
      ['no-y', 'y'],
    ])
      await create(srv, configMaps('vap-param-sel-cfg'), configMap(name!, { forbidden: value! }, { role: 'limit' }));
    await create(srv, configMaps('vap-param-sel-cfg'), configMap('unselected', { forbidden: 'z' }));
    await inForce(
      srv,
      'vap-param-sel',
      {
        ...CONFIG_MAP_PARAMS,
        validations: [
          {
            expression: 'object.data.k != params.data.forbidden',
            messageExpression: "'forbidden ' + params.data.forbidden",
          },
        ],
      },
      {
        paramRef: {
          selector: { matchLabels: { role: 'limit' } },
          namespace: 'vap-param-sel-cfg',
          parameterNotFoundAction: 'Deny',
        },
      },
    );
    for (const k of ['x', 'y']) {
      const res = await srv.api('POST', configMaps('vap-param-sel'), configMap(`k-${k}`, { k }));
      expect(res.body.message).toBe(
        `configmaps "k-${k}" is forbidden: ${prefix('vap-param-sel', 'vap-param-sel')}forbidden ${k}`,
      );
    }
    expect((await srv.api('POST', configMaps('vap-param-sel'), configMap('k-z', { k: 'z' }))).status).toBe(201);
  });
});

describe('parameterNotFoundAction', () => {
  it('Deny refuses when no param is found; Allow evaluates nothing', async () => {
    await namespace(srv, 'vap-missing', { vap: 'vap-missing' });
    await create(
      srv,
      POLICIES,
      policy('vap-missing', {
        ...CONFIG_MAP_PARAMS,
        matchConstraints: {
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
          namespaceSelector: { matchLabels: { vap: 'vap-missing' } },
        },
        validations: [{ expression: 'false' }],
      }),
    );
    const missing = (action: string) => ({ paramRef: { name: 'missing', parameterNotFoundAction: action } });
    await create(srv, BINDINGS, binding('vap-missing-allow', 'vap-missing', missing('Allow')));
    await create(
      srv,
      BINDINGS,
      binding('vap-missing-deny', 'vap-missing', {
        ...missing('Deny'),
        matchResources: { objectSelector: { matchLabels: { deny: 'yes' } } },
      }),
    );
    const probe = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'p-', labels: { deny: 'yes' } } };
    const res = await eventually(
      () => srv.api('POST', configMaps('vap-missing'), probe),
      (r) => r.status !== 201,
    );
    expect(res.body).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(res.body.message).toMatch(
      new RegExp(
        `^configmaps "p-[a-z0-9]+" is forbidden: ${prefix('vap-missing', 'vap-missing-deny')}failed to configure binding: no params found for policy binding with \`Deny\` parameterNotFoundAction$`,
      ),
    );
    expect((await srv.api('POST', configMaps('vap-missing'), configMap('allowed'))).status).toBe(201);
  });
});

describe('misconfiguration', () => {
  it('a binding naming a policy that does not exist is ignored until the policy appears', async () => {
    await namespace(srv, 'vap-late', { vap: 'vap-late' });
    await create(srv, BINDINGS, binding('vap-late', 'vap-late'));
    // Once the binding is mirrored (a policy created after it applies), writes are still admitted.
    await create(
      srv,
      POLICIES,
      policy('vap-late-marker', {
        matchConstraints: {
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
          namespaceSelector: { matchLabels: { vap: 'vap-late' } },
          objectSelector: { matchLabels: { marker: 'yes' } },
        },
        validations: [{ expression: 'false' }],
      }),
    );
    await create(srv, BINDINGS, binding('vap-late-marker', 'vap-late-marker'));
    const marker = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'm-', labels: { marker: 'yes' } } };
    await eventually(
      () => srv.api('POST', configMaps('vap-late'), marker),
      (r) => r.status === 422,
    );
    expect((await srv.api('POST', configMaps('vap-late'), configMap('before'))).status).toBe(201);
    await create(
      srv,
      POLICIES,
      policy('vap-late', {
        matchConstraints: {
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
          namespaceSelector: { matchLabels: { vap: 'vap-late' } },
        },
        validations: [{ expression: 'false', message: 'late' }],
      }),
    );
    let i = 0;
    const res = await eventually(
      () => srv.api('POST', configMaps('vap-late'), configMap(`after-${i++}`)),
      (r) => r.status !== 201,
    );
    expect(res.body.message).toBe(`configmaps "after-${i - 1}" is forbidden: ${prefix('vap-late', 'vap-late')}late`);
  });

  it('a paramKind not served refuses under Fail, naming the kind; Ignore admits', async () => {
    const res = await inForce(srv, 'vap-no-kind', {
      paramKind: { apiVersion: 'example.com/v1', kind: 'Nope' },
      validations: [{ expression: 'true' }],
    });
    expect(res.body.message).toMatch(
      /is forbidden: ValidatingAdmissionPolicy 'vap-no-kind' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example\.com\/v1, Kind=Nope'$/,
    );
    const ignored = await srv.api(
      'PATCH',
      `${POLICIES}/vap-no-kind`,
      { spec: { failurePolicy: 'Ignore' } },
      {
        'content-type': 'application/merge-patch+json',
      },
    );
    expect(ignored.status, ignored.text).toBe(200);
    const admitted = await eventually(
      () =>
        srv.api('POST', configMaps('vap-no-kind'), {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { generateName: 'a-' },
        }),
      (r) => r.status === 201,
    );
    expect(admitted.status).toBe(201);
  });

  it('a namespaced param for a cluster-scoped request without paramRef.namespace', async () => {
    await create(
      srv,
      POLICIES,
      policy('vap-cluster', {
        ...CONFIG_MAP_PARAMS,
        matchConstraints: {
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['namespaces'] }],
          objectSelector: { matchLabels: { 'vap-cluster': 'yes' } },
        },
        validations: [{ expression: 'true' }],
      }),
    );
    await create(
      srv,
      BINDINGS,
      binding('vap-cluster', 'vap-cluster', { paramRef: { name: 'p', parameterNotFoundAction: 'Allow' } }),
    );
    let i = 0;
    const res = await eventually(
      () =>
        srv.api('POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: `vap-cluster-${i++}`, labels: { 'vap-cluster': 'yes' } },
        }),
      (r) => r.status !== 201,
    );
    expect(res.body.message).toBe(
      `namespaces "vap-cluster-${i - 1}" is forbidden: ${prefix('vap-cluster', 'vap-cluster')}failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources`,
    );
  });
});
