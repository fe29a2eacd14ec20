// Audit policy parsing, validation and matching, following upstream's checker_test.go and
// validation_test.go cases.
import { describe, expect, it } from 'vitest';
import { parsePolicy, PolicyChecker, ruleMatches, type AuditAttributes, type PolicyRule } from './policy.js';

const alice = { name: 'alice', groups: ['devs', 'system:authenticated'] };
const resource = (over: Partial<AuditAttributes> = {}): AuditAttributes => ({
  user: alice,
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/namespaces/default/pods/p',
  apiGroup: '',
  namespace: 'default',
  resource: 'pods',
  subresource: '',
  name: 'p',
  ...over,
});
const nonResource = (path: string, over: Partial<AuditAttributes> = {}): AuditAttributes => ({
  user: alice,
  verb: 'get',
  isResourceRequest: false,
  path,
  apiGroup: '',
  namespace: '',
  resource: '',
  subresource: '',
  name: '',
  ...over,
});
const rule = (over: Partial<PolicyRule> = {}): PolicyRule => ({
  level: 'Metadata',
  users: [],
  userGroups: [],
  verbs: [],
  resources: [],
  namespaces: [],
  nonResourceURLs: [],
  omitStages: [],
  ...over,
});
const gr = (group: string, resources: string[], resourceNames: string[] = []) => ({ group, resources, resourceNames });

describe('ruleMatches', () => {
  it('matches everything with an empty rule, and users, groups and verbs as listed', () => {
    expect(ruleMatches(rule(), resource())).toBe(true);
    expect(ruleMatches(rule(), nonResource('/healthz'))).toBe(true);
    expect(ruleMatches(rule({ users: ['alice'] }), resource())).toBe(true);
    expect(ruleMatches(rule({ users: ['bob'] }), resource())).toBe(false);
    expect(ruleMatches(rule({ userGroups: ['ops', 'devs'] }), resource())).toBe(true);
    expect(ruleMatches(rule({ userGroups: ['ops'] }), resource())).toBe(false);
    expect(ruleMatches(rule({ verbs: ['get', 'list'] }), resource())).toBe(true);
    expect(ruleMatches(rule({ verbs: ['watch'] }), resource())).toBe(false);
  });

  it('does not match user or group rules when there is no user (failed authentication)', () => {
    expect(ruleMatches(rule({ users: ['alice'] }), resource({ user: undefined }))).toBe(false);
    expect(ruleMatches(rule({ userGroups: ['devs'] }), resource({ user: undefined }))).toBe(false);
    expect(ruleMatches(rule({ verbs: ['get'] }), resource({ user: undefined }))).toBe(true);
  });

  it('matches resources by group, name, `*`, `pods/*` and `*/status`', () => {
    expect(ruleMatches(rule({ resources: [gr('', ['pods'])] }), resource())).toBe(true);
    expect(ruleMatches(rule({ resources: [gr('apps', ['pods'])] }), resource())).toBe(false);
    expect(ruleMatches(rule({ resources: [gr('', [])] }), resource())).toBe(true); // a whole group
    expect(ruleMatches(rule({ resources: [gr('', ['*'])] }), resource({ subresource: 'log' }))).toBe(true);
    // A subresource needs `pods/log`, `pods/*` or `*/log`, not `pods`.
    expect(ruleMatches(rule({ resources: [gr('', ['pods'])] }), resource({ subresource: 'log' }))).toBe(false);
    expect(ruleMatches(rule({ resources: [gr('', ['pods/log'])] }), resource({ subresource: 'log' }))).toBe(true);
    expect(ruleMatches(rule({ resources: [gr('', ['pods/*'])] }), resource({ subresource: 'status' }))).toBe(true);
    expect(ruleMatches(rule({ resources: [gr('', ['pods/*'])] }), resource())).toBe(true); // upstream: `pods/*` covers pods too
    expect(
      ruleMatches(
        rule({ resources: [gr('', ['*/status'])] }),
        resource({ resource: 'services', subresource: 'status' }),
      ),
    ).toBe(true);
    expect(ruleMatches(rule({ resources: [gr('', ['*/status'])] }), resource())).toBe(false);
    expect(ruleMatches(rule({ resources: [gr('', ['pods'], ['p'])] }), resource())).toBe(true);
    expect(ruleMatches(rule({ resources: [gr('', ['pods'], ['q'])] }), resource())).toBe(false);
  });

  it('matches namespaces ("" = cluster scope) and never non-resource requests with resource fields', () => {
    expect(ruleMatches(rule({ namespaces: ['default'] }), resource())).toBe(true);
    expect(ruleMatches(rule({ namespaces: ['kube-system'] }), resource())).toBe(false);
    expect(ruleMatches(rule({ namespaces: [''] }), resource({ namespace: '', resource: 'nodes' }))).toBe(true);
    expect(ruleMatches(rule({ namespaces: ['default'] }), nonResource('/api'))).toBe(false);
    expect(ruleMatches(rule({ resources: [gr('', ['pods'])] }), nonResource('/api'))).toBe(false);
  });

  it('matches non-resource URLs exactly, by `*` and by a trailing `*`', () => {
    expect(ruleMatches(rule({ nonResourceURLs: ['/healthz'] }), nonResource('/healthz'))).toBe(true);
    expect(ruleMatches(rule({ nonResourceURLs: ['/healthz'] }), nonResource('/healthz/etcd'))).toBe(false);
    expect(ruleMatches(rule({ nonResourceURLs: ['/healthz*'] }), nonResource('/healthz/etcd'))).toBe(true);
    expect(ruleMatches(rule({ nonResourceURLs: ['*'] }), nonResource('/metrics'))).toBe(true);
    expect(ruleMatches(rule({ nonResourceURLs: ['*'] }), resource())).toBe(false);
  });
});

