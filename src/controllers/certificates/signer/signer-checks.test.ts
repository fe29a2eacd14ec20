/**
 * The kubelet signers' rules (upstream pkg/apis/certificates/helpers.go ValidateKubeletServingCSR
 * and ValidateKubeletClientCSR), with the tables of upstream 1.33
 * pkg/apis/certificates/v1beta1/defaults_test.go (TestSetDefaults_CertificateSigningRequestSpec
 * _KubeletServing and _KubeletClient: a request the rules accept would default to that signer),
 * here asserting the rule each request breaks; and validAPIServerClientUsages of signer.go.
 */
import { describe, expect, it } from 'vitest';
import { parseCsr } from '../../../resources/certificatesigningrequests/csr-parse.js';
import { makeRequestPem, type RequestParts } from '../csr.fixture.js';
import {
  checkForSigner,
  validateApiServerClient,
  validateKubeletClient,
  validateKubeletServing,
} from './signer-checks.js';

const parsed = async (parts: RequestParts) => parseCsr(Buffer.from((await makeRequestPem(parts)).pem));

const SERVER_USAGES = ['digital signature', 'key encipherment', 'server auth'];
const SERVER_REQUEST: RequestParts = {
  cn: 'system:node:requester-name',
  orgs: ['system:nodes'],
  dns: ['node-server-name'],
  ips: ['0.0.0.0'],
};
const CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];
const CLIENT_REQUEST: RequestParts = { cn: 'system:node:nodename', orgs: ['system:nodes'] };

type Row = readonly [name: string, overlay: RequestParts, usages: readonly string[], problem: string | null];

describe('ValidateKubeletServingCSR (defaults_test.go _KubeletServing)', () => {
  const rows: readonly Row[] = [
    ['defaults for kubelet-serving', {}, SERVER_USAGES, null],
    [
      "org is not 'system:nodes'",
      { orgs: ['not-system:nodes'] },
      SERVER_USAGES,
      'subject organization is not system:nodes',
    ],
    [
      'CN does not have system:node: prefix',
      { cn: 'notprefixed' },
      SERVER_USAGES,
      'subject common name does not begin with system:node:',
    ],
    [
      'it has an unexpected usage',
      {},
      [...SERVER_USAGES, 'client auth'],
      'usages did not match [digital signature key encipherment server auth]',
    ],
    [
      'it is missing an expected usage',
      {},
      SERVER_USAGES.slice(1),
      'usages did not match [digital signature key encipherment server auth]',
    ],
    [
      'it does not specify any dnsNames or ipAddresses',
      { dns: [], ips: [] },
      SERVER_USAGES,
      'DNS or IP subjectAltName is required',
    ],
    ['it specifies a URI SAN', { uris: ['http://something'] }, SERVER_USAGES, 'URI subjectAltNames are not allowed'],
    [
      'it specifies an emailAddress SAN',
      { emails: ['something'] },
      SERVER_USAGES,
      'Email subjectAltNames are not allowed',
    ],
    ['an ECDSA key without key encipherment (the no-RSA usages)', {}, ['digital signature', 'server auth'], null],
  ];
  it.each(rows)('%s', async (_name, overlay, usages, problem) => {
    expect(validateKubeletServing(await parsed({ ...SERVER_REQUEST, ...overlay }), new Set(usages))).toBe(problem);
  });
});

describe('ValidateKubeletClientCSR (defaults_test.go _KubeletClient)', () => {
  const rows: readonly Row[] = [
    ['defaults for kube-apiserver-client-kubelet', {}, CLIENT_USAGES, null],
    [
      "org is not 'system:nodes'",
      { orgs: ['not-system:nodes'] },
      CLIENT_USAGES,
      'subject organization is not system:nodes',
    ],
    ['a dnsName is set', { dns: ['something'] }, CLIENT_USAGES, 'DNS subjectAltNames are not allowed'],
    ['an emailAddress is set', { emails: ['something'] }, CLIENT_USAGES, 'Email subjectAltNames are not allowed'],
    ['a uri SAN is set', { uris: ['http://something'] }, CLIENT_USAGES, 'URI subjectAltNames are not allowed'],
    ['an ipAddress is set', { ips: ['0.0.0.0'] }, CLIENT_USAGES, 'IP subjectAltNames are not allowed'],
    [
      "CN does not have 'system:node:' prefix",
      { cn: 'not-prefixed' },
      CLIENT_USAGES,
      'subject common name does not begin with system:node:',
    ],
    [
      'it has an unexpected usage',
      {},
      [...CLIENT_USAGES, 'server auth'],
      'usages did not match [client auth digital signature key encipherment]',
    ],
    [
      'it is missing an expected usage',
      {},
      CLIENT_USAGES.slice(1),
      'usages did not match [client auth digital signature key encipherment]',
    ],
    ['an ECDSA key without key encipherment (the no-RSA usages)', {}, ['digital signature', 'client auth'], null],
  ];
  it.each(rows)('%s', async (_name, overlay, usages, problem) => {
    expect(validateKubeletClient(await parsed({ ...CLIENT_REQUEST, ...overlay }), new Set(usages))).toBe(problem);
  });
});

describe('validAPIServerClientUsages', () => {
  const rows: readonly [usages: readonly string[], problem: string | null][] = [
    [['client auth'], null],
    [['client auth', 'digital signature', 'key encipherment'], null],
    [['digital signature', 'key encipherment'], 'missing required usage for client certificate: client auth'],
    [['client auth', 'server auth'], 'invalid usage for client certificate: server auth'],
  ];
  it.each(rows)('%j', async (usages, problem) => {
    expect(validateApiServerClient(await parsed({ cn: 'anyone' }), new Set(usages))).toBe(problem);
  });

  it('legacy-unknown accepts any request and usages', async () => {
    expect(
      checkForSigner('kubernetes.io/legacy-unknown')(await parsed({}), new Set(['server auth', 'cert sign'])),
    ).toBeNull();
  });
});
