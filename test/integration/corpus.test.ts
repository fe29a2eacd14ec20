/**
 * Every manifest of the corpus is accepted and reads back with its data intact (the server may
 * add defaults and server fields, never lose or change what was sent), except fields that the served
 * schema does not have, which are dropped with a warning as upstream does, and the manifests 1.10
 * refuses, which get its 422. The corpus is the project's fixtures (test/fixtures/corpus), and
 * kubernetes/examples as well where CK_EXTERNAL_CORPUS names a copy (e.g. ../shared/corpus/examples).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestSets, objectsOf } from '../fixtures/corpus/sets.js';
import { useTestServer } from '../helpers/in-process.js';

const PLURALS: Record<string, [string, boolean]> = {
  Pod: ['pods', true],
  Service: ['services', true],
  ReplicationController: ['replicationcontrollers', true],
  Secret: ['secrets', true],
  PersistentVolumeClaim: ['persistentvolumeclaims', true],
  PersistentVolume: ['persistentvolumes', false],
  Namespace: ['namespaces', false],
  ServiceAccount: ['serviceaccounts', true],
  Endpoints: ['endpoints', true],
  ConfigMap: ['configmaps', true],
  LimitRange: ['limitranges', true],
  ResourceQuota: ['resourcequotas', true],
};

const srv = useTestServer();

describe.each(manifestSets())('corpus: $name', (set) => {
  it(`accepts every manifest of ${set.files.length} files and reads each object back with its data intact`, async () => {
    let created = 0;
    let refused = 0;
    const kinds = new Set<string>();
    for (const rel of set.files) {
      for (const doc of objectsOf(join(set.root, rel))) {
        const [plural, namespaced] = PLURALS[doc.kind] ?? [];
        expect(plural, `${rel}: kind ${doc.kind}`).toBeTruthy();
        const ns = doc.metadata.namespace ?? 'default';
        if (namespaced && ns !== 'default') await srv.api('POST', '/api/v1/namespaces', { metadata: { name: ns } });
        const base = namespaced ? `/api/v1/namespaces/${ns}/${plural}` : `/api/v1/${plural}`;
        await srv.api('DELETE', `${base}/${doc.metadata.name}`); // names repeat across examples
        const res = await srv.api('POST', base, doc);
        if (set.refused[rel]) {
          expect(res.status, rel).toBe(422);
          expect(res.body.message, rel).toContain(set.refused[rel]);
          refused++;
          continue;
        }
        expect(res.status, `${rel}: ${res.text}`).toBe(201);
        const expected = structuredClone(doc);
        for (const path of set.unknownFields[rel] ?? []) {
          expect(res.headers.warning, rel).toContain(`299 - ${JSON.stringify(`unknown field "${path}"`)}`);
          const parts = path.replace(/\[(\d+)\]/g, '.$1').split('.');
          const last = parts.pop()!;
          delete parts.reduce((o: any, k) => o[k], expected)[last];
        }
        const got = (await srv.api('GET', `${base}/${doc.metadata.name}`)).body;
        for (const [key, value] of Object.entries(expected)) {
          if (key === 'status') continue; // the server owns status on create
          expect(got[key], `${rel}: ${key}`).toMatchObject(value as object);
        }
        kinds.add(doc.kind);
        created++;
      }
    }
    expect(refused).toBe(Object.keys(set.refused).length);
    expect(created + refused).toBe(set.objects);
    if (set.name === 'fixtures') expect([...kinds].sort()).toEqual(Object.keys(PLURALS).sort());
  }, 120_000);
});
