/**
 * Service account tokens as upstream issues them (TokenRequest on serviceaccounts/token) and
 * accepts them: the token authenticates as system:serviceaccount:<ns>:<name> (RBAC applies),
 * ends when its service account is recreated or its bound pod or secret is deleted, and verifies
 * with a standard JWT library against the OIDC discovery documents.
 */
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/in-process.js';

let srv: TestServer;
const NS = '/api/v1/namespaces/sa-tokens';
beforeAll(async () => {
  srv = await startTestServer();
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'sa-tokens' } })).status).toBe(201);
  expect((await srv.api('POST', `${NS}/serviceaccounts`, { metadata: { name: 'builder' } })).status).toBe(201);
});
afterAll(() => srv?.stop());

const tokenFor = async (sa: string, spec: Record<string, unknown> = {}) =>
  srv.api('POST', `${NS}/serviceaccounts/${sa}/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec,
  });
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const whoami = async (token: string) =>
  srv.api('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {}, as(token));

describe('service account tokens', () => {
  it('issues a token that authenticates as the service account, within RBAC', async () => {
    const res = await tokenFor('builder');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      spec: { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600 },
    });
    const { token, expirationTimestamp } = res.body.status;
    expect(Date.parse(expirationTimestamp) - Date.now()).toBeGreaterThan(3590_000);
    const me = await whoami(token);
    expect(me.status).toBe(201);
    expect(me.body.status.userInfo).toMatchObject({
      username: 'system:serviceaccount:sa-tokens:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:sa-tokens', 'system:authenticated'],
    });
    const denied = await srv.api('GET', `${NS}/pods`, undefined, as(token));
    expect(denied.body.message).toBe(
      'pods is forbidden: User "system:serviceaccount:sa-tokens:builder" cannot list resource "pods" in API group "" in the namespace "sa-tokens"',
    );
    const binding = {
      metadata: { name: 'builder-view' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'builder', namespace: 'sa-tokens' }],
    };
    expect(
      (await srv.api('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/sa-tokens/rolebindings', binding)).status,
    ).toBe(201);
    await expect.poll(async () => (await srv.api('GET', `${NS}/pods`, undefined, as(token))).status).toBe(200);
    // TokenReview agrees.
    const review = await srv.api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token } });
    expect(review.body.status).toMatchObject({
      authenticated: true,
      user: { username: 'system:serviceaccount:sa-tokens:builder' },
    });
  });

  it('validates requests as upstream', async () => {
    const short = await tokenFor('builder', { expirationSeconds: 599 });
    expect(short.status).toBe(422);
    expect(short.body.message).toBe(
      'TokenRequest.authentication.k8s.io "builder" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    );
    expect((await tokenFor('nobody')).status).toBe(404);
    const typed = await tokenFor('builder', { expirationSeconds: 'an hour', audiences: 'x' });
    expect(typed.status).toBe(422);
    expect(typed.body.details.causes.map((c: { field: string }) => c.field).sort()).toEqual([
      'spec.audiences',
      'spec.expirationSeconds',
    ]);
    expect(
      (
        await srv.api('POST', `${NS}/pods`, {
          metadata: { name: 'other-sa' },
          spec: { serviceAccountName: 'default', containers: [{ name: 'c', image: 'nginx' }] },
        })
      ).status,
    ).toBe(201);
    const wrongPod = await tokenFor('builder', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'other-sa' } });
    expect(wrongPod.status).toBe(400);
    expect(wrongPod.body.message).toBe(
      'cannot bind token for serviceaccount "builder" to pod running with different serviceaccount name.',
    );
    const node = await tokenFor('builder', { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'n1' } });
    expect(node.status).toBe(400);
  });

  it('a bound token ends with its pod or secret; any token ends when its service account is recreated', async () => {
    expect(
      (
        await srv.api('POST', `${NS}/pods`, {
          metadata: { name: 'worker' },
          spec: { serviceAccountName: 'builder', containers: [{ name: 'c', image: 'nginx' }] },
        })
      ).status,
    ).toBe(201);
    const podToken = (await tokenFor('builder', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'worker' } }))
      .body.status.token;
    expect((await whoami(podToken)).status).toBe(201);
    const stale = await tokenFor('builder', {
      boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'worker', uid: 'not-its-uid' },
    });
    expect(stale.status).toBe(409);
    expect((await srv.api('DELETE', `${NS}/pods/worker?gracePeriodSeconds=0`)).status).toBe(200);
    await expect.poll(async () => (await whoami(podToken)).status).toBe(401);

    expect((await srv.api('POST', `${NS}/secrets`, { metadata: { name: 'holder' } })).status).toBe(201);
    const secretToken = (
      await tokenFor('builder', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'holder' } })
    ).body.status.token;
    expect((await whoami(secretToken)).status).toBe(201);
    expect((await srv.api('DELETE', `${NS}/secrets/holder`)).status).toBe(200);
    await expect.poll(async () => (await whoami(secretToken)).status).toBe(401);

    const plain = (await tokenFor('builder')).body.status.token;
    expect((await srv.api('DELETE', `${NS}/serviceaccounts/builder`)).status).toBe(200);
    expect((await srv.api('POST', `${NS}/serviceaccounts`, { metadata: { name: 'builder' } })).status).toBe(201);
    await expect.poll(async () => (await whoami(plain)).status).toBe(401);
  });

  it('publishes the OIDC discovery documents that verify its tokens with a standard library', async () => {
    expect((await srv.api('POST', `${NS}/serviceaccounts`, { metadata: { name: 'reader' } })).status).toBe(201);
    const token = (await tokenFor('reader')).body.status.token;
    const config = await srv.api('GET', '/.well-known/openid-configuration', undefined, as(token));
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      issuer: 'https://kubernetes.default.svc.cluster.local',
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
    expect(config.body.jwks_uri).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/openid\/v1\/jwks$/);
    const jwksRes = await request(`${srv.url}/openid/v1/jwks`, { dispatcher: srv.agent, headers: as(token) });
    expect(jwksRes.statusCode).toBe(200);
    expect(jwksRes.headers['content-type']).toBe('application/jwk-set+json');
    const jwks = (await jwksRes.body.json()) as { keys: { kid: string; kty: string; use: string }[] };
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256' });
    expect(decodeProtectedHeader(token).kid).toBe(jwks.keys[0].kid);
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks as never), {
      issuer: config.body.issuer,
      audience: 'https://kubernetes.default.svc.cluster.local',
    });
    expect(payload).toMatchObject({
      sub: 'system:serviceaccount:sa-tokens:reader',
      'kubernetes.io': { namespace: 'sa-tokens', serviceaccount: { name: 'reader' } },
    });
    // Only authenticated requests, and only the allowed ones, read them.
    expect((await srv.api('GET', '/openid/v1/jwks', undefined, { authorization: '' })).status).toBe(401);
  });

  it('refuses a token for another audience', async () => {
    const token = (await tokenFor('reader', { audiences: ['vault'] })).body.status.token;
    expect((await whoami(token)).status).toBe(401);
    // TokenReview for vault accepts it and names the audience; for the API it refuses, saying why (upstream jwt.go).
    const forVault = await srv.api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      spec: { token, audiences: ['vault'] },
    });
    expect(forVault.body.status).toMatchObject({
      authenticated: true,
      audiences: ['vault'],
      user: { username: 'system:serviceaccount:sa-tokens:reader' },
    });
    const forApi = await srv.api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token } });
    expect(forApi.body.status).toEqual({
      user: {},
      error:
        'token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]',
    });
    // And a token for the API is not one for vault.
    const apiToken = (await tokenFor('reader', {})).body.status.token;
    const apiForVault = await srv.api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      spec: { token: apiToken, audiences: ['vault'] },
    });
    expect(apiForVault.body.status.authenticated).toBeUndefined();
  });
});
