/**
 * Regressions the fuzz suite found in the handlers: writes refused (406) before they write when
 * the client cannot read the answer, and Warning headers that never fail a request. Each names
 * its reproducer and what upstream does.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const server = useTestServer();
const CMS = '/api/v1/namespaces/default/configmaps';

describe('writes with an Accept the server cannot answer are refused before they write (src/http/handlers)', () => {
  // Upstream negotiates the output media type first (k8s.io/apiserver handlers create.go,
  // update.go, patch.go, delete.go: NegotiateOutputMediaType before any work) and answers 406
  // without touching storage.
  const NOT_ACCEPTABLE = { accept: 'text/html' };

  it('POST with Accept: text/html is 406 and creates nothing', async () => {
    const res = await server.api('POST', CMS, { metadata: { name: 'accept-post' } }, NOT_ACCEPTABLE);
    expect(res.status).toBe(406);
    expect((await server.api('GET', `${CMS}/accept-post`)).status).toBe(404);
  });

  it('PATCH with Accept: text/html is 406 and changes nothing', async () => {
    await server.api('POST', CMS, { metadata: { name: 'accept-patch' }, data: { a: 'b' } });
    const before = await server.api('GET', `${CMS}/accept-patch`);
    const res = await server.api(
      'PATCH',
      `${CMS}/accept-patch`,
      { data: { a: 'c' } },
      { ...NOT_ACCEPTABLE, 'content-type': 'application/merge-patch+json' },
    );
    expect(res.status).toBe(406);
    expect((await server.api('GET', `${CMS}/accept-patch`)).body).toEqual(before.body);
  });

  it('DELETE with Accept: application/json;as=Table;v=v1beta1;g=meta.k8s.io is 406 and deletes nothing', async () => {
    await server.api('POST', CMS, { metadata: { name: 'accept-delete' } });
    const res = await server.api('DELETE', `${CMS}/accept-delete`, undefined, {
      accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io',
    });
    expect(res.status).toBe(406);
    expect((await server.api('GET', `${CMS}/accept-delete`)).status).toBe(200);
  });
});

describe('a Warning header never fails the request (src/http/handlers/verbs.ts sendWarnings)', () => {
  // An unknown field whose name has a character outside Latin-1 once made the warning text an
  // invalid header value (a 500 after the write). Upstream sends the warning as UTF-8 bytes.
  it('create with an unknown field "💥" is 201 with a warning, not 500', async () => {
    const res = await server.api('POST', CMS, '{"metadata":{"name":"warn-create"},"💥":1}');
    expect(res.status).toBe(201);
  });

  it('merge patch adding an unknown field "💥" is 200, not 500 after writing', async () => {
    await server.api('POST', CMS, { metadata: { name: 'warn-patch' } });
    const res = await server.api('PATCH', `${CMS}/warn-patch`, '{"💥":1}', {
      'content-type': 'application/merge-patch+json',
    });
    expect(res.status).toBe(200);
  });

  it('YAML create with an unknown field "💥" is 201, not 500', async () => {
    const res = await server.api('POST', CMS, 'metadata: {name: warn-yaml}\n"💥": 1\n', {
      'content-type': 'application/yaml',
    });
    expect(res.status).toBe(201);
  });
});
