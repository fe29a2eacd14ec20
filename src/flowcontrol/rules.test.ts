import { describe, expect, it } from 'vitest';
import { matchesFlowSchema } from './rules.js';
import type { FlowSchemaView, RequestDigest } from './types.js';

const user = (name: string, groups: string[] = ['system:authenticated']) => ({ name, uid: '', groups });
const digest = (over: Partial<RequestDigest> = {}): RequestDigest => ({
  user: user('alice'),
  isResourceRequest: true,
  verb: 'get',
  group: '',
  resource: 'pods',
  subresource: '',
  namespace: 'default',
  name: 'web',
  path: '/api/v1/namespaces/default/pods/web',
  ...over,
});
const schema = (rules: NonNullable<FlowSchemaView['spec']['rules']>): FlowSchemaView => ({
  metadata: { name: 'fs' },
  spec: { priorityLevelConfiguration: { name: 'pl' }, rules },
});
const everything = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] };

describe('matchesFlowSchema', () => {
  it('matches users, groups and service accounts by name or *', () => {
    const by = (subject: object) => schema([{ subjects: [subject as never], resourceRules: [everything] }]);
    expect(matchesFlowSchema(digest(), by({ kind: 'User', user: { name: 'alice' } }))).toBe(true);
    expect(matchesFlowSchema(digest(), by({ kind: 'User', user: { name: 'bob' } }))).toBe(false);
    expect(matchesFlowSchema(digest(), by({ kind: 'User', user: { name: '*' } }))).toBe(true);
    expect(matchesFlowSchema(digest(), by({ kind: 'Group', group: { name: 'system:authenticated' } }))).toBe(true);
    expect(matchesFlowSchema(digest(), by({ kind: 'Group', group: { name: 'system:masters' } }))).toBe(false);
    const sa = digest({ user: user('system:serviceaccount:kube-system:job-controller') });
    expect(
      matchesFlowSchema(sa, by({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } })),
    ).toBe(true);
    expect(
      matchesFlowSchema(
        sa,
        by({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: 'job-controller' } }),
      ),
    ).toBe(true);
    expect(
      matchesFlowSchema(sa, by({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube', name: '*' } })),
    ).toBe(false);
    expect(
      matchesFlowSchema(digest(), by({ kind: 'ServiceAccount', serviceAccount: { namespace: 'default', name: '*' } })),
    ).toBe(false);
  });

  it('matches resource rules by verb, group, resource/subresource and namespace or cluster scope', () => {
    const subjects = [{ kind: 'Group', group: { name: '*' } }];
    const rule = (r: object) => schema([{ subjects, resourceRules: [{ ...everything, ...r }] }]);
    expect(matchesFlowSchema(digest(), rule({ verbs: ['get', 'list'] }))).toBe(true);
    expect(matchesFlowSchema(digest(), rule({ verbs: ['list'] }))).toBe(false);
    expect(matchesFlowSchema(digest(), rule({ apiGroups: ['apps'] }))).toBe(false);
    expect(matchesFlowSchema(digest({ subresource: 'status' }), rule({ resources: ['pods'] }))).toBe(false);
    expect(matchesFlowSchema(digest({ subresource: 'status' }), rule({ resources: ['pods/status'] }))).toBe(true);
    expect(matchesFlowSchema(digest(), rule({ namespaces: ['kube-system'] }))).toBe(false);
    // No namespace: only clusterScope rules match, whatever their namespaces.
    expect(matchesFlowSchema(digest({ namespace: '' }), rule({ clusterScope: false }))).toBe(false);
    expect(matchesFlowSchema(digest({ namespace: '' }), rule({ clusterScope: true, namespaces: [] }))).toBe(true);
    // A resource request never matches a non-resource rule.
    expect(
      matchesFlowSchema(digest(), schema([{ subjects, nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }])),
    ).toBe(false);
  });

  it('matches non-resource URLs exactly, by * and by subtree', () => {
    const subjects = [{ kind: 'Group', group: { name: '*' } }];
    const urls = (nonResourceURLs: string[]) =>
      schema([{ subjects, nonResourceRules: [{ verbs: ['get'], nonResourceURLs }] }]);
    const at = (path: string, verb = 'get') =>
      digest({ isResourceRequest: false, verb, path, resource: '', name: '', namespace: '' });
    expect(matchesFlowSchema(at('/healthz'), urls(['/healthz']))).toBe(true);
    expect(matchesFlowSchema(at('/healthz/etcd'), urls(['/healthz']))).toBe(true);
    expect(matchesFlowSchema(at('/healthzx'), urls(['/healthz']))).toBe(false);
    expect(matchesFlowSchema(at('/apis/apps/v1'), urls(['/apis/*']))).toBe(true);
    expect(matchesFlowSchema(at('/version'), urls(['*']))).toBe(true);
    expect(matchesFlowSchema(at('/version', 'post'), urls(['*']))).toBe(false);
  });
});
