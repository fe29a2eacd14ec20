/**
 * metadata.managedFields through the API, as upstream keeps them: every write records its
 * Update manager (fieldManager, else the User-Agent's product), a write that sends
 * `managedFields: [{}]` clears them, at most 10 Update managers are kept (older ones merged
 * into `ancient-changes`), and bad manager names are 422.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const cms = '/api/v1/namespaces/default/configmaps';
const managers = (obj: any) => (obj.metadata.managedFields ?? []).map((m: any) => [m.manager, m.operation]);

describe('managedFields', () => {
  it('create, update and patch record their manager, from fieldManager or the User-Agent', async () => {
    const created = await srv.api(
      'POST',
      cms,
      { metadata: { name: 'mf' }, data: { a: '1' } },
      { 'user-agent': 'kubectl-create/v1.33.0 (linux/amd64)' },
    );
    expect(managers(created.body)).toEqual([['kubectl-create', 'Update']]);
    expect(created.body.metadata.managedFields[0]).toMatchObject({
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } },
      time: expect.stringMatching(/Z$/),
    });
    const patched = await srv.api(
      'PATCH',
      `${cms}/mf?fieldManager=patcher`,
      { data: { b: '2' } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(managers(patched.body)).toEqual([
      ['kubectl-create', 'Update'],
      ['patcher', 'Update'],
    ]);
    expect(patched.body.metadata.managedFields[1].fieldsV1).toEqual({ 'f:data': { 'f:b': {} } });
  });

  it('a write that sends managedFields [{}] clears them', async () => {
    const live = (await srv.api('GET', `${cms}/mf`)).body;
    const reset = await srv.api('PUT', `${cms}/mf?fieldManager=resetter`, {
      ...live,
      metadata: { ...live.metadata, managedFields: [{}] },
    });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.metadata.managedFields).toBeUndefined();
  });

  it('keeps at most 10 Update managers, merging the oldest into ancient-changes', async () => {
    await srv.api('POST', cms, { metadata: { name: 'many' }, data: {} }, { 'user-agent': 'creator/1' });
    let last: any;
    for (let i = 0; i < 12; i++) {
      last = await srv.api(
        'PATCH',
        `${cms}/many?fieldManager=m${i}`,
        { data: { [`k${i}`]: 'v' } },
        { 'content-type': 'application/merge-patch+json' },
      );
      await new Promise((r) => setTimeout(r, i === 0 ? 1100 : 0)); // distinct times for the oldest
    }
    const names = managers(last.body).map((m: string[]) => m[0]);
    expect(names).toHaveLength(10);
    expect(names).toContain('ancient-changes');
    expect(names).toContain('m11');
  });

  it('refuses field manager names upstream refuses', async () => {
    const long = await srv.api('POST', `${cms}?fieldManager=${'x'.repeat(129)}`, { metadata: { name: 'long' } });
    expect(long.status).toBe(422);
    expect(long.body.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes',
    );
    const force = await srv.api(
      'PATCH',
      `${cms}/mf?force=true`,
      { data: {} },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(force.status).toBe(422);
    expect(force.body.message).toContain('force: Forbidden: may not be specified for non-apply patch');
  });
});
