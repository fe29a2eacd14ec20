/**
 * Which requests a ValidatingAdmissionPolicy governs (upstream matching.go, plugin.go): a
 * policy's excludeResourceRules with resourceNames, a binding's objectSelector, matchPolicy
 * Equivalent (the object seen in the version matched), the kinds no policy governs, and the
 * plugin's place between the mutating and the validating webhooks.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { jsonPatch, startWebhookServer } from '../helpers/webhook-server.js';
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

describe('match resources', () => {
  it('excludeResourceRules with resourceNames exempt the objects named', async () => {
    await inForce(srv, 'vap-exclude', {
      matchConstraints: { excludeResourceRules: [{ ...configMapRule(), resourceNames: ['exempt'] }] },
      validations: [{ expression: 'false', message: 'no' }],
    });
    expect((await srv.api('POST', configMaps('vap-exclude'), configMap('exempt'))).status).toBe(201);
    const res = await srv.api('POST', configMaps('vap-exclude'), configMap('other'));
    expect(res.body.message).toBe(denied('configmaps', 'other', 'vap-exclude', 'no'));
  });

  it("a binding's objectSelector limits it to the objects it selects", async () => {
    const probe = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'p-', labels: { enforce: 'yes' } } };
    await inForce(
      srv,
      'vap-selector',
      { validations: [{ expression: 'false' }] },
      { matchResources: { objectSelector: { matchLabels: { enforce: 'yes' } } } },
      probe,
    );
    expect((await srv.api('POST', configMaps('vap-selector'), configMap('unselected'))).status).toBe(201);
  });

  it('matchPolicy Equivalent sees a request through another group in the version matched', async () => {
    await namespace(srv, 'vap-equivalent', { vap: 'vap-equivalent' });
    const rule = {
      apiGroups: ['networking.k8s.io'],
      apiVersions: ['v1'],
      operations: ['CREATE'],
      resources: ['networkpolicies'],
    };
    const constraints = (matchPolicy: string) => ({
      resourceRules: [rule],
      matchPolicy,
      namespaceSelector: { matchLabels: { vap: 'vap-equivalent' } },
    });
    const validations = [
      {
        expression: 'false',
        messageExpression:
          "'seen as ' + object.apiVersion + ' via ' + request.requestResource.group + '/' + request.requestKind.version",
      },
    ];
    await create(srv, POLICIES, policy('vap-equivalent', { matchConstraints: constraints('Equivalent'), validations }));
    await create(srv, BINDINGS, binding('vap-equivalent', 'vap-equivalent'));
    await create(srv, POLICIES, policy('vap-exact', { matchConstraints: constraints('Exact'), validations }));
    await create(srv, BINDINGS, binding('vap-exact', 'vap-exact'));
    const path = '/apis/extensions/v1beta1/namespaces/vap-equivalent/networkpolicies';
    const np = (name: string) => ({
      apiVersion: 'extensions/v1beta1',
      kind: 'NetworkPolicy',
      metadata: { name },
      spec: { podSelector: {} },
    });
    let i = 0;
    const res = await eventually(
      () => srv.api('POST', path, np(`np-${i++}`)),
      (r) => r.status !== 201,
    );
    // Only the Equivalent policy applies; it sees the object as networking.k8s.io/v1.
    expect(res.body.message).toBe(
      `networkpolicies.extensions "np-${i - 1}" is forbidden: ValidatingAdmissionPolicy 'vap-equivalent' with binding 'vap-equivalent' denied request: seen as networking.k8s.io/v1 via extensions/v1beta1`,
    );
  });
});

describe('exemptions', () => {
  it('policies never govern the policy kinds, but do govern webhook configurations', async () => {
    const blocked = { blocked: 'vap-exempt' };
    const everything = { apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] };
    await create(
      srv,
      POLICIES,
      policy('vap-exempt', {
        matchConstraints: { resourceRules: [everything], objectSelector: { matchLabels: blocked } },
        validations: [{ expression: 'false', message: 'blocked' }],
      }),
    );
    await create(srv, BINDINGS, binding('vap-exempt', 'vap-exempt'));
    await namespace(srv, 'vap-exempt');
    const probe = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'p-', labels: blocked } };
    await eventually(
      () => srv.api('POST', configMaps('vap-exempt'), probe),
      (r) => r.status === 422,
    );
    const labelled = (o: { metadata: Record<string, unknown> }) => ({
      ...o,
      metadata: { ...o.metadata, labels: blocked },
    });
    await create(srv, POLICIES, labelled(policy('vap-exempt-2', { validations: [{ expression: 'true' }] })));
    await create(srv, BINDINGS, labelled(binding('vap-exempt-2', 'vap-exempt-2')));
    const webhooks = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'vap-exempt', labels: blocked },
    };
    const res = await srv.api(
      'POST',
      '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
      webhooks,
    );
    expect(res.body).toMatchObject({
      code: 422,
      message:
        'validatingwebhookconfigurations.admissionregistration.k8s.io "vap-exempt" is forbidden: ' +
        "ValidatingAdmissionPolicy 'vap-exempt' with binding 'vap-exempt' denied request: blocked",
    });
    expect((await srv.api('DELETE', `${POLICIES}/vap-exempt`)).status).toBe(200);
  });
});

describe('plugin order', () => {
  it('runs after mutating webhooks and before validating webhooks, as upstream', async () => {
    const hook = await startWebhookServer();
    try {
      hook.on('/label', () => ({
        allowed: true,
        ...jsonPatch([{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }]),
      }));
      hook.on('/deny', () => ({ allowed: false, status: { code: 403, message: 'webhook says no' } }));
      await namespace(srv, 'vap-order', { vap: 'vap-order' });
      const webhook = (kind: string, name: string, path: string) => ({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind,
        metadata: { name },
        webhooks: [
          {
            name: `${name}.k8s.io`,
            clientConfig: { url: hook.url(path), caBundle: hook.caBundle },
            rules: [configMapRule()],
            namespaceSelector: { matchLabels: { vap: 'vap-order' } },
            sideEffects: 'None',
            admissionReviewVersions: ['v1'],
          },
        ],
      });
      const groupPath = '/apis/admissionregistration.k8s.io/v1';
      await create(
        srv,
        `${groupPath}/mutatingwebhookconfigurations`,
        webhook('MutatingWebhookConfiguration', 'vap-order-m', '/label'),
      );
      await create(
        srv,
        `${groupPath}/validatingwebhookconfigurations`,
        webhook('ValidatingWebhookConfiguration', 'vap-order-v', '/deny'),
      );
      const post = () =>
        srv.api('POST', configMaps('vap-order'), {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { generateName: 'o-' },
        });
      await eventually(post, (r) => String(r.body.message).includes('webhook says no'));
      // The policy sees the mutated object and refuses before the validating webhook is called.
      await create(
        srv,
        POLICIES,
        policy('vap-order', {
          matchConstraints: {
            resourceRules: [configMapRule()],
            namespaceSelector: { matchLabels: { vap: 'vap-order' } },
          },
          validations: [{ expression: "object.metadata.labels.mutated != 'yes'", message: 'policy says no' }],
        }),
      );
      await create(srv, BINDINGS, binding('vap-order', 'vap-order'));
      const res = await eventually(post, (r) => String(r.body.message).includes('policy says no'));
      expect(res.body).toMatchObject({ code: 422, reason: 'Invalid' });
      expect(res.body.message).toMatch(
        /ValidatingAdmissionPolicy 'vap-order' with binding 'vap-order' denied request: policy says no$/,
      );
    } finally {
      await hook.close();
    }
  });
});
