/**
 * kubectl with default validation (no --validate=false), 1.32 against the server's OpenAPI v3
 * and 1.27 against OpenAPI v2 (protobuf): every corpus manifest is created and replaced, a
 * manifest with an unknown field is rejected with the field's name, apply uses the published
 * patch metadata, and explain prints field docs.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/examples');
const started = serversOnEtcd(1);
const KUBECTLS = [
  ['1.32', '/usr/bin/kubectl'],
  ['1.27', '/usr/lib/google-cloud-sdk/bin/kubectl.1.27'],
] as const;

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => (statSync(join(dir, e)).isDirectory() ? files(join(dir, e)) : /\.(ya?ml|json)$/.test(e) ? [join(dir, e)] : []));
}

/**
 * Two corpus manifests carry fields no API version defines; under kubectl's default (Strict)
 * validation they are rejected naming the field, as upstream does.
 */
const UNKNOWN_FIELDS: Record<string, string> = {
  '_archived/volumes/storageos/storageos-pod.yaml': 'spec.volumes[0].storageos.pool',
  '_archived/volumes/storageos/storageos-pv.yaml': 'spec.storageos.secretName',
};

type Manifest = { kind?: string; spec?: { clusterIP?: string; type?: string } } | null;

/**
 * Why replacing the objects of a manifest with the manifest itself is refused, as upstream
 * 1.10 refuses it, or null: a Pod, because ServiceAccount admission set
 * spec.serviceAccountName at create and pod updates may change only images,
 * activeDeadlineSeconds and tolerations; a Service without a cluster IP in its manifest,
 * because the one allocated at create is immutable and a replace may not drop it.
 */
function replaceRefusal(file: string): string | null {
  const docs = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Manifest);
  const first = docs.find((d) => d?.kind === 'Pod' || (d?.kind === 'Service' && !d.spec?.clusterIP && d.spec?.type !== 'ExternalName'));
  if (!first) return null;
  return first.kind === 'Pod' ? 'pod updates may not change fields other than' : 'spec.clusterIP: Invalid value: "": field is immutable';
}
/** Manifests upstream 1.10 refuses at create (test/integration/corpus.test.ts says why). */
const REFUSED_BY_1_10: Record<string, string> = {
  '_archived/sysdig-cloud/sysdig-rc.yaml': 'spec.selector: Required value',
};

describe.each(KUBECTLS)('kubectl %s', (version, kubectl) => {
  const k = (...args: string[]) => run(kubectl, [`--kubeconfig=${started.servers[0].kubeconfig}`, ...args], { timeoutMs: 90_000 });
  const kInput = (input: string, ...args: string[]) => run(kubectl, [`--kubeconfig=${started.servers[0].kubeconfig}`, ...args], { input });

  it('creates and replaces every corpus manifest with default validation', async () => {
    for (const ns of ['monitoring', 'spark-cluster']) await kInput(`apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`, 'apply', '-f', '-');
    const failures: string[] = [];
    for (const file of files(CORPUS)) {
      for (const step of [['create', '-f', file], ['replace', '-f', file], ['delete', '-f', file, '--wait=true']]) {
        const res = await k(...step);
        if (res.code !== 0) {
          failures.push(`${relative(CORPUS, file)}: ${step[0]}: ${res.stderr.trim()}`);
          // What was created goes, so that it cannot count against a later manifest's quota.
          if (step[0] === 'replace') await k('delete', '-f', file, '--wait=true');
          break;
        }
      }
    }
    const replaceRefused = new Map(
      files(CORPUS)
        .map((f) => [relative(CORPUS, f), replaceRefusal(f)] as const)
        .filter(([f, why]) => why && !UNKNOWN_FIELDS[f] && !REFUSED_BY_1_10[f]) as [string, string][],
    );
    expect(replaceRefused.size).toBeGreaterThan(20);
    expect(failures.map((f) => f.split(': ')[0]).sort()).toEqual([...Object.keys(UNKNOWN_FIELDS), ...Object.keys(REFUSED_BY_1_10), ...replaceRefused.keys()].sort());
    for (const f of failures) {
      const file = f.split(': ')[0]!;
      // The server names the field's path; kubectl 1.27 names only the field when it fell back
      // to validating on its own (it does when its check of the server's support is slow).
      const field = UNKNOWN_FIELDS[file];
      if (REFUSED_BY_1_10[file]) expect(f.includes(': create: ') && f.includes(REFUSED_BY_1_10[file]), f).toBe(true);
      else if (field) expect([`unknown field "${field}"`, `unknown field "${field.split('.').pop()}"`].some((m) => f.includes(m)), f).toBe(true);
      else expect(f.includes(': replace: ') && f.includes(replaceRefused.get(file)!), f).toBe(true);
    }
  });

  it('rejects an unknown field by name, applies with OpenAPI patch metadata, and explains fields', async () => {
    const bad = await kInput('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typo\ndata: {a: b}\ndatta: {a: b}\n', 'create', '-f', '-');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('unknown field "datta"');
    const name = `ap-${version.replace('.', '')}`;
    // A pod's env cannot change after creation (upstream ValidatePodUpdate): a ReplicationController's template can.
    const rc = (labels: string, image: string, env: string) =>
      `apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: ${name}\n  labels: {${labels}}\nspec:\n  selector: {rc: ${name}}\n  template:\n    metadata:\n      labels: {rc: ${name}}\n    spec:\n      containers:\n      - name: c\n        image: ${image}\n        env: [${env}]\n`;
    const outs = [];
    for (const doc of [rc('a: b', 'i:1', '{name: A, value: "1"}, {name: B, value: "2"}'), rc('a: b, c: d', 'i:2', '{name: A, value: "1"}'), rc('a: b, c: d', 'i:2', '{name: A, value: "1"}')]) {
      const res = await kInput(doc, 'apply', '-f', '-');
      expect(res.code, res.stderr).toBe(0);
      outs.push(res.stdout.trim());
    }
    expect(outs).toEqual([`replicationcontroller/${name} created`, `replicationcontroller/${name} configured`, `replicationcontroller/${name} unchanged`]);
    const live = JSON.parse((await k('get', 'rc', name, '-o', 'json')).stdout);
    expect(live.metadata.labels).toEqual({ a: 'b', c: 'd' });
    expect(live.spec.template.spec.containers[0]).toMatchObject({ image: 'i:2', env: [{ name: 'A', value: '1' }] });
    const pod = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  labels: {a: b}\nspec:\n  containers:\n  - name: c\n    image: i:1\n`;
    expect((await kInput(pod, 'apply', '-f', '-')).code).toBe(0);
    const explain = await k('explain', 'pods.spec.containers');
    expect(explain.code, explain.stderr).toBe(0);
    expect(explain.stdout).toMatch(/containers\s+<\[\]Object>/);
    expect(explain.stdout).toMatch(/Containers of the pod\. At least one/);
    expect(explain.stdout).toMatch(/volumeMounts\s+<\[\]Object>\s+Pod volumes to mount into the container's filesystem\./);
    expect(explain.stdout).toMatch(/image\s+<string>\s+Container image name/);
    const table = await k('get', 'pods');
    expect(table.stdout.split('\n')[0].split(/\s+/)).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
  });
});
