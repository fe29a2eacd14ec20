/**
 * NetworkPolicy, Ingress, PodDisruptionBudget and PodSecurityPolicy read and written at every
 * version they are served at, over one storage, as upstream converts them: for each ordered
 * pair of versions, an object written at the first reads back at the second with the same
 * fields in that version's form; what an old version cannot show is dropped from its reads and
 * kept by its updates; policy/v1beta1's empty PodDisruptionBudget selector matches no pods.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const NS = 'net-conv';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const PDB_LABEL = 'pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match';

const path = (apiVersion: string, plural: string, name = '', namespaced = true) =>
  `/apis/${apiVersion}${namespaced ? `/namespaces/${NS}` : ''}/${plural}${name ? `/${name}` : ''}`;

async function create(apiVersion: string, plural: string, body: object, namespaced = true): Promise<any> {
  await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } });
  const res = await srv.api('POST', path(apiVersion, plural, '', namespaced), body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function get(apiVersion: string, plural: string, name: string, namespaced = true): Promise<any> {
  const res = await srv.api('GET', path(apiVersion, plural, name, namespaced));
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** What two reads of one object share whatever the version: everything but apiVersion, selfLink and managedFields. */
function comparable(obj: any): any {
  const { apiVersion: _v, metadata, ...rest } = obj;
  const { selfLink: _s, managedFields: _m, ...meta } = metadata;
  return { ...rest, metadata: meta };
}

const pairs = (versions: readonly string[]) => versions.flatMap((a) => versions.map((b) => [a, b] as const));
const slug = (v: string) => v.replace(/[^a-z0-9]/g, '');

describe('NetworkPolicy across networking.k8s.io/v1, networking.ck.io/v1 and extensions/v1beta1', () => {
  const VERSIONS = ['networking.k8s.io/v1', 'networking.ck.io/v1', 'extensions/v1beta1'];
  const spec = {
    podSelector: { matchLabels: { app: 'web' } },
    ingress: [
      {
        from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }, { namespaceSelector: {} }],
        ports: [{ protocol: 'UDP', port: 53 }, { port: 'http' }],
      },
    ],
    egress: [{ to: [{ podSelector: { matchLabels: { role: 'db' } } }] }],
  };

  it.each(pairs(VERSIONS))('written at %s reads back at %s with the same fields', async (from, to) => {
    const name = `np-${slug(from)}-${slug(to)}`;
    const written = await create(from, 'networkpolicies', { metadata: { name }, spec });
    // Defaults, the same in every version: TCP where no protocol, Ingress and Egress (egress rules are present).
    expect(written.spec.ingress[0].ports[1].protocol).toBe('TCP');
    expect(written.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    const read = await get(to, 'networkpolicies', name);
    expect(read.apiVersion).toBe(to);
    expect(comparable(read)).toEqual(comparable(written));
  });

  it('extensions/v1beta1 does not show endPort, and its updates keep it', async () => {
    const name = 'np-endport';
    await create('networking.k8s.io/v1', 'networkpolicies', {
      metadata: { name },
      spec: { podSelector: {}, ingress: [{ ports: [{ port: 8000, endPort: 9000 }] }] },
    });
    const old = await get('extensions/v1beta1', 'networkpolicies', name);
    expect(old.spec.ingress[0].ports[0]).toEqual({ protocol: 'TCP', port: 8000 });
    const put = await srv.api('PUT', path('extensions/v1beta1', 'networkpolicies', name), {
      ...old,
      metadata: { ...old.metadata, labels: { touched: 'yes' } },
    });
    expect(put.status, put.text).toBe(200);
    const v1 = await get('networking.k8s.io/v1', 'networkpolicies', name);
    expect(v1.metadata.labels).toEqual({ touched: 'yes' });
    expect(v1.spec.ingress[0].ports[0]).toEqual({ protocol: 'TCP', port: 8000, endPort: 9000 });
    expect(v1.metadata.generation).toBe(1);
  });
});

