/**
 * kubectl 1.32 and 1.33 send protobuf bodies for typed creates; each succeeds and the object
 * reads back as JSON with what the command meant. `kubectl describe` (1.32, 1.33) of every
 * stored kind works while the server answers its typed GETs in protobuf; `drain` evicts through
 * pods/eviction.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const started = serversOnEtcd(1);

describe.each(['1.32', '1.33'])('kubectl %s typed creates (protobuf bodies)', (version) => {
  const k = (...args: string[]) =>
    run(`/usr/lib/google-cloud-sdk/bin/kubectl.${version}`, [`--kubeconfig=${started.servers[0].kubeconfig}`, ...args]);
  const v = version.replace('.', '');

  it('create namespace, secret generic, configmap, serviceaccount, quota and service clusterip', async () => {
    const ns = `team-${v}`;
    const commands = [
      ['create', 'namespace', ns],
      ['create', 'secret', 'generic', 'creds', '--from-literal=user=admin', '-n', ns],
      ['create', 'configmap', 'settings', '--from-literal=mode=fast', '-n', ns],
      ['create', 'serviceaccount', 'robot', '-n', ns],
      ['create', 'quota', 'limits', '--hard=cpu=1,pods=10', '-n', ns],
      ['create', 'service', 'clusterip', 'web', '--tcp=80:8080', '-n', ns],
    ];
    for (const args of commands) {
      const res = await k(...args);
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
    }
    const get = async (what: string) => JSON.parse((await k('get', what, '-n', ns, '-o', 'json')).stdout);
    expect((await get('secret/creds')).data).toEqual({ user: Buffer.from('admin').toString('base64') });
    expect((await get('configmap/settings')).data).toEqual({ mode: 'fast' });
    expect((await get('resourcequota/limits')).spec.hard).toEqual({ cpu: '1', pods: '10' });
    const svc = await get('service/web');
    expect(svc.spec).toMatchObject({
      type: 'ClusterIP',
      selector: { app: 'web' },
      ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
    });
    expect(svc.spec.clusterIP).toMatch(/^10\.0\.0\./);
    expect((await get('serviceaccount/robot')).metadata.name).toBe('robot');
  });
});

const KINDS = [
  'namespace/describe-pb',
  'node/describe-n1',
  'pv/describe-pv1',
  'pvc/pvc1',
  'rc/rc1',
  'podtemplate/pt1',
  'limitrange/lr1',
  'event/ev1',
  'endpoints/svc1',
  'scc/describe-scc1',
  'pod/p1',
  'configmap/cm1',
  'secret/s1',
  'serviceaccount/sa1',
  'resourcequota/q1',
  'service/svc1',
];
const kubectl =
  (version: string) =>
  (...args: string[]) =>
    run(`/usr/lib/google-cloud-sdk/bin/kubectl.${version}`, [`--kubeconfig=${started.servers[0].kubeconfig}`, ...args]);

describe.each(['1.32', '1.33'])('kubectl %s describe, answered in protobuf', (version) => {
  const k = kubectl(version);

  beforeAll(async () => {
    // The objects of every stored kind, created once for both versions.
    const created = await k('apply', '-f', resolve(import.meta.dirname, '../fixtures/describe-kinds.yaml'));
    expect(created.code, created.stderr).toBe(0);
  });

  it.each(KINDS)('%s', async (target) => {
    const res = await k('describe', target, '-n', 'describe-pb', '-v=8');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^Name:\\s+${target.split('/')[1]}$`, 'm'));
    expect(res.stderr).toContain('Content-Type: application/vnd.kubernetes.protobuf');
  });
});

it('kubectl 1.32 drain evicts a pod through pods/eviction (a policy/v1 Eviction, served since the policy group is)', async () => {
  const k = kubectl('1.32');
  const run1 = await k(
    'run',
    'drained',
    '--image=nginx',
    '-n',
    'describe-pb',
    '--overrides={"spec":{"nodeName":"describe-n1"}}',
  );
  expect(run1.code, run1.stderr).toBe(0);
  const res = await k('drain', 'describe-n1', '--force', '--grace-period=0', '-v=8');
  expect(res.code, res.stderr).toBe(0);
  expect(res.stdout + res.stderr).toContain('evicting pod describe-pb/drained');
  expect(res.stderr).toMatch(/POST https:\/\/\S+\/pods\/drained\/eviction/);
  expect(res.stderr).toContain('"kind":"Eviction","apiVersion":"policy/v1"');
  expect((await k('get', 'pod', 'drained', '-n', 'describe-pb')).code).not.toBe(0);
  expect(JSON.parse((await k('get', 'node', 'describe-n1', '-o', 'json')).stdout).spec.unschedulable).toBe(true);
});
