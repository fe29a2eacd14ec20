import { describe, expect, it } from 'vitest';
import { isExemptKind, ruleMatches, type RuleTarget } from './rules.js';

// Cases from upstream predicates/rules/rules_test.go.
const target = (over: Partial<RuleTarget> = {}): RuleTarget => ({
  operation: 'CREATE',
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  subresource: '',
  namespace: 'ns',
  ...over,
});
const rule = (over: Record<string, string[] | string> = {}) => ({
  operations: ['*'],
  apiGroups: ['*'],
  apiVersions: ['*'],
  resources: ['*'],
  scope: '*',
  ...over,
});

describe('ruleMatches', () => {
  it.each([
    ['operation listed', rule({ operations: ['CREATE'] }), target(), true],
    ['operation not listed', rule({ operations: ['UPDATE', 'DELETE'] }), target(), false],
    ['group', rule({ apiGroups: ['apps'] }), target(), true],
    ['other group', rule({ apiGroups: [''] }), target(), false],
    ['version', rule({ apiVersions: ['v1beta1'] }), target(), false],
    ['resource', rule({ resources: ['deployments'] }), target(), true],
    ['* does not match a subresource', rule({ resources: ['*'] }), target({ subresource: 'scale' }), false],
    ['*/* matches a subresource', rule({ resources: ['*/*'] }), target({ subresource: 'scale' }), true],
    ['*/scale', rule({ resources: ['*/scale'] }), target({ subresource: 'scale' }), true],
    [
      'deployments/status vs scale',
      rule({ resources: ['deployments/status'] }),
      target({ subresource: 'scale' }),
      false,
    ],
    ['deployments/* vs the object', rule({ resources: ['deployments/*'] }), target(), true],
    ['Namespaced scope, namespaced object', rule({ scope: 'Namespaced' }), target(), true],
    ['Namespaced scope, cluster object', rule({ scope: 'Namespaced' }), target({ namespace: '' }), false],
    ['Cluster scope, cluster object', rule({ scope: 'Cluster' }), target({ namespace: '' }), true],
    [
      'Cluster scope, a Namespace (it has a namespace: itself)',
      rule({ scope: 'Cluster' }),
      target({ resource: { group: '', version: 'v1', resource: 'namespaces' }, namespace: 'ns' }),
      true,
    ],
    [
      'Namespaced scope, a Namespace',
      rule({ scope: 'Namespaced' }),
      target({ resource: { group: '', version: 'v1', resource: 'namespaces' }, namespace: 'ns' }),
      false,
    ],
    ['unknown scope', rule({ scope: 'Other' }), target(), false],
  ])('%s', (_name, r, t, want) => {
    expect(ruleMatches(r, t)).toBe(want);
  });
});

describe('isExemptKind', () => {
  it('exempts the admission configuration kinds, in both groups that serve them', () => {
    expect(
      isExemptKind({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingWebhookConfiguration' }),
    ).toBe(true);
    expect(
      isExemptKind({ group: 'admissionregistration.ck.io', version: 'v1beta1', kind: 'MutatingWebhookConfiguration' }),
    ).toBe(true);
    expect(isExemptKind({ group: '', version: 'v1', kind: 'ConfigMap' })).toBe(false);
  });
});
