import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors/api-error.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { configMaps } from '../../resources/configmaps/configmaps.resource.js';
import {
  networkPolicies,
  networkPoliciesExtensions,
} from '../../resources/networkpolicies/networkpolicies.resource.js';
import type { AdmissionRequest } from '../webhooks/types.js';
import { bindingMatches, definitionMatches, matchResources, type PolicyMatchDeps } from './matching.js';
import type { MatchResources } from './types.js';

const deps = (labels: Record<string, Record<string, string>> = { ns: { env: 'prod' } }): PolicyMatchDeps => ({
  namespaceLabels: async (name) => {
    const l = labels[name];
    if (!l) throw new ApiError(404, 'NotFound', `namespaces "${name}" not found`);
    return l;
  },
  rows: () => [configMaps, networkPolicies, networkPoliciesExtensions],
});

function request(def: ResourceDefinition, over: Partial<AdmissionRequest> = {}): AdmissionRequest {
  return {
    operation: 'CREATE',
    def,
    resource: { group: def.group, version: def.version, resource: def.plural },
    kind: { group: def.group, version: def.version, kind: def.kind },
    subresource: '',
    namespace: 'ns',
    name: 'obj',
    object: { metadata: { name: 'obj', namespace: 'ns', labels: { app: 'web' } } },
    oldObject: null,
    attrs: { dryRun: false },
    ...over,
  };
}

const cmRule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] };
const npRule = {
  apiGroups: ['networking.k8s.io'],
  apiVersions: ['v1'],
  operations: ['*'],
  resources: ['networkpolicies'],
};

describe('matchResources', () => {
  it('matches rules, resourceNames and exclusions as upstream', async () => {
    const req = request(configMaps);
    const m = (c: MatchResources) => matchResources(c, req, deps());
    expect(await m({ resourceRules: [cmRule] })).toMatchObject({ resource: req.resource, kind: req.kind });
    expect(await m({ resourceRules: [{ ...cmRule, resourceNames: ['other'] }] })).toBeNull();
    expect(await m({ resourceRules: [{ ...cmRule, resourceNames: ['other', 'obj'] }] })).not.toBeNull();
    expect(
      await m({ resourceRules: [cmRule], excludeResourceRules: [{ ...cmRule, resourceNames: ['obj'] }] }),
    ).toBeNull();
    // No resourceRules: every resource matches (only exclusions and selectors apply).
    expect(await m({ excludeResourceRules: [npRule] })).not.toBeNull();
    expect(await m({ resourceRules: [{ ...cmRule, operations: ['UPDATE'] }] })).toBeNull();
  });

  it('applies selectors, reporting their errors only when a rule matches', async () => {
    const req = request(configMaps);
    const c = (extra: MatchResources): MatchResources => ({ resourceRules: [cmRule], ...extra });
    expect(
      await matchResources(c({ namespaceSelector: { matchLabels: { env: 'prod' } } }), req, deps()),
    ).not.toBeNull();
    expect(await matchResources(c({ namespaceSelector: { matchLabels: { env: 'dev' } } }), req, deps())).toBeNull();
    expect(await matchResources(c({ objectSelector: { matchLabels: { app: 'db' } } }), req, deps())).toBeNull();
    const gone = c({ namespaceSelector: { matchLabels: { env: 'prod' } } });
    await expect(matchResources(gone, req, deps({}))).rejects.toThrow('namespaces "ns" not found');
    const elsewhere = { ...gone, resourceRules: [npRule] };
    expect(await matchResources(elsewhere, req, deps({}))).toBeNull();
  });

  it('under Equivalent matches another group of the same storage, with its version; Exact or unset does not', async () => {
    const req = request(networkPoliciesExtensions);
    const equivalent = await matchResources({ resourceRules: [npRule], matchPolicy: 'Equivalent' }, req, deps());
    expect(equivalent).toMatchObject({
      resource: { group: 'networking.k8s.io', version: 'v1', resource: 'networkpolicies' },
      kind: { group: 'networking.k8s.io', version: 'v1', kind: 'NetworkPolicy' },
      def: networkPolicies,
    });
    expect(await matchResources({ resourceRules: [npRule], matchPolicy: 'Exact' }, req, deps())).toBeNull();
    expect(await matchResources({ resourceRules: [npRule] }, req, deps())).toBeNull();
  });
});

describe('policy and binding', () => {
  it('a policy without matchConstraints is a configuration error; a binding without matchResources matches', async () => {
    const req = request(configMaps);
    await expect(definitionMatches(undefined, req, deps())).rejects.toThrow(
      'policy contained no match constraints, a required field',
    );
    expect(await bindingMatches(undefined, req, deps())).toBe(true);
    expect(await bindingMatches({ resourceRules: [npRule] }, req, deps())).toBe(false);
  });
});
