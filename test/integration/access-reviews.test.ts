/**
 * The review APIs as `kubectl auth can-i` (SelfSubjectAccessReview, SelfSubjectRulesReview),
 * `kubectl auth whoami` (SelfSubjectReview), webhooks (TokenReview) and admins
 * (SubjectAccessReview, LocalSubjectAccessReview) use them, under upstream's groups and ours,
 * with upstream's validation messages.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/in-process.js';

const ADMIN = 'review-admin-token';
const ALICE = 'review-alice-token';
let dir: string;
let srv: TestServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-reviews-'));
  await writeFile(
    join(dir, 'tokens.csv'),
    `${ADMIN},admin,uid-admin,"system:masters"\n${ALICE},alice,uid-alice,"developers"\n`,
  );
  srv = await startTestServer({ tokenAuthFile: join(dir, 'tokens.csv') });
  const binding = {
    metadata: { name: 'alice-view' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
  };
  expect(
    (await srv.api('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', binding, as(ADMIN)))
      .status,
  ).toBe(201);
});
afterAll(async () => {
  await srv?.stop();
  await rm(dir, { recursive: true, force: true });
});

const as = (token: string) => ({ authorization: `Bearer ${token}` });
const AUTHZ = '/apis/authorization.k8s.io/v1';
const ssar = (token: string, resourceAttributes: Record<string, string>, group = 'authorization.k8s.io') =>
  srv.api(
    'POST',
    `/apis/${group}/v1/selfsubjectaccessreviews`,
    { apiVersion: `${group}/v1`, kind: 'SelfSubjectAccessReview', spec: { resourceAttributes } },
    as(token),
  );

describe('access reviews', () => {
  it('answers SelfSubjectAccessReview for the requester (kubectl auth can-i)', async () => {
    const mine = await ssar(ADMIN, { verb: 'delete', resource: 'namespaces' });
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      status: { allowed: true },
    });
    await expect
      .poll(
        async () =>
          (await ssar(ALICE, { verb: 'list', resource: 'configmaps', namespace: 'default' })).body.status.allowed,
      )
      .toBe(true);
    expect((await ssar(ALICE, { verb: 'list', resource: 'secrets', namespace: 'default' })).body.status).toEqual({
      allowed: false,
    });
    expect(
      (await ssar(ALICE, { verb: 'list', resource: 'configmaps', namespace: 'kube-system' }, 'authorization.ck.io'))
        .body.status,
    ).toEqual({ allowed: false });
  });

  it('validates as upstream', async () => {
    const none = await srv.api('POST', `${AUTHZ}/selfsubjectaccessreviews`, { spec: {} }, as(ALICE));
    expect(none.status).toBe(422);
    expect(none.body.message).toBe(
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
    const nobody = await srv.api(
      'POST',
      `${AUTHZ}/subjectaccessreviews`,
      { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } },
      as(ADMIN),
    );
    expect(nobody.status).toBe(422);
    expect(nobody.body.message).toBe(
      'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
    );
    // Wrong types are field errors, as for any object, before the review reads them.
    const typed = await srv.api(
      'POST',
      `${AUTHZ}/subjectaccessreviews`,
      { spec: { user: 'a', groups: 5, resourceAttributes: 'x' } },
      as(ADMIN),
    );
    expect(typed.status).toBe(422);
    expect(typed.body.details.causes.map((c: { field: string }) => c.field).sort()).toEqual([
      'spec.groups',
      'spec.resourceAttributes',
    ]);
    const elsewhere = await srv.api(
      'POST',
      `${AUTHZ}/namespaces/default/localsubjectaccessreviews`,
      { spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'other' } } },
      as(ADMIN),
    );
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.resourceAttributes.namespace',
        message: 'Invalid value: "other": must match metadata.namespace',
      },
    ]);
  });

  it('answers SubjectAccessReview and LocalSubjectAccessReview about another user', async () => {
    const sar = await srv.api(
      'POST',
      `${AUTHZ}/subjectaccessreviews`,
      {
        spec: {
          user: 'alice',
          groups: ['developers'],
          resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' },
        },
      },
      as(ADMIN),
    );
    expect(sar.status).toBe(201);
    expect(sar.body.status).toEqual({ allowed: true });
    const local = await srv.api(
      'POST',
      `${AUTHZ}/namespaces/kube-system/localsubjectaccessreviews`,
      { spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'kube-system' } } },
      as(ADMIN),
    );
    expect(local.body.status).toEqual({ allowed: false });
    // alice herself may not ask about others.
    expect(
      (
        await srv.api(
          'POST',
          `${AUTHZ}/subjectaccessreviews`,
          { spec: { user: 'admin', resourceAttributes: { verb: 'get', resource: 'pods' } } },
          as(ALICE),
        )
      ).status,
    ).toBe(403);
  });

  it('lists the requester rules in a namespace (kubectl auth can-i --list)', async () => {
    const res = await srv.api(
      'POST',
      `${AUTHZ}/selfsubjectrulesreviews`,
      { spec: { namespace: 'default' } },
      as(ALICE),
    );
    expect(res.status).toBe(201);
    expect(res.body.status.incomplete).toBe(false);
    expect(res.body.status.resourceRules).toContainEqual({
      verbs: ['create'],
      apiGroups: ['authorization.k8s.io', 'authorization.ck.io'],
      resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
    });
    expect(
      res.body.status.resourceRules.some(
        (r: { resources: string[]; verbs: string[] }) => r.resources.includes('configmaps') && r.verbs.includes('list'),
      ),
    ).toBe(true);
    expect(res.body.status.nonResourceRules).toContainEqual(
      expect.objectContaining({ verbs: ['get'], nonResourceURLs: expect.arrayContaining(['/api', '/version']) }),
    );
    const noNamespace = await srv.api('POST', `${AUTHZ}/selfsubjectrulesreviews`, { spec: {} }, as(ALICE));
    expect(noNamespace.status).toBe(400);
    expect(noNamespace.body.message).toBe('no namespace on request');
  });

  it('tells the requester who they are (kubectl auth whoami) and reviews tokens', async () => {
    const me = await srv.api(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      as(ALICE),
    );
    expect(me.status).toBe(201);
    expect(me.body.status.userInfo).toEqual({
      username: 'alice',
      uid: 'uid-alice',
      groups: ['developers', 'system:authenticated'],
    });
    const ours = await srv.api(
      'POST',
      '/apis/authentication.ck.io/v1/selfsubjectreviews',
      { kind: 'SelfSubjectReview' },
      as(ADMIN),
    );
    expect(ours.body.status.userInfo.username).toBe('admin');
    const review = await srv.api(
      'POST',
      '/apis/authentication.k8s.io/v1/tokenreviews',
      { spec: { token: ALICE } },
      as(ADMIN),
    );
    expect(review.status).toBe(201);
    // Without spec.audiences the token is reviewed for the API's own audience, and the answer names it (as upstream).
    const API_AUDIENCE = 'https://kubernetes.default.svc.cluster.local';
    expect(review.body.status).toEqual({
      authenticated: true,
      user: { username: 'alice', uid: 'uid-alice', groups: ['developers', 'system:authenticated'] },
      audiences: [API_AUDIENCE],
    });
    // A token of the API is not a token for another audience (upstream: the audiences must intersect).
    const vault = await srv.api(
      'POST',
      '/apis/authentication.k8s.io/v1/tokenreviews',
      { spec: { token: ALICE, audiences: ['vault'] } },
      as(ADMIN),
    );
    expect(vault.body.status).toEqual({ user: {} });
    const both = await srv.api(
      'POST',
      '/apis/authentication.k8s.io/v1/tokenreviews',
      { spec: { token: ALICE, audiences: ['vault', API_AUDIENCE] } },
      as(ADMIN),
    );
    expect(both.body.status).toMatchObject({
      authenticated: true,
      audiences: [API_AUDIENCE],
      user: { username: 'alice' },
    });
    expect(
      (await srv.api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: 'nope' } }, as(ADMIN)))
        .body.status,
    ).toEqual({ user: {} });
    const empty = await srv.api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: {} }, as(ADMIN));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('token is required for TokenReview in authentication.k8s.io/v1');
    // Reviewing tokens is not for everyone.
    expect(
      (await srv.api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: ADMIN } }, as(ALICE)))
        .status,
    ).toBe(403);
  });
});
