/**
 * Which CA each built-in signer uses (kube-controller-manager certificates.go: the single
 * --cluster-signing files for all, or per-signer files for those given, never both), when the
 * server's own CA stands in, and the CA files read again when they change (ca_provider.go).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCa } from '../csr.fixture.js';
import { FileCaProvider, serverCaSigningFiles, signingFilesBySigner } from './ca-provider.js';

describe('signingFilesBySigner', () => {
  it('gives every signer the single --cluster-signing files', () => {
    const files = signingFilesBySigner({ clusterSigningCertFile: 'ca.crt', clusterSigningKeyFile: 'ca.key' });
    expect([...files.keys()]).toEqual([
      'kubernetes.io/kubelet-serving',
      'kubernetes.io/kube-apiserver-client-kubelet',
      'kubernetes.io/kube-apiserver-client',
      'kubernetes.io/legacy-unknown',
    ]);
    expect(files.get('kubernetes.io/legacy-unknown')).toEqual({ certFile: 'ca.crt', keyFile: 'ca.key' });
  });

  it('runs only the signers given their own files', () => {
    const files = signingFilesBySigner({
      signerFiles: { 'kubernetes.io/kubelet-serving': { certFile: 'serving.crt', keyFile: 'serving.key' } },
    });
    expect([...files]).toEqual([
      ['kubernetes.io/kubelet-serving', { certFile: 'serving.crt', keyFile: 'serving.key' }],
    ]);
  });

  it('runs nothing without files (one of the pair alone is none), and refuses both kinds at once', () => {
    expect(signingFilesBySigner({}).size).toBe(0);
    expect(signingFilesBySigner({ clusterSigningCertFile: 'ca.crt' }).size).toBe(0);
    expect(() =>
      signingFilesBySigner({
        clusterSigningCertFile: 'ca.crt',
        clusterSigningKeyFile: 'ca.key',
        signerFiles: { 'kubernetes.io/legacy-unknown': { certFile: 'l.crt', keyFile: 'l.key' } },
      }),
    ).toThrow('cannot specify default and per controller certs at the same time');
  });
});

describe('serverCaSigningFiles', () => {
  it('is the generated CA in the cert dir while it is the client CA', () => {
    expect(serverCaSigningFiles({ certDir: '/certs' })).toEqual({
      certFile: '/certs/ca.crt',
      keyFile: '/certs/ca.key',
    });
    expect(serverCaSigningFiles({ certDir: '/certs', clientCaFile: '/other/ca.crt' })).toBeUndefined();
    expect(serverCaSigningFiles({ certDir: '/certs', tlsCertFile: '/tls/server.crt' })).toBeUndefined();
  });
});

describe('FileCaProvider', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ck-ca-provider-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('loads the CA, and the new one once the files change', async () => {
    const files = { certFile: join(dir, 'ca.crt'), keyFile: join(dir, 'ca.key') };
    const provider = new FileCaProvider(files);
    await expect(provider.currentCa()).rejects.toThrow(`error reading CA cert file ${JSON.stringify(files.certFile)}`);
    const first = await makeCa();
    await writeFile(files.certFile, first.certPem);
    await writeFile(files.keyFile, first.keyPem);
    const a = await provider.currentCa();
    expect(await provider.currentCa()).toBe(a);
    const second = await makeCa({ notAfter: new Date(Date.now() + 86_400_000) });
    await writeFile(files.certFile, second.certPem);
    await writeFile(files.keyFile, second.keyPem);
    const b = await provider.currentCa();
    expect(b).not.toBe(a);
    expect(b.notAfter.getTime()).toBe(new x509.X509Certificate(second.certPem).notAfter.getTime());
  });
});
