/**
 * Discovery, authentication, Status errors and the special operations (namespace lifecycle,
 * finalize, status, binding, SCC in two groups) as clients see them.
 */
import { describe, expect, it } from 'vitest';
import { API_GROUPS } from '../../src/api/groups.js';
import { apiGroup } from '../../src/http/routes/discovery.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();

describe('discovery', () => {
  it('serves APIVersions at /api and /oapi', async () => {
    for (const p of ['/api', '/api/', '/oapi/']) {
      const res = await srv.api('GET', p);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        kind: 'APIVersions',
        versions: ['v1'],
        serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0' }],
      });
    }
  });

  it('lists every core resource with verbs, short names and subresources at /api/v1', async () => {
    const res = await srv.api('GET', '/api/v1/');
    expect(res.body).toMatchObject({ kind: 'APIResourceList', groupVersion: 'v1' });
    const byName = Object.fromEntries(res.body.resources.map((r: any) => [r.name, r]));
    expect(
      Object.keys(byName)
        .filter((n) => !n.includes('/'))
        .sort(),
    ).toEqual(
      [
        'bindings',
        'configmaps',
        'endpoints',
        'events',
        'limitranges',
        'namespaces',
        'nodes',
        'persistentvolumeclaims',
        'persistentvolumes',
        'pods',
        'podtemplates',
        'replicationcontrollers',
        'resourcequotas',
        'secrets',
        'securitycontextconstraints',
        'serviceaccounts',
        'services',
      ].sort(),
    );
    expect(byName.pods).toMatchObject({ namespaced: true, kind: 'Pod', shortNames: ['po'], categories: ['all'] });
    expect(byName.pods.verbs).toEqual([
      'create',
      'delete',
      'deletecollection',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
    expect(byName.bindings.verbs).toEqual(['create']);
    expect(byName['namespaces/finalize']).toMatchObject({ kind: 'Namespace', verbs: ['update'] });
    expect(byName['pods/binding']).toMatchObject({ kind: 'Binding', verbs: ['create'] });
    expect(byName.nodes.namespaced).toBe(false);
  });

  it('serves every group of the spec; /apis lists those with resources; security.platform.io/v1 lists SCC', async () => {
    const groups = await srv.api('GET', '/apis');
    expect(groups.body.kind).toBe('APIGroupList');
    const listed = groups.body.groups.map((g: { name: string }) => g.name) as string[];
    // In upstream's priority order (API_GROUPS), upstream's names first: kubectl maps a
    // resource to the first group serving it.
    expect(listed).toEqual(API_GROUPS.map((g) => g.name).filter((n) => listed.includes(n)));
    expect(listed).toEqual(
      expect.arrayContaining([
        'apps',
        'batch',
        'autoscaling',
        'authentication.k8s.io',
        'authorization.k8s.io',
        'rbac.authorization.k8s.io',
        'rbac.authorization.ck.io',
        'coordination.k8s.io',
        'flowcontrol.apiserver.k8s.io',
        'apiextensions.k8s.io',
        'security.platform.io',
      ]),
    );
    expect(listed.indexOf('rbac.authorization.k8s.io')).toBeLessThan(listed.indexOf('rbac.authorization.ck.io'));
    expect(groups.body.groups).toContainEqual(
      expect.objectContaining({
        name: 'security.platform.io',
        preferredVersion: { groupVersion: 'security.platform.io/v1', version: 'v1' },
      }),
    );
    expect(groups.body.groups).toContainEqual(
      expect.objectContaining({
        name: 'rbac.authorization.ck.io',
        preferredVersion: { groupVersion: 'rbac.authorization.ck.io/v1', version: 'v1' },
      }),
    );
    expect(API_GROUPS).toHaveLength(41);
    for (const g of API_GROUPS.map((x) => apiGroup(x))) {
      const group = await srv.api('GET', `/apis/${g.name}/`);
      expect(group.body).toMatchObject({ kind: 'APIGroup', name: g.name, preferredVersion: g.preferredVersion });
      for (const v of g.versions as { groupVersion: string }[]) {
        const list = await srv.api('GET', `/apis/${v.groupVersion}/`);
        expect(list.status).toBe(200);
        expect(list.body).toMatchObject({ kind: 'APIResourceList', groupVersion: v.groupVersion });
      }
    }
    const sec = await srv.api('GET', '/apis/security.platform.io/v1');
    expect(sec.body.resources.map((r: any) => r.name)).toEqual(['securitycontextconstraints']);
    const apps = await srv.api('GET', '/apis/apps/v1');
    expect(apps.body.resources.map((r: any) => r.name)).toEqual(
      expect.arrayContaining(['deployments', 'deployments/scale', 'statefulsets', 'daemonsets', 'replicasets']),
    );
  });
});

