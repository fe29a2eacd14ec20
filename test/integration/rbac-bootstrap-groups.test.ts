/**
 * The bootstrap namespace roles cover upstream's groups beyond core, as today's upstream
 * bootstrap policy does: `view` reads workloads, jobs, autoscalers, ingresses, network policies
 * and disruption budgets (not secrets); `edit` writes them and may evict pods; `admin` gets
 * both through aggregation. Asked through SubjectAccessReview, as `kubectl auth can-i` does.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();

/** Whether a user holding `role` in namespace `team` (by a RoleBinding) may `verb` group/resource there. */
async function may(role: string, verb: string, group: string, resource: string, subresource = ''): Promise<boolean> {
  const res = await srv.api('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    spec: { user: `${role}-user`, resourceAttributes: { namespace: 'team', verb, group, resource, subresource } },
  });
  expect(res.status).toBe(201);
  return res.body.status.allowed === true;
}

describe('bootstrap namespace roles and the groups beyond core', () => {
  it('view reads, edit writes, admin both (aggregated)', async () => {
    expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
    for (const role of ['view', 'edit', 'admin']) {
      const binding = {
        metadata: { name: `${role}-binding` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: `${role}-user` }],
      };
      expect(
        (await srv.api('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings', binding)).status,
      ).toBe(201);
    }
    await expect.poll(() => may('view', 'list', 'apps', 'deployments'), { timeout: 5000 }).toBe(true);
    const reads: [string, string, string?][] = [
      ['apps', 'statefulsets'],
      ['apps', 'controllerrevisions'],
      ['apps', 'deployments', 'scale'],
      ['batch', 'cronjobs'],
      ['autoscaling', 'horizontalpodautoscalers'],
      ['networking.k8s.io', 'ingresses'],
      ['policy', 'poddisruptionbudgets'],
      ['discovery.k8s.io', 'endpointslices'],
    ];
    for (const [group, resource, sub] of reads)
      expect(await may('view', 'get', group, resource, sub), `${group}/${resource}`).toBe(true);
    expect(await may('view', 'create', 'apps', 'deployments')).toBe(false);
    expect(await may('view', 'get', '', 'secrets')).toBe(false);
    for (const role of ['edit', 'admin']) {
      await expect.poll(() => may(role, 'create', 'apps', 'deployments'), { timeout: 5000 }).toBe(true);
      expect(await may(role, 'patch', 'apps', 'deployments', 'scale')).toBe(true);
      expect(await may(role, 'delete', 'batch', 'jobs')).toBe(true);
      expect(await may(role, 'update', 'networking.k8s.io', 'networkpolicies')).toBe(true);
      expect(await may(role, 'create', '', 'pods', 'eviction')).toBe(true);
      expect(await may(role, 'update', 'apps', 'deployments', 'status')).toBe(false);
    }
  });
});