describe('Ingress across networking.k8s.io/v1 and extensions/v1beta1', () => {
  const V1 = 'networking.k8s.io/v1';
  const EXT = 'extensions/v1beta1';
  const tls = [{ hosts: ['a.example.com'], secretName: 'a-tls' }];
  /** The same Ingress in each version's form (pathType ImplementationSpecific: what 1.10's paths mean). */
  const FORMS: Record<string, object> = {
    [V1]: {
      defaultBackend: { service: { name: 'fallback', port: { name: 'http' } } },
      rules: [
        {
          host: 'a.example.com',
          http: {
            paths: [
              {
                path: '/api',
                pathType: 'ImplementationSpecific',
                backend: { service: { name: 'api', port: { number: 8080 } } },
              },
            ],
          },
        },
      ],
      tls,
    },
    [EXT]: {
      backend: { serviceName: 'fallback', servicePort: 'http' },
      rules: [
        {
          host: 'a.example.com',
          http: { paths: [{ path: '/api', backend: { serviceName: 'api', servicePort: 8080 } }] },
        },
      ],
      tls,
    },
  };

  it.each(pairs([V1, EXT]))('written at %s reads back at %s in its form', async (from, to) => {
    const name = `ing-${slug(from)}-${slug(to)}`;
    const written = await create(from, 'ingresses', { metadata: { name }, spec: FORMS[from] });
    expect(written.spec).toEqual(FORMS[from]);
    const read = await get(to, 'ingresses', name);
    expect(read.apiVersion).toBe(to);
    expect(read.spec).toEqual(FORMS[to]);
    expect(comparable({ ...read, spec: null })).toEqual(comparable({ ...written, spec: null }));
  });

  it('extensions/v1beta1 does not show ingressClassName, pathType or status ports, and its writes keep them', async () => {
    const name = 'ing-lossy';
    await create(V1, 'ingresses', {
      metadata: { name },
      spec: {
        ingressClassName: 'nginx',
        rules: [
          {
            http: {
              paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }],
            },
          },
        ],
      },
    });
    const lb = { ip: '10.0.0.1', ports: [{ port: 443, protocol: 'TCP' }] };
    const status = await srv.api(
      'PATCH',
      `${path(V1, 'ingresses', name)}/status`,
      { status: { loadBalancer: { ingress: [lb] } } },
      MERGE,
    );
    expect(status.status, status.text).toBe(200);

    const old = await get(EXT, 'ingresses', name);
    expect(old.spec).toEqual({
      rules: [{ http: { paths: [{ path: '/', backend: { serviceName: 'web', servicePort: 80 } }] } }],
    });
    expect(old.status).toEqual({ loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } });

    const put = await srv.api('PUT', path(EXT, 'ingresses', name), {
      ...old,
      metadata: { ...old.metadata, labels: { a: 'b' } },
    });
    expect(put.status, put.text).toBe(200);
    const putStatus = await srv.api('PUT', `${path(EXT, 'ingresses', name)}/status`, put.body);
    expect(putStatus.status, putStatus.text).toBe(200);
    const v1 = await get(V1, 'ingresses', name);
    expect(v1.metadata.labels).toEqual({ a: 'b' });
    expect(v1.spec.ingressClassName).toBe('nginx');
    expect(v1.spec.rules[0].http.paths[0].pathType).toBe('Prefix');
    expect(v1.status.loadBalancer.ingress).toEqual([lb]);
    expect(v1.metadata.generation).toBe(1);
  });
});