describe('authentication and errors', () => {
  it('answers 401 Status without or with a wrong token; health and version are public', async () => {
    for (const headers of [{ authorization: '' }, { authorization: 'Bearer nope' }]) {
      const res = await srv.api('GET', '/api/v1/namespaces', undefined, headers);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'Unauthorized',
        code: 401,
      });
    }
    for (const p of ['/healthz', '/livez', '/readyz', '/version']) {
      expect((await srv.api('GET', p, undefined, { authorization: '' })).status).toBe(200);
    }
    const version = await srv.api('GET', '/version', undefined, { authorization: '' });
    expect(version.body).toMatchObject({ major: '1', gitVersion: expect.stringMatching(/^v1\./) });
  });

  it('answers plain-text 404 outside the API and a Status inside it', async () => {
    const outside = await srv.api('GET', '/nowhere');
    expect(outside.status).toBe(404);
    expect(outside.text).toBe('404 page not found\n');
    const inside = await srv.api('GET', '/api/v1/widgets');
    expect(inside.status).toBe(404);
    expect(inside.body).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  });

  it('infers apiVersion and kind, and rejects mismatches with 400', async () => {
    const ok = await srv.api('POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { name: 'no-kind' },
      data: {},
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
    const cases: [string, unknown, RegExp][] = [
      // As upstream's decoder words them (rest.go transformDecodeError).
      [
        '/api/v1/namespaces/default/configmaps',
        { apiVersion: 'v2', kind: 'ConfigMap', metadata: { name: 'x' } },
        /^ConfigMap in version "v2" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "v2"/,
      ],
      [
        '/api/v1/namespaces/default/configmaps',
        { kind: 'Secret', metadata: { name: 'x' } },
        /^Secret in version "v1" cannot be handled as a ConfigMap: converting \(v1.Secret\) to \(core.ConfigMap\): unknown conversion$/,
      ],
      [
        '/api/v1/namespaces/default/configmaps',
        { metadata: { name: 'x', namespace: 'other' } },
        /namespace of the provided object does not match/,
      ],
      ['/api/v1/namespaces/default/configmaps', '{not json', /couldn't decode/],
    ];
    for (const [path, body, message] of cases) {
      const res = await srv.api('POST', path, body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.reason).toBe('BadRequest');
      expect(res.body.message).toMatch(message);
    }
    const named = await srv.api('PUT', '/api/v1/namespaces/default/configmaps/no-kind', {
      metadata: { name: 'other' },
    });
    expect(named.status).toBe(400);
    expect(named.body.message).toBe('the name of the object (other) does not match the name on the URL (no-kind)');
  });

  it('answers 422 Invalid with causes, 415 for unknown types, 422 for an apply patch without fieldManager, 405 for unserved verbs', async () => {
    const bad = await srv.api('POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { name: 'Bad_Name', labels: { 'a b': 'x' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ reason: 'Invalid', details: { name: 'Bad_Name', kind: 'ConfigMap' } });
    expect(bad.body.details.causes.map((c: any) => c.field)).toEqual(['metadata.name', 'metadata.labels']);
    const apply = await srv.api(
      'PATCH',
      '/api/v1/namespaces/default/configmaps/no-kind',
      { data: { a: 'b' } },
      { 'content-type': 'application/apply-patch+yaml' },
    );
    expect(apply.status).toBe(422);
    expect(apply.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
    const text = await srv.api('POST', '/api/v1/namespaces/default/configmaps', 'x', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const getBinding = await srv.api('GET', '/api/v1/namespaces/default/bindings');
    expect(getBinding.status).toBe(405);
    expect(getBinding.body.reason).toBe('MethodNotAllowed');
    const missingNs = await srv.api('POST', '/api/v1/namespaces/nope/configmaps', { metadata: { name: 'x' } });
    expect(missingNs.status).toBe(404);
    expect(missingNs.body.message).toBe('namespaces "nope" not found');
  });

  it('rejects bodies over 3 MiB with 413 and stores nothing', async () => {
    const big = { metadata: { name: 'too-big' }, data: { k: 'x'.repeat(3 * 1024 * 1024 + 10) } };
    const res = await srv.api('POST', '/api/v1/namespaces/default/configmaps', big);
    expect(res.status).toBe(413);
    expect(res.body.reason).toBe('RequestEntityTooLarge');
    expect((await srv.api('GET', '/api/v1/namespaces/default/configmaps/too-big')).status).toBe(404);
  });

  it('creates namespaced objects through the all-namespaces path using the body namespace', async () => {
    const res = await srv.api('POST', '/api/v1/configmaps', { metadata: { name: 'any-ns', namespace: 'kube-public' } });
    expect(res.status).toBe(201);
    expect(res.body.metadata.selfLink).toBe('/api/v1/namespaces/kube-public/configmaps/any-ns');
    const none = await srv.api('POST', '/api/v1/configmaps', { metadata: { name: 'no-ns' } });
    expect(none.status).toBe(422);
    expect(none.body.details.causes).toEqual([
      { reason: 'FieldValueRequired', field: 'metadata.namespace', message: 'Required value' },
    ]);
  });

  it('exposes Prometheus metrics with upstream names', async () => {
    await srv.api('GET', '/api/v1/namespaces/default/configmaps');
    const res = await srv.api('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(
      /apiserver_request_total\{verb="LIST",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="200"\} \d+/,
    );
    expect(res.text).toContain('apiserver_request_duration_seconds_bucket');
    expect((await srv.api('GET', '/metrics', undefined, { authorization: '' })).status).toBe(401);
  });

  it('accepts and returns YAML', async () => {
    const res = await srv.api(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      'metadata:\n  name: from-yaml\ndata:\n  k: v\n',
      {
        'content-type': 'application/yaml',
        accept: 'application/yaml',
      },
    );
    expect(res.status).toBe(201);
    expect(String(res.headers['content-type'])).toContain('application/yaml');
    expect(res.text).toContain('name: from-yaml');
  });
});

describe('special operations', () => {
  it('binds a pod once through pods/binding and once through bindings', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    for (const name of ['bind-a', 'bind-b']) {
      expect(
        (await srv.api('POST', pods, { metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }] } })).status,
      ).toBe(201);
    }
    const a = await srv.api('POST', `${pods}/bind-a/binding`, {
      metadata: { name: 'bind-a' },
      target: { kind: 'Node', name: 'n1' },
    });
    expect(a.status, a.text).toBe(201);
    expect(a.body).toMatchObject({ kind: 'Status', status: 'Success', code: 201 });
    const b = await srv.api('POST', '/api/v1/namespaces/default/bindings', {
      metadata: { name: 'bind-b', annotations: { x: 'y' } },
      target: { name: 'n2' },
    });
    expect(b.status).toBe(201);
    const podB = await srv.api('GET', `${pods}/bind-b`);
    expect(podB.body.spec.nodeName).toBe('n2');
    expect(podB.body.metadata.annotations).toEqual({ x: 'y' });
    expect(podB.body.status.conditions).toEqual([expect.objectContaining({ type: 'PodScheduled', status: 'True' })]);
    const again = await srv.api('POST', `${pods}/bind-a/binding`, {
      metadata: { name: 'bind-a' },
      target: { name: 'n3' },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      'Operation cannot be fulfilled on pods/binding "bind-a": pod bind-a is already assigned to node "n1"',
    );
  });

  it('keeps status out of main-resource writes and spec out of /status writes', async () => {
    const ns = await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'status-ns' } });
    expect(ns.body.status).toEqual({ phase: 'Active' });
    expect(ns.body.spec.finalizers).toEqual(['kubernetes']);
    const put = await srv.api('PUT', '/api/v1/namespaces/status-ns', {
      ...ns.body,
      status: { phase: 'Terminating' },
      spec: { finalizers: [] },
    });
    expect(put.body.status).toEqual({ phase: 'Active' });
    expect(put.body.spec.finalizers).toEqual(['kubernetes']);
    const status = await srv.api('GET', '/api/v1/namespaces/status-ns/status');
    expect(status.body.metadata.name).toBe('status-ns');
    // Upstream ValidateNamespaceStatusUpdate: Terminating only with a deletionTimestamp.
    const refused = await srv.api(
      'PATCH',
      '/api/v1/namespaces/status-ns/status',
      [{ op: 'replace', path: '/status/phase', value: 'Terminating' }],
      {
        'content-type': 'application/json-patch+json',
      },
    );
    expect(refused.status, refused.text).toBe(422);
    const patched = await srv.api(
      'PATCH',
      '/api/v1/namespaces/status-ns/status',
      [
        { op: 'replace', path: '/status/phase', value: 'Active' },
        { op: 'replace', path: '/spec/finalizers', value: [] },
      ],
      {
        'content-type': 'application/json-patch+json',
      },
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.status).toEqual({ phase: 'Active' });
    expect(patched.body.spec.finalizers).toEqual(['kubernetes']);
  });

  it('deletes a namespace and everything in it through the namespace controller', async () => {
    await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'doomed' } });
    for (let i = 0; i < 5; i++) {
      await srv.api('POST', '/api/v1/namespaces/doomed/configmaps', { metadata: { name: `cm-${i}` } });
      await srv.api('POST', '/api/v1/namespaces/doomed/secrets', { metadata: { name: `s-${i}` } });
    }
    const del = await srv.api('DELETE', '/api/v1/namespaces/doomed');
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({
      kind: 'Namespace',
      status: { phase: 'Terminating' },
      metadata: { deletionTimestamp: expect.any(String) },
    });
    const blocked = await srv.api('POST', '/api/v1/namespaces/doomed/configmaps', { metadata: { name: 'late' } });
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toBe(
      'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
    );
    for (let i = 0; i < 50; i++) {
      if ((await srv.api('GET', '/api/v1/namespaces/doomed')).status === 404) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await srv.api('GET', '/api/v1/namespaces/doomed')).status).toBe(404);
    expect((await srv.api('GET', '/api/v1/namespaces/doomed/configmaps')).body.items).toEqual([]);
    const immortal = await srv.api('DELETE', '/api/v1/namespaces/default');
    expect(immortal.status).toBe(403);
  });

  it('serves SecurityContextConstraints under both groups from one storage', async () => {
    const created = await srv.api('POST', '/apis/security.platform.io/v1/securitycontextconstraints', {
      apiVersion: 'security.platform.io/v1',
      kind: 'SecurityContextConstraints',
      metadata: { name: 'restricted' },
      priority: null,
      allowPrivilegedContainer: false,
      runAsUser: { type: 'MustRunAsRange' },
      seLinuxContext: { type: 'MustRunAs' },
    });
    expect(created.status, created.text).toBe(201);
    const legacy = await srv.api('GET', '/api/v1/securitycontextconstraints/restricted');
    expect(legacy.body).toMatchObject({
      apiVersion: 'v1',
      kind: 'SecurityContextConstraints',
      metadata: { uid: created.body.metadata.uid },
    });
    const del = await srv.api('DELETE', '/api/v1/securitycontextconstraints/restricted');
    expect(del.body.kind).toBe('SecurityContextConstraints');
  });

  it('marks objects with finalizers and removes them once the last finalizer is gone', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    await srv.api('POST', path, { metadata: { name: 'fin', finalizers: ['example.com/hold'] } });
    const del = await srv.api('DELETE', `${path}/fin`);
    expect(del.status).toBe(200);
    const held = await srv.api('GET', `${path}/fin`);
    expect(held.body.metadata.deletionTimestamp).toBeTruthy();
    const add = await srv.api(
      'PATCH',
      `${path}/fin`,
      { metadata: { finalizers: ['example.com/hold', 'x/new'] } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(add.status).toBe(422);
    const release = await srv.api(
      'PATCH',
      `${path}/fin`,
      { metadata: { finalizers: null } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(release.status).toBe(200);
    expect((await srv.api('GET', `${path}/fin`)).status).toBe(404);
  });
});

describe('short names', () => {
  it('are advertised by one group each, the first in discovery order (kubectl warns on a short name two groups share)', async () => {
    const owners = new Map<string, Set<string>>();
    const lists = [await srv.api('GET', '/api/v1')];
    for (const group of (await srv.api('GET', '/apis')).body.groups as { versions: { groupVersion: string }[] }[])
      for (const { groupVersion } of group.versions) lists.push(await srv.api('GET', `/apis/${groupVersion}`));
    for (const list of lists) {
      const group = String(list.body.groupVersion).includes('/') ? String(list.body.groupVersion).split('/')[0] : '';
      for (const r of list.body.resources as { shortNames?: string[] }[])
        for (const s of r.shortNames ?? []) owners.set(s, new Set([...(owners.get(s) ?? []), group]));
    }
    expect([...owners].filter(([, groups]) => groups.size > 1)).toEqual([]);
    expect([...owners.get('deploy')!]).toEqual(['apps']);
    expect([...owners.get('ing')!]).toEqual(['networking.k8s.io']);
    expect([...owners.get('ev')!]).toEqual(['']);
  });
});
