/**
 * Every namespace carries `kubernetes.io/metadata.name: <its name>` (upstream since 1.22:
 * SetDefaults_Namespace and the strategy's Canonicalize), whatever the client sends: on create
 * (generateName included), and back after an update or patch that removes or changes it.
 * NetworkPolicies and admission rules select namespaces by it.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const LABEL = 'kubernetes.io/metadata.name';

describe('the namespace name label', () => {
  it('is set on create, over a value the client sent, and for a generated name', async () => {
    const res = await srv.api('POST', '/api/v1/namespaces', {
      metadata: { name: 'labelled', labels: { [LABEL]: 'other', team: 'a' } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.metadata.labels).toEqual({ [LABEL]: 'labelled', team: 'a' });
    const generated = await srv.api('POST', '/api/v1/namespaces', { metadata: { generateName: 'gen-' } });
    expect(generated.status, generated.text).toBe(201);
    expect(generated.body.metadata.labels[LABEL]).toBe(generated.body.metadata.name);
  });

  it('comes back after an update or a patch removes or changes it', async () => {
    await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'relabelled' } });
    const removed = await srv.api(
      'PATCH',
      '/api/v1/namespaces/relabelled',
      { metadata: { labels: { [LABEL]: null, team: 'b' } } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.metadata.labels).toEqual({ [LABEL]: 'relabelled', team: 'b' });
    const current = (await srv.api('GET', '/api/v1/namespaces/relabelled')).body;
    const changed = await srv.api('PUT', '/api/v1/namespaces/relabelled', {
      ...current,
      metadata: { ...current.metadata, labels: { [LABEL]: 'x' } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.metadata.labels).toEqual({ [LABEL]: 'relabelled' });
  });

  it('selects the namespace in a label selector', async () => {
    await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'selected' } });
    const res = await srv.api('GET', `/api/v1/namespaces?labelSelector=${encodeURIComponent(`${LABEL}=selected`)}`);
    expect(res.body.items.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual(['selected']);
  });
});
