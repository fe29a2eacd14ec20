/**
 * The paramKind and paramRef read-permission checks (upstream authz.go of both kinds): what
 * they ask the authorizer, when they ask nothing, and how they refuse.
 */
import { describe, expect, it } from 'vitest';
import type { AccessRequest, WriterInfo } from '../../registry/access.js';
import type { AdmissionAttributes } from '../../registry/hooks.js';
import { bindingParamRefAuthz } from '../validatingadmissionpolicybindings/validatingadmissionpolicybindings.authz.js';
import type { ValidatingAdmissionPolicyBinding } from '../validatingadmissionpolicybindings/validatingadmissionpolicybindings.schema.js';
import { goUser, policyParamKindAuthz, type KindResolver } from './validatingadmissionpolicies.authz.js';
import type { ValidatingAdmissionPolicy } from './validatingadmissionpolicies.schema.js';

const alice: WriterInfo = {
  name: 'alice',
  groups: ['dev', 'system:authenticated'],
  extra: { b: ['2', '3'], a: ['1'] },
};
const resolve: KindResolver = (group, version, kind) =>
  group === '' && version === 'v1' && kind === 'ConfigMap' ? 'configmaps' : undefined;

/** An authorizer that records what it is asked and answers `allow`. */
function recorder(allow: boolean) {
  const asked: AccessRequest[] = [];
  return {
    asked,
    authorizer: { authorize: (r: AccessRequest) => (asked.push(r), { decision: allow ? 'allow' : 'deny' }) },
  };
}

const policy = (paramKind?: { apiVersion: string; kind: string }): ValidatingAdmissionPolicy => ({
  metadata: { name: 'p.example.com' },
  spec: paramKind ? { paramKind } : {},
});
const attrs = (user?: WriterInfo): AdmissionAttributes => ({ dryRun: false, user });

describe('policyParamKindAuthz', () => {
  it('asks get on every object of the resolved resource, and refuses with upstream message', async () => {
    const { asked, authorizer } = recorder(false);
    const hooks = policyParamKindAuthz(() => authorizer, resolve);
    const err = await hooks.beforeCreate!(policy({ apiVersion: 'v1', kind: 'ConfigMap' }), attrs(alice)).catch(
      (e) => e,
    );
    expect(asked).toEqual([
      expect.objectContaining({
        verb: 'get',
        apiGroup: '',
        apiVersion: 'v1',
        resource: 'configmaps',
        name: '*',
        namespace: '*',
      }),
    ]);
    expect(err.details.causes).toEqual([
      {
        reason: 'FieldValueForbidden',
        field: 'spec.paramKind',
        message:
          'Forbidden: user &{alice  [dev system:authenticated] map[a:[1] b:[2 3]]} must have "get" permission on all objects of the referenced paramKind (kind=ConfigMap, apiVersion=v1)',
      },
    ]);
  });

  it('asks for resource * when the kind is not served, and nothing for an unchanged paramKind, a privileged writer or no paramKind', async () => {
    const { asked, authorizer } = recorder(true);
    const hooks = policyParamKindAuthz(() => authorizer, resolve);
    await hooks.beforeCreate!(policy({ apiVersion: 'example.com/v1', kind: 'Widget' }), attrs(alice));
    expect(asked[0]).toMatchObject({ apiGroup: 'example.com', apiVersion: 'v1', resource: '*' });
    const pk = { apiVersion: 'v1', kind: 'ConfigMap' };
    await hooks.beforeUpdate!(policy(pk), policy(pk), attrs(alice));
    await hooks.beforeCreate!(policy(pk), attrs({ name: 'root', groups: ['system:masters'] }));
    await hooks.beforeCreate!(policy(), attrs(alice));
    expect(asked).toHaveLength(1);
  });
});

describe('bindingParamRefAuthz', () => {
  const binding = (policyName: string): ValidatingAdmissionPolicyBinding => ({
    metadata: { name: 'b' },
    spec: { policyName, paramRef: { name: 'cm', namespace: 'ns' }, validationActions: ['Deny'] },
  });
  const policies = {
    get: async (_ns: string, name: string) => {
      if (name === 'p.example.com') return policy({ apiVersion: 'v1', kind: 'ConfigMap' });
      throw new Error('not found');
    },
  };

  it("asks get on the referenced object in the bound policy's paramKind, else on anything", async () => {
    const { asked, authorizer } = recorder(true);
    const hooks = bindingParamRefAuthz(() => authorizer, resolve, policies);
    await hooks.beforeCreate!(binding('p.example.com'), attrs(alice));
    await hooks.beforeCreate!(binding('missing.example.com'), attrs(alice));
    expect(asked.map((a) => [a.apiGroup, a.apiVersion, a.resource, a.namespace, a.name])).toEqual([
      ['', 'v1', 'configmaps', 'ns', 'cm'],
      ['*', '*', '*', 'ns', 'cm'],
    ]);
  });

  it('asks on every update of a defaulted paramRef (Go compares its pointers), and refuses as upstream', async () => {
    const { asked, authorizer } = recorder(false);
    const hooks = bindingParamRefAuthz(() => authorizer, resolve, policies);
    // Without pointer fields an unchanged paramRef and policy are not asked about again.
    await hooks.beforeUpdate!(binding('p.example.com'), binding('p.example.com'), attrs(alice));
    expect(asked).toHaveLength(0);
    const defaulted = binding('p.example.com');
    defaulted.spec!.paramRef!.parameterNotFoundAction = 'Deny';
    const err = await hooks.beforeUpdate!(defaulted, structuredClone(defaulted), attrs(alice)).catch((e) => e);
    expect(asked).toHaveLength(1);
    expect(err.message).toBe(
      `ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: spec.paramRef: Forbidden: user ${goUser(alice)} does not have "get" permission on the object referenced by paramRef`,
    );
  });
});
