// The Helm chart, rendered by the real Helm 4 binary for a matrix of values: every object is
// valid for upstream's schemas, names fit 63 characters, the replicas share one token and one CA,
// pods roll when credentials or settings change, the schema refuses bad values, and the chart
// lints strictly with a README that matches its values.
import { execFile } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CHART, find, helm, render } from './render.js';
import { validate } from './validate.js';
import { parse as parseYaml } from 'yaml';
import { parsePolicy as parseAuditPolicy } from '../../src/audit/policy.js';

const run = promisify(execFile);
const MATRIX: [string, Record<string, unknown>][] = [
  ['defaults', {}],
  ['one replica on the embedded store', { replicaCount: 1, 'etcd.bundled': false }],
  ['external etcd', { 'etcd.bundled': false, 'etcd.servers': 'http://etcd-a:2379,http://etcd-b:2379' }],
  [
    'external etcd over TLS',
    {
      'etcd.bundled': false,
      'etcd.servers': 'https://etcd-a:2379,https://etcd-b:2379',
      'etcd.tls.existingSecret': 'etcd-client',
    },
  ],
  ['existing Secrets', { 'auth.existingSecret': 'my-auth', 'tls.existingSecret': 'my-tls' }],
  [
    'ServiceMonitor with labels',
    { 'serviceMonitor.enabled': true, 'serviceMonitor.labels': { release: 'prometheus' } },
  ],
  ['autoscaling', { 'autoscaling.enabled': true, 'autoscaling.minReplicas': 3 }],
  [
    'scheduling values',
    {
      nodeSelector: { pool: 'api' },
      tolerations: [{ key: 'x', operator: 'Exists' }],
      priorityClassName: 'high',
      imagePullSecrets: [{ name: 'reg' }],
      'etcd.replicas': 5,
    },
  ],
  ['fullnameOverride', { fullnameOverride: 'api' }],
  ['audit', { 'audit.enabled': true }],
];