describe('PolicyChecker', () => {
  const policy = parsePolicy(`
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    users: [system:kube-proxy]
  - level: Metadata
    resources: [{ group: "", resources: [secrets] }]
    omitStages: [ResponseStarted]
  - level: RequestResponse
    resources: [{ resources: [configmaps] }]
`);
  const checker = new PolicyChecker(policy);

  it('uses the first matching rule, with its omitStages united with the policy', () => {
    expect(
      checker.evaluate(resource({ user: { name: 'system:kube-proxy', groups: [] }, resource: 'secrets' })).level,
    ).toBe('None');
    const secrets = checker.evaluate(resource({ resource: 'secrets' }));
    expect(secrets.level).toBe('Metadata');
    expect([...secrets.omitStages].sort()).toEqual(['RequestReceived', 'ResponseStarted']);
    expect(checker.evaluate(resource({ resource: 'configmaps' })).level).toBe('RequestResponse');
  });

  it('defaults to None (with the policy omitStages) when no rule matches', () => {
    expect(checker.evaluate(resource())).toEqual({
      level: 'None',
      omitStages: ['RequestReceived'],
      omitManagedFields: false,
    });
  });

  it('takes omitManagedFields from the rule, else the policy', () => {
    const p = new PolicyChecker(
      parsePolicy(
        '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","omitManagedFields":true,"rules":[{"level":"Request","verbs":["get"],"omitManagedFields":false},{"level":"Request"}]}',
      ),
    );
    expect(p.evaluate(resource()).omitManagedFields).toBe(false);
    expect(p.evaluate(resource({ verb: 'list' })).omitManagedFields).toBe(true);
  });
});

describe('parsePolicy', () => {
  const doc = (rules: string, head = 'apiVersion: audit.k8s.io/v1\nkind: Policy\n') => `${head}rules:\n${rules}`;

  it('reads YAML and JSON; the older versions with a deprecation warning', () => {
    expect(parsePolicy(doc('  - level: Metadata\n')).rules[0].level).toBe('Metadata');
    const warnings: string[] = [];
    parsePolicy('{"apiVersion":"audit.k8s.io/v1beta1","kind":"Policy","rules":[{"level":"None"}]}', (w) =>
      warnings.push(w),
    );
    expect(warnings).toEqual([
      '"audit.k8s.io/v1beta1" is deprecated and will be removed in a future release, use "audit.k8s.io/v1" instead',
    ]);
  });

  it('refuses what upstream refuses, with its messages', () => {
    expect(() => parsePolicy('rules: []')).toThrow("failed decoding: Object 'Kind' is missing");
    expect(() => parsePolicy('apiVersion: audit.k8s.io/v2\nkind: Policy\nrules: []')).toThrow(
      'unknown group version field audit.k8s.io/v2, Kind=Policy in policy',
    );
    expect(() => parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []')).toThrow(
      'loaded illegal policy with 0 rules',
    );
    expect(() => parsePolicy(doc('  - users: [a]\n'))).toThrow('rules[0].level: Required value');
    expect(() => parsePolicy(doc('  - level: Everything\n'))).toThrow(
      'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
    );
    expect(() => parsePolicy(doc('  - level: None\n    nonResourceURLs: [healthz]\n'))).toThrow(
      'rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a \'/\' character',
    );
    expect(() => parsePolicy(doc('  - level: None\n    nonResourceURLs: ["/a*/b"]\n'))).toThrow(
      "non-resource URL wildcards '*' must be the final character of the rule",
    );
    expect(() => parsePolicy(doc('  - level: None\n    nonResourceURLs: [/a]\n    namespaces: [x]\n'))).toThrow(
      'rules cannot apply to both regular resources and non-resource URLs',
    );
    expect(() => parsePolicy(doc('  - level: None\n    resources: [{group: Apps}]\n'))).toThrow(
      'rules[0].resources.group: Invalid value: "Apps": a lowercase RFC 1123 subdomain',
    );
    expect(() => parsePolicy(doc('  - level: None\n    resources: [{resourceNames: [x]}]\n'))).toThrow(
      'using resourceNames requires at least one resource',
    );
    expect(() => parsePolicy(doc('  - level: None\n    omitStages: [Done]\n'))).toThrow(
      'rules[0].omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
    );
    expect(() => parsePolicy(doc('  - level: None\n    users: alice\n'))).toThrow(
      /^failed decoding: rules\[0\]\.users: /,
    );
  });

  it('lists several problems as upstream aggregates them', () => {
    expect(() => parsePolicy(doc('  - level: X\n  - {}\n'))).toThrow(
      /^\[rules\[0\]\.level: Unsupported value: "X".*, rules\[1\]\.level: Required value\]$/,
    );
  });
});
