/**
 * Upstream 1.33 pkg/controller/certificates/cleaner/cleaner_test.go
 * TestCleanerWithApprovedExpiredCSR: which requests the cleaner deletes, by their conditions'
 * age, their creation time and their certificate's expiry.
 */
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResourceRegistry } from '../../../registry/resource-registry.js';
import type { CsrClient } from '../csr-client.js';
import type { Csr } from '../csr-conditions.js';
import { makeCa } from '../csr.fixture.js';
import { CsrCleanerController } from './cleaner.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
let expiredCert: string;
let unexpiredCert: string;

beforeAll(async () => {
  expiredCert = (
    await makeCa({ notBefore: new Date(Date.now() - 10 * 24 * HOUR), notAfter: new Date(Date.now() - 9 * 24 * HOUR) })
  ).certPem;
  unexpiredCert = (await makeCa()).certPem;
});

type Cert = 'unexpired' | 'expired' | 'garbage' | null;
type Cond = readonly [type: string, ageMs: number];
const at = (ageMs: number) => new Date(Date.now() - ageMs).toISOString();

const CASES: readonly [
  name: string,
  createdAgeMs: number,
  cert: Cert,
  conditions: readonly Cond[],
  deleted: boolean,
][] = [
  ['no delete approved not passed deadline', MIN, 'unexpired', [['Approved', 50 * MIN]], false],
  ['no delete approved passed deadline not issued', MIN, null, [['Approved', 50 * MIN]], false],
  ['delete approved passed deadline', MIN, 'unexpired', [['Approved', 2 * HOUR]], true],
  ['no delete denied not passed deadline', MIN, null, [['Denied', 50 * MIN]], false],
  ['delete denied passed deadline', MIN, null, [['Denied', 2 * HOUR]], true],
  [
    'no delete failed not passed deadline',
    MIN,
    null,
    [
      ['Approved', 2 * HOUR],
      ['Failed', 50 * MIN],
    ],
    false,
  ],
  [
    'delete failed passed deadline',
    MIN,
    null,
    [
      ['Approved', 2 * HOUR],
      ['Failed', 2 * HOUR],
    ],
    true,
  ],
  ['no delete pending not passed deadline', 5 * HOUR, null, [], false],
  ['delete pending passed deadline', 25 * HOUR, null, [], true],
  ['no delete approved not passed deadline unexpired', MIN, 'unexpired', [['Approved', 50 * MIN]], false],
  ['delete approved not passed deadline expired', MIN, 'expired', [['Approved', 50 * MIN]], true],
  ['delete approved passed deadline unparseable', MIN, 'garbage', [['Approved', 2 * HOUR]], true],
];

describe('TestCleanerWithApprovedExpiredCSR', () => {
  it.each(CASES)('%s', async (_name, createdAgeMs, cert, conditions, deleted) => {
    const pem = { unexpired: unexpiredCert, expired: expiredCert, garbage: 'garbage' };
    const csr = {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'fake-csr', creationTimestamp: at(createdAgeMs) },
      spec: { request: '', signerName: 'kubernetes.io/legacy-unknown' },
      status: {
        ...(cert ? { certificate: Buffer.from(pem[cert]).toString('base64') } : {}),
        conditions: conditions.map(([type, age]) => ({ type, status: 'True', lastUpdateTime: at(age) })),
      },
    } as Csr;
    const deletes: string[] = [];
    const client = { delete: async (name: string) => void deletes.push(name) } as unknown as CsrClient;
    const cleaner = new CsrCleanerController({} as ResourceRegistry, pino({ level: 'silent' }), { client });
    await cleaner.handle(csr);
    expect(deletes).toEqual(deleted ? ['fake-csr'] : []);
  });
});
