/**
 * Upstream 1.33 pkg/controller/certificates/approver/sarapprove_test.go: TestHandle (an access
 * review only for recognized requests, the approval written only when it allows) and
 * TestRecognizers (which requests are node client and self node client requests, each with
 * and without `key encipherment`).
 */
import { describe, expect, it } from 'vitest';
import type { AccessRequest } from '../../../registry/access.js';
import { parseCsr } from '../../../resources/certificatesigningrequests/csr-parse.js';
import { IgnorableError } from '../certificate-controller.js';
import { requestBytes, type Csr } from '../csr-conditions.js';
import { makeCsr, type CsrParts } from '../csr.fixture.js';
import {
  approve,
  isNodeClientCert,
  isSelfNodeClientCert,
  reviewOf,
  RECOGNIZERS,
  type CsrRecognizer,
} from './sar-approver.js';

/** The calls the approver made, as upstream's fake clientset actions. */
type Action = { verb: 'create'; review: AccessRequest } | { verb: 'update'; subresource: 'approval'; csr: Csr };

describe('TestHandle', () => {
  const cases = [
    { recognized: false, allowed: false, actions: 0, err: false },
    { recognized: false, allowed: true, actions: 0, err: false },
    { recognized: true, allowed: false, actions: 1, err: true },
    { recognized: true, allowed: true, actions: 2, err: false },
  ];
  it.each(cases)('recognized:$recognized,allowed: $allowed,err: $err', async (c) => {
    const actions: Action[] = [];
    const recognizer: CsrRecognizer = {
      successMessage: 'tester',
      permission: { group: 'foo', resource: 'bar', verb: '', subresource: 'baz' },
      recognize: () => c.recognized,
    };
    const deps = {
      authorize: (review: AccessRequest) => (actions.push({ verb: 'create', review }), c.allowed),
      updateApproval: async (csr: Csr) => void actions.push({ verb: 'update', subresource: 'approval', csr }),
    };
    const run = approve(await makeCsr({ cn: 'test-cert' }), deps, [recognizer]);
    if (c.err) await expect(run).rejects.toBeInstanceOf(IgnorableError);
    else await run;
    expect(actions).toHaveLength(c.actions);
    if (c.actions >= 1)
      expect(actions[0]).toMatchObject({ verb: 'create', review: { resource: 'bar', subresource: 'baz' } });
    if (c.actions === 2) {
      const update = actions[1] as Extract<Action, { verb: 'update' }>;
      expect(update.subresource).toBe('approval');
      expect(update.csr.status?.conditions).toEqual([
        { type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'tester' },
      ]);
    }
  });

  it('says which permissions it tried when none is allowed', async () => {
    const csr = await makeCsr({
      name: 'node-csr',
      signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
      cn: 'system:node:foo',
      orgs: ['system:nodes'],
      username: 'system:node:foo',
      usages: ['key encipherment', 'digital signature', 'client auth'],
    });
    const reviews: AccessRequest[] = [];
    await expect(
      approve(csr, { authorize: (r) => (reviews.push(r), false), updateApproval: async () => undefined }),
    ).rejects.toThrow(
      'recognized csr "node-csr" as [selfnodeclient nodeclient] but subject access review was not approved',
    );
    expect(reviews.map((r) => r.subresource)).toEqual(['selfnodeclient', 'nodeclient']);
    expect(reviews[0]).toMatchObject({
      verb: 'create',
      apiGroup: 'certificates.k8s.io',
      resource: 'certificatesigningrequests',
    });
    expect(reviews[0].user.name).toBe('system:node:foo');
  });
});

describe('TestRecognizers', () => {
  type Overlay = Partial<CsrParts & { requester: string }>;
  const base = (usages: string[]): CsrParts => ({
    signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
    cn: 'system:node:foo',
    orgs: ['system:nodes'],
    username: 'system:node:foo',
    usages,
  });
  const WITH_KEY_ENCIPHERMENT = ['key encipherment', 'digital signature', 'client auth'];
  const WITHOUT = ['digital signature', 'client auth'];
  const recognized = async (overlay: (b: CsrParts) => Overlay, usages: string[], fn: typeof isNodeClientCert) => {
    const b = base(usages);
    const o = overlay(b);
    const csr = await makeCsr({ ...b, ...o, username: o.requester ?? b.username });
    return fn(csr, parseCsr(requestBytes(csr)));
  };
  const good: readonly [string, (b: CsrParts) => Overlay][] = [['as built', () => ({})]];
  const bad: readonly [string, (b: CsrParts) => Overlay][] = [
    ['cn mike', () => ({ cn: 'mike' })],
    ['no orgs', () => ({ orgs: [] })],
    ['org system:master', () => ({ orgs: ['system:master'] })],
    ['server auth added', (b) => ({ usages: [...(b.usages ?? []), 'server auth'] })],
    ['signer example.com/not-correct', () => ({ signerName: 'example.com/not-correct' })],
    ['signer kubelet-serving', () => ({ signerName: 'kubernetes.io/kubelet-serving' })],
  ];
  const differentCN: readonly [string, (b: CsrParts) => Overlay][] = [
    ['requester joe', () => ({ requester: 'joe' })],
    ['cn system:node:bar', () => ({ cn: 'system:node:bar' })],
  ];
  const table = [
    ...good.flatMap(([n, o]) => [[n, o, isNodeClientCert, true] as const, [n, o, isSelfNodeClientCert, true] as const]),
    ...bad.flatMap(([n, o]) => [
      [n, o, isNodeClientCert, false] as const,
      [n, o, isSelfNodeClientCert, false] as const,
    ]),
    ...differentCN.flatMap(([n, o]) => [
      [n, o, isNodeClientCert, true] as const,
      [n, o, isSelfNodeClientCert, false] as const,
    ]),
  ];
  for (const usages of [WITH_KEY_ENCIPHERMENT, WITHOUT])
    it.each(table)(`%s (${usages.join(', ')}): %o`, async (_n, overlay, fn, want) => {
      expect(await recognized(overlay, usages, fn)).toBe(want);
    });

  it('asks for selfnodeclient first, then nodeclient, as the requester', () => {
    expect(RECOGNIZERS.map((r) => r.permission.subresource)).toEqual(['selfnodeclient', 'nodeclient']);
  });

  it('reviews the requester with its uid, groups and extra', async () => {
    const csr = await makeCsr({ username: 'system:node:foo' });
    csr.spec.uid = 'u-1';
    csr.spec.groups = ['system:nodes', 'system:authenticated'];
    csr.spec.extra = { 'example.com/x': ['y'] };
    expect(reviewOf(csr, RECOGNIZERS[1].permission).user).toEqual({
      name: 'system:node:foo',
      uid: 'u-1',
      groups: ['system:nodes', 'system:authenticated'],
      extra: { 'example.com/x': ['y'] },
    });
  });
});