describe('PodDisruptionBudget across policy/v1 and policy/v1beta1', () => {
  const VERSIONS = ['policy/v1', 'policy/v1beta1'];

  it.each(pairs(VERSIONS))('written at %s reads back at %s with the same fields', async (from, to) => {
    const name = `pdb-${slug(from)}-${slug(to)}`;
    const written = await create(from, 'poddisruptionbudgets', {
      metadata: { name },
      spec: {
        maxUnavailable: '25%',
        selector: { matchLabels: { app: name }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }] },
      },
    });
    expect(written.status).toEqual({ currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 });
    const read = await get(to, 'poddisruptionbudgets', name);
    expect(read.apiVersion).toBe(to);
    expect(comparable(read)).toEqual(comparable(written));
  });

  it("an empty selector matches no pods in policy/v1beta1 and every pod in policy/v1, as upstream's conversion says", async () => {
    await create('policy/v1beta1', 'poddisruptionbudgets', { metadata: { name: 'pdb-none' }, spec: { selector: {} } });
    expect((await get('policy/v1beta1', 'poddisruptionbudgets', 'pdb-none')).spec.selector).toEqual({});
    expect((await get('policy/v1', 'poddisruptionbudgets', 'pdb-none')).spec.selector).toEqual({
      matchExpressions: [{ key: PDB_LABEL, operator: 'Exists' }],
    });

    await create('policy/v1', 'poddisruptionbudgets', { metadata: { name: 'pdb-all' }, spec: { selector: {} } });
    expect((await get('policy/v1', 'poddisruptionbudgets', 'pdb-all')).spec.selector).toEqual({});
    expect((await get('policy/v1beta1', 'poddisruptionbudgets', 'pdb-all')).spec.selector).toEqual({
      matchExpressions: [{ key: PDB_LABEL, operator: 'DoesNotExist' }],
    });
    // The match-all form written back through policy/v1beta1 is v1's empty selector again.
    const patched = await srv.api(
      'PATCH',
      path('policy/v1beta1', 'poddisruptionbudgets', 'pdb-all'),
      { metadata: { labels: { a: 'b' } } },
      MERGE,
    );
    expect(patched.status, patched.text).toBe(200);
    expect((await get('policy/v1', 'poddisruptionbudgets', 'pdb-all')).spec.selector).toEqual({});
  });

  it('policy/v1beta1 does not show unhealthyPodEvictionPolicy or conditions, and its writes keep them', async () => {
    const name = 'pdb-lossy';
    await create('policy/v1', 'poddisruptionbudgets', {
      metadata: { name },
      spec: { minAvailable: 1, selector: { matchLabels: { app: name } }, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
    });
    const condition = {
      type: 'DisruptionAllowed',
      status: 'True',
      reason: 'SufficientPods',
      message: '',
      lastTransitionTime: '2024-01-01T00:00:00Z',
      observedGeneration: 1,
    };
    const st = await srv.api(
      'PATCH',
      `${path('policy/v1', 'poddisruptionbudgets', name)}/status`,
      { status: { observedGeneration: 1, conditions: [condition] } },
      MERGE,
    );
    expect(st.status, st.text).toBe(200);
    const old = await get('policy/v1beta1', 'poddisruptionbudgets', name);
    expect(old.spec.unhealthyPodEvictionPolicy).toBeUndefined();
    expect(old.status.conditions).toBeUndefined();
    const put = await srv.api('PUT', path('policy/v1beta1', 'poddisruptionbudgets', name), {
      ...old,
      spec: { ...old.spec, minAvailable: 2 },
    });
    expect(put.status, put.text).toBe(200);
    const putStatus = await srv.api('PUT', `${path('policy/v1beta1', 'poddisruptionbudgets', name)}/status`, {
      ...put.body,
      status: { ...put.body.status, observedGeneration: 2 },
    });
    expect(putStatus.status, putStatus.text).toBe(200);
    const v1 = await get('policy/v1', 'poddisruptionbudgets', name);
    expect(v1.spec).toMatchObject({ minAvailable: 2, unhealthyPodEvictionPolicy: 'AlwaysAllow' });
    expect(v1.status).toMatchObject({ observedGeneration: 2, conditions: [condition] });
    expect(v1.metadata.generation).toBe(2);
  });
});

describe('PodSecurityPolicy across policy/v1beta1 and extensions/v1beta1', () => {
  it.each(pairs(['policy/v1beta1', 'extensions/v1beta1']))('written at %s reads back at %s', async (from, to) => {
    const name = `psp-${slug(from)}-${slug(to)}`;
    const written = await create(
      from,
      'podsecuritypolicies',
      {
        metadata: { name },
        spec: {
          seLinux: { rule: 'RunAsAny' },
          runAsUser: { rule: 'MustRunAs', ranges: [{ min: 1000, max: 2000 }] },
          supplementalGroups: { rule: 'RunAsAny' },
          fsGroup: { rule: 'RunAsAny' },
          volumes: ['secret'],
        },
      },
      false,
    );
    expect(written.spec.allowPrivilegeEscalation).toBe(true);
    const read = await get(to, 'podsecuritypolicies', name, false);
    expect(read.apiVersion).toBe(to);
    expect(comparable(read)).toEqual(comparable(written));
  });
});
