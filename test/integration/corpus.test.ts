/**
 * Every manifest of the shared corpus is accepted and reads back with its data intact (the
 * server may add defaults and server fields, never lose or change what was sent), except
 * fields that 1.10 does not have, which are dropped with a warning as upstream does.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { useTestServer } from '../helpers/in-process.js';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/examples');
/** Fields in the corpus that the 1.10 API does not define. */
const NOT_IN_1_10: Record<string, string[]> = {
  '_archived/volumes/storageos/storageos-pv.yaml': ['spec.storageos.secretName'],
  '_archived/volumes/storageos/storageos-pod.yaml': ['spec.volumes[0].storageos.pool'],
};

/**
 * Manifests upstream 1.10 refuses, with its message: an RC with neither selector nor template
 * labels (ValidateNonEmptySelector; the selector defaults only from template labels).
 */
const REFUSED_BY_1_10: Record<string, string> = {
  '_archived/sysdig-cloud/sysdig-rc.yaml': 'spec.selector: Required value',
};

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => {
      const p = join(dir, e);
      return statSync(p).isDirectory() ? files(p) : /\.(ya?ml|json)$/.test(e) ? [p] : [];
    });
}

const PLURALS: Record<string, [string, boolean]> = {
  Pod: ['pods', true], Service: ['services', true], ReplicationController: ['replicationcontrollers', true], Secret: ['secrets', true],
  PersistentVolumeClaim: ['persistentvolumeclaims', true], PersistentVolume: ['persistentvolumes', false], Namespace: ['namespaces', false],
  ServiceAccount: ['serviceaccounts', true], Endpoints: ['endpoints', true], ConfigMap: ['configmaps', true],
};

const srv = useTestServer();

it('accepts every corpus manifest and reads each back with its data intact', async () => {
  let count = 0;
  for (const file of files(CORPUS)) {
    const rel = relative(CORPUS, file);
    for (const doc of parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJSON()).filter(Boolean)) {
      const [plural, namespaced] = PLURALS[doc.kind] ?? [];
      expect(plural, `${rel}: kind ${doc.kind}`).toBeTruthy();
      const ns = doc.metadata.namespace ?? 'default';
      if (namespaced && ns !== 'default') await srv.api('POST', '/api/v1/namespaces', { metadata: { name: ns } });
      const base = namespaced ? `/api/v1/namespaces/${ns}/${plural}` : `/api/v1/${plural}`;
      await srv.api('DELETE', `${base}/${doc.metadata.name}`); // names repeat across examples
      const created = await srv.api('POST', base, doc);
      if (REFUSED_BY_1_10[rel]) {
        expect(created.status, rel).toBe(422);
        expect(created.body.message, rel).toContain(REFUSED_BY_1_10[rel]);
        continue;
      }
      expect(created.status, `${rel}: ${created.text}`).toBe(201);
      const expected = structuredClone(doc);
      for (const path of NOT_IN_1_10[rel] ?? []) {
        expect(created.headers.warning, rel).toContain(`299 - ${JSON.stringify(`unknown field "${path}"`)}`);
        const parts = path.replace(/\[(\d+)\]/g, '.$1').split('.');
        const last = parts.pop()!;
        delete parts.reduce((o: any, k) => o[k], expected)[last];
      }
      const got = (await srv.api('GET', `${base}/${doc.metadata.name}`)).body;
      for (const [key, value] of Object.entries(expected)) {
        if (key === 'status') continue; // the server owns status on create
        expect(got[key], `${rel}: ${key}`).toMatchObject(value as object);
      }
      count++;
    }
  }
  expect(count).toBe(118 - Object.keys(REFUSED_BY_1_10).length);
});
