/**
 * kubectl with default validation (no --validate=false), 1.32 against the server's OpenAPI v3
 * and 1.27 against OpenAPI v2 (protobuf): every corpus manifest is created and replaced, a
 * manifest with an unknown field is rejected with the field's name, apply uses the published
 * patch metadata, and explain prints field docs. The corpus is the project's fixtures
 * (test/fixtures/corpus), and kubernetes/examples as well where CK_EXTERNAL_CORPUS names a
 * copy (e.g. ../shared/corpus/examples).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestSets, namespacesOf, objectsOf } from '../fixtures/corpus/sets.js';
import { run } from '../helpers/run.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const started = serversOnEtcd(1);
const KUBECTLS = [
  ['1.32', '/usr/lib/google-cloud-sdk/bin/kubectl.1.32'],
  ['1.27', '/usr/lib/google-cloud-sdk/bin/kubectl.1.27'],
] as const;
const SETS = manifestSets();

type Manifest = { kind?: string };

/**
 * Why replacing the objects of a manifest with the manifest itself is refused, as upstream
 * refuses it, or null: a Pod, because ServiceAccount admission set spec.serviceAccountName at
 * create and pod updates may change only images, activeDeadlineSeconds and tolerations. (A
 * Service without a cluster IP in its manifest is replaced keeping the allocated one, as
 * upstream since 1.20.)
 */
function replaceRefusal(file: string): string | null {
  const objects: Manifest[] = objectsOf(file);
  return objects.some((d) => d.kind === 'Pod') ? 'pod updates may not change fields other than' : null;
}

describe.each(KUBECTLS)('kubectl %s', (version, kubectl) => {
  const k = (...args: string[]) =>
    run(kubectl, [`--kubeconfig=${started.servers[0].kubeconfig}`, ...args], { timeoutMs: 90_000 });
  const kInput = (input: string, ...args: string[]) =>
    run(kubectl, [`--kubeconfig=${started.servers[0].kubeconfig}`, ...args], { input });

  it.each(SETS.map((set) => [set.name, set.files.length, set] as const))(
    '%s: creates and replaces all %i manifests with default validation',
    async (_name, _count, set) => {
      for (const ns of namespacesOf(set))
        await kInput(`apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`, 'apply', '-f', '-');
      const failures: string[] = [];
      for (const rel of set.files) {
        const file = join(set.root, rel);
        for (const step of [
          ['create', '-f', file],
          ['replace', '-f', file],
          ['delete', '-f', file, '--wait=true'],
        ]) {
          const res = await k(...step);
          if (res.code !== 0) {
            failures.push(`${rel}: ${step[0]}: ${res.stderr.trim()}`);
            // What was created goes, so that it cannot count against a later manifest's quota.
            if (step[0] === 'replace') await k('delete', '-f', file, '--wait=true');
            break;
          }
        }
      }
      const replaceRefused = new Map(
        set.files
          .map((f) => [f, replaceRefusal(join(set.root, f))] as const)
          .filter(([f, why]) => why && !set.unknownFields[f] && !set.refused[f]) as [string, string][],
      );
      expect(replaceRefused.size).toBeGreaterThan(5);
      expect(failures.map((f) => f.split(': ')[0]).sort()).toEqual(
        [...Object.keys(set.unknownFields), ...Object.keys(set.refused), ...replaceRefused.keys()].sort(),
      );
      for (const f of failures) {
        const file = f.split(': ')[0]!;
        // The server names the field's path; kubectl 1.27 names only the field when it fell back
        // to validating on its own (it does when its check of the server's support is slow).
        const field = set.unknownFields[file]?.[0];
        if (set.refused[file]) expect(f.includes(': create: ') && f.includes(set.refused[file]), f).toBe(true);
        else if (field)
          expect(
            [`unknown field "${field}"`, `unknown field "${field.split('.').pop()}"`].some((m) => f.includes(m)),
            f,
          ).toBe(true);
        else expect(f.includes(': replace: ') && f.includes(replaceRefused.get(file)!), f).toBe(true);
      }
    },
  );

  it('rejects an unknown field by name, applies with OpenAPI patch metadata, and explains fields', async () => {
    const bad = await kInput(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typo\ndata: {a: b}\ndatta: {a: b}\n',
      'create',
      '-f',
      '-',
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('unknown field "datta"');
    const name = `ap-${version.replace('.', '')}`;
    // A pod's env cannot change after creation (upstream ValidatePodUpdate): a ReplicationController's template can.
    const rc = (labels: string, image: string, env: string) =>
      `apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: ${name}\n  labels: {${labels}}\nspec:\n  selector: {rc: ${name}}\n  template:\n    metadata:\n      labels: {rc: ${name}}\n    spec:\n      containers:\n      - name: c\n        image: ${image}\n        env: [${env}]\n`;
    const outs = [];
    for (const doc of [
      rc('a: b', 'i:1', '{name: A, value: "1"}, {name: B, value: "2"}'),
      rc('a: b, c: d', 'i:2', '{name: A, value: "1"}'),
      rc('a: b, c: d', 'i:2', '{name: A, value: "1"}'),
    ]) {
      const res = await kInput(doc, 'apply', '-f', '-');
      expect(res.code, res.stderr).toBe(0);
      outs.push(res.stdout.trim());
    }
    expect(outs).toEqual([
      `replicationcontroller/${name} created`,
      `replicationcontroller/${name} configured`,
      `replicationcontroller/${name} unchanged`,
    ]);
    const live = JSON.parse((await k('get', 'rc', name, '-o', 'json')).stdout);
    expect(live.metadata.labels).toEqual({ a: 'b', c: 'd' });
    expect(live.spec.template.spec.containers[0]).toMatchObject({ image: 'i:2', env: [{ name: 'A', value: '1' }] });
    const pod = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  labels: {a: b}\nspec:\n  containers:\n  - name: c\n    image: i:1\n`;
    expect((await kInput(pod, 'apply', '-f', '-')).code).toBe(0);
    const explain = await k('explain', 'pods.spec.containers');
    expect(explain.code, explain.stderr).toBe(0);
    expect(explain.stdout).toMatch(/containers\s+<\[\]Object>/);
    expect(explain.stdout).toMatch(/Containers of the pod\. At least one/);
    expect(explain.stdout).toMatch(
      /volumeMounts\s+<\[\]Object>\s+Pod volumes to mount into the container's filesystem\./,
    );
    expect(explain.stdout).toMatch(/image\s+<string>\s+Container image name/);
    const table = await k('get', 'pods');
    expect(table.stdout.split('\n')[0].split(/\s+/)).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
  });
});