describe.each(MATRIX)('rendered with %s', (_, values) => {
  it('gives objects valid for upstream schemas with names of at most 63 characters', async () => {
    const objects = await render(values, `${'long-'.repeat(9)}release`); // 53 characters, Helm's longest release name;
    expect(objects.length).toBeGreaterThan(3);
    for (const o of objects) {
      validate(o);
      expect(o.metadata.name.length, o.metadata.name).toBeLessThanOrEqual(63);
      expect(o.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    }
    const sts = objects.find((o) => o.kind === 'StatefulSet');
    if (sts) expect(sts.metadata.name.length).toBeLessThanOrEqual(52);
  });
});

describe('the chart', () => {
  it('lints with --strict and rejects bad values through its schema', async () => {
    await run(helm(), ['lint', '--strict', CHART]);
    for (const bad of [
      { replicaCount: 'abc' },
      { replicaCount: -1 },
      { 'image.pullPolicy': 'Sometimes' },
      { 'etcd.replicas': 2 },
      { 'service.port': 70000 },
      { unknownValue: 1 },
      { extraArgs: ['oops'] },
    ]) {
      await expect(render(bad), JSON.stringify(bad)).rejects.toThrow(
        /values don't meet the specifications of the schema/,
      );
    }
    await expect(render({ replicaCount: 2, 'etcd.bundled': false })).rejects.toThrow(
      /the embedded store .* serves one replica only/,
    );
  });

  it('gives every replica the same token file and CA, with a certificate naming the Service', async () => {
    const objects = await render({}, 'api', 'team');
    const deployment = find(objects, 'Deployment');
    const pod = deployment.spec.template.spec;
    const args: string[] = pod.containers[0].args;
    expect(args).toEqual(
      expect.arrayContaining([
        '--token-auth-file=/etc/ck-apiserver/auth/tokens.csv',
        '--tls-cert-file=/etc/ck-apiserver/tls/tls.crt',
        '--tls-private-key-file=/etc/ck-apiserver/tls/tls.key',
      ]),
    );
    // Each replica advertises its pod IP (the kubernetes Endpoints list the replicas).
    expect(args).toContain('--advertise-address=$(POD_IP)');
    expect(pod.containers[0].env).toContainEqual({
      name: 'POD_IP',
      valueFrom: { fieldRef: { fieldPath: 'status.podIP' } },
    });
    expect(args.find((a) => a.startsWith('--etcd-servers='))).toBe(
      '--etcd-servers=' +
        [0, 1, 2].map((i) => `http://api-ck-apiserver-etcd-${i}.api-ck-apiserver-etcd-peer.team.svc:2379`).join(','),
    );
    const auth = find(objects, 'Secret', '-auth');
    const tls = find(objects, 'Secret', '-tls');
    expect(pod.volumes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'auth', secret: expect.objectContaining({ secretName: auth.metadata.name }) }),
      ]),
    );
    const csv = Buffer.from(auth.data['tokens.csv'], 'base64').toString();
    const admin = Buffer.from(auth.data.token, 'base64').toString();
    expect(csv).toContain(`${admin},admin,admin,"system:masters"`);
    expect(csv).toContain(`${Buffer.from(auth.data['metrics-token'], 'base64').toString()},prometheus`);
    const cert = new X509Certificate(Buffer.from(tls.data['tls.crt'], 'base64'));
    const ca = new X509Certificate(Buffer.from(tls.data['ca.crt'], 'base64'));
    expect(cert.checkIssued(ca)).toBe(true);
    // One service account signing key for every replica, and client certificates verified by the CA.
    expect(args).toEqual(
      expect.arrayContaining([
        '--service-account-signing-key-file=/etc/ck-apiserver/sa/sa.key',
        '--client-ca-file=/etc/ck-apiserver/tls/ca.crt',
      ]),
    );
    const saKey = find(objects, 'Secret', '-sa-key');
    expect(createPrivateKey(Buffer.from(saKey.data['sa.key'], 'base64').toString()).asymmetricKeyType).toBe('rsa');
    expect(pod.volumes).toEqual(
      expect.arrayContaining([
        { name: 'sa-key', secret: { secretName: saKey.metadata.name, items: [{ key: 'sa.key', path: 'sa.key' }] } },
      ]),
    );
    for (const host of [
      'api-ck-apiserver',
      'api-ck-apiserver.team',
      'api-ck-apiserver.team.svc',
      'api-ck-apiserver.team.svc.cluster.local',
      'localhost',
    ])
      expect(cert.checkHost(host), host).toBe(host);
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    const extra = new X509Certificate(
      Buffer.from(
        find(await render({ 'tls.extraSANs': ['api.example.com', '10.1.2.3'] }), 'Secret', '-tls').data['tls.crt'],
        'base64',
      ),
    );
    expect(extra.checkHost('api.example.com')).toBe('api.example.com');
    expect(extra.checkIP('10.1.2.3')).toBe('10.1.2.3');
    expect(find(objects, 'ConfigMap', '-ca').data['ca.crt']).toBe(Buffer.from(tls.data['ca.crt'], 'base64').toString());
  });

  it('mounts an existing etcd TLS Secret and passes --etcd-cafile, --etcd-certfile and --etcd-keyfile', async () => {
    const external = {
      'etcd.bundled': false,
      'etcd.servers': 'https://etcd-a:2379,https://etcd-b:2379',
      'etcd.tls.existingSecret': 'etcd-client',
    };
    const pod = find(await render(external), 'Deployment').spec.template.spec;
    const c = pod.containers[0];
    expect(c.args).toEqual(
      expect.arrayContaining([
        '--etcd-servers=https://etcd-a:2379,https://etcd-b:2379',
        '--etcd-cafile=/etc/ck-apiserver/etcd/ca.crt',
        '--etcd-certfile=/etc/ck-apiserver/etcd/tls.crt',
        '--etcd-keyfile=/etc/ck-apiserver/etcd/tls.key',
      ]),
    );
    expect(c.volumeMounts).toContainEqual({ name: 'etcd-tls', mountPath: '/etc/ck-apiserver/etcd', readOnly: true });
    expect(pod.volumes.find((v: any) => v.name === 'etcd-tls').secret).toEqual({
      secretName: 'etcd-client',
      items: ['ca.crt', 'tls.crt', 'tls.key'].map((k) => ({ key: k, path: k })),
    });
    // Server TLS only: the CA alone.
    const caOnly = find(await render({ ...external, 'etcd.tls.clientCert': false }), 'Deployment').spec.template.spec;
    expect(caOnly.containers[0].args.filter((a: string) => a.startsWith('--etcd-') && a.includes('file'))).toEqual([
      '--etcd-cafile=/etc/ck-apiserver/etcd/ca.crt',
    ]);
    expect(caOnly.volumes.find((v: any) => v.name === 'etcd-tls').secret.items).toEqual([
      { key: 'ca.crt', path: 'ca.crt' },
    ]);
    // Without the value: no TLS flags, no volume.
    const plain = find(await render({ 'etcd.bundled': false, 'etcd.servers': 'https://etcd-a:2379' }), 'Deployment')
      .spec.template.spec;
    expect(plain.containers[0].args.some((a: string) => /^--etcd-(ca|cert|key)file/.test(a))).toBe(false);
    expect(plain.volumes.map((v: any) => v.name)).not.toContain('etcd-tls');
    // Only for an external etcd reached over https://; the schema refuses unknown keys.
    await expect(render({ 'etcd.tls.existingSecret': 'etcd-client' })).rejects.toThrow(
      /etcd.tls.existingSecret is for an external etcd over TLS/,
    );
    await expect(render({ ...external, 'etcd.servers': 'https://etcd-a:2379,http://etcd-b:2379' })).rejects.toThrow(
      /etcd.tls.existingSecret is for an external etcd over TLS/,
    );
    await expect(render({ ...external, 'etcd.tls.caFile': 'x' })).rejects.toThrow(
      /values don't meet the specifications of the schema/,
    );
  });

  it('audits to standard output with the policy of its values when audit.enabled', async () => {
    const objects = await render({ 'audit.enabled': true });
    const pod = find(objects, 'Deployment').spec.template.spec;
    expect(pod.containers[0].args).toEqual(
      expect.arrayContaining(['--audit-log-path=-', '--audit-policy-file=/etc/ck-apiserver/audit/policy.yaml']),
    );
    expect(pod.containers[0].volumeMounts).toContainEqual({
      name: 'audit-policy',
      mountPath: '/etc/ck-apiserver/audit',
      readOnly: true,
    });
    const policy = parseYaml(find(objects, 'ConfigMap', '-audit').data['policy.yaml']);
    expect(policy).toEqual({
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      omitStages: ['RequestReceived'],
      rules: [{ level: 'Metadata' }],
    });
    // The server accepts that policy as it is rendered.
    expect(() => parseAuditPolicy(find(objects, 'ConfigMap', '-audit').data['policy.yaml'])).not.toThrow();
    const off = find(await render({}), 'Deployment').spec.template.spec;
    expect(off.containers[0].args.some((a: string) => a.startsWith('--audit'))).toBe(false);
  });

  it('hardens the containers, probes them, and spreads the replicas', async () => {
    const pod = find(await render(), 'Deployment').spec.template.spec;
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 65532,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.automountServiceAccountToken).toBe(false);
    const c = pod.containers[0];
    expect(c.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect([c.startupProbe.httpGet.path, c.livenessProbe.httpGet.path, c.readinessProbe.httpGet.path]).toEqual([
      '/livez',
      '/livez',
      '/readyz',
    ]);
    expect(pod.topologySpreadConstraints.map((t: any) => t.topologyKey)).toEqual([
      'kubernetes.io/hostname',
      'topology.kubernetes.io/zone',
    ]);
    const etcd = find(await render(), 'StatefulSet');
    expect(etcd.spec.replicas).toBe(3);
    expect(etcd.spec.template.spec.containers[0].resources.requests).toEqual({ cpu: '100m', memory: '256Mi' });
    expect(etcd.spec.template.spec.containers[0].readinessProbe.httpGet.path).toBe('/health');
  });

  it('has a PodDisruptionBudget only with more than one replica, and one for etcd that keeps quorum', async () => {
    const pdbs = (objects: Awaited<ReturnType<typeof render>>) =>
      objects
        .filter((o) => o.kind === 'PodDisruptionBudget')
        .map((o) => [o.metadata.name, o.spec.maxUnavailable ?? `min ${o.spec.minAvailable}`]);
    expect(pdbs(await render({ replicaCount: 1 }))).toEqual([['rel-ck-apiserver-etcd', 'min 2']]);
    expect(pdbs(await render({ replicaCount: 3, 'etcd.bundled': false, 'etcd.servers': 'http://e:2379' }))).toEqual([
      ['rel-ck-apiserver', 1],
    ]);
    expect(pdbs(await render({ 'etcd.replicas': 5 }))).toEqual(
      expect.arrayContaining([['rel-ck-apiserver-etcd', 'min 3']]),
    );
  });

  it('names things without repeating the chart name, and honours overrides', async () => {
    expect(find(await render({}, 'ck-apiserver'), 'Deployment').metadata.name).toBe('ck-apiserver');
    expect(find(await render({}, 'prod-ck-apiserver'), 'Deployment').metadata.name).toBe('prod-ck-apiserver');
    expect(find(await render({ fullnameOverride: 'api' }), 'Deployment').metadata.name).toBe('api');
    expect(find(await render({}, 'x'.repeat(53)), 'Deployment').metadata.name).toBe(`${'x'.repeat(53)}-ck-apiser`);
  });

  it('rolls the pods when credentials or settings change', async () => {
    const checksums = async (values: Record<string, unknown>) =>
      find(await render(values), 'Deployment').spec.template.metadata.annotations;
    const a = await checksums({ 'auth.existingSecret': 's', 'tls.existingSecret': 't' });
    const b = await checksums({ 'auth.existingSecret': 's2', 'tls.existingSecret': 't' });
    const c = await checksums({
      'auth.existingSecret': 's',
      'tls.existingSecret': 't',
      extraArgs: ['--max-requests-inflight=800'],
    });
    expect(a['checksum/auth']).not.toBe(b['checksum/auth']);
    expect(a['checksum/tls']).toBe(b['checksum/tls']);
    expect(a['checksum/config']).not.toBe(c['checksum/config']);
    expect(a['checksum/config']).toBe(b['checksum/config']);
  });

  it('scrapes only the apiserver Service with a ServiceMonitor that uses keys that exist', async () => {
    const objects = await render({
      'serviceMonitor.enabled': true,
      'serviceMonitor.labels': { release: 'prometheus' },
    });
    const sm = find(objects, 'ServiceMonitor');
    expect(sm.metadata.labels?.release).toBe('prometheus');
    const selected = objects.filter(
      (o) =>
        o.kind === 'Service' &&
        Object.entries(sm.spec.selector.matchLabels).every(([k, v]) => o.metadata.labels?.[k] === v),
    );
    expect(selected.map((s) => s.metadata.name)).toEqual(['rel-ck-apiserver']);
    const endpoint = sm.spec.endpoints[0];
    expect(endpoint).toMatchObject({ scheme: 'https', path: '/metrics', port: 'https' });
    const auth = find(objects, 'Secret', '-auth');
    expect(auth.data[endpoint.authorization.credentials.key]).toBeTruthy();
    expect(find(objects, 'Secret', '-tls').data[endpoint.tlsConfig.ca.secret.key]).toBeTruthy();
  });

  it('has a helm test hook that checks /readyz and lists namespaces with the token and CA', async () => {
    const test = (await render()).find((o) => o.metadata.annotations?.['helm.sh/hook'] === 'test')!;
    expect(test.kind).toBe('Pod');
    expect(test.spec.containers[0].args[0]).toContain("get('/readyz')");
    expect(test.spec.volumes.map((v: any) => v.secret.secretName)).toEqual([
      'rel-ck-apiserver-auth',
      'rel-ck-apiserver-tls',
    ]);
  });

  it('has a README whose values table matches values.yaml', async () => {
    await expect(
      run('node', [resolve(import.meta.dirname, '../../scripts/chart-readme.mjs'), '--check']),
    ).resolves.toBeDefined();
  });
});
