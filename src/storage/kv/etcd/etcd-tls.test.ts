import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKvStore } from '../open.js';
import { EtcdTlsError, readEtcdCredentials } from './etcd-tls.js';

describe('readEtcdCredentials', () => {
  let dir: string;
  const f = (name: string) => join(dir, name);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ck-etcd-tls-unit-'));
    const opts = { keySize: 2048, algorithm: 'sha256' as const, notAfterDate: new Date(Date.now() + 86_400_000) };
    const [a, b] = await Promise.all([
      generate([{ name: 'commonName', value: 'a' }], opts),
      generate([{ name: 'commonName', value: 'b' }], opts),
    ]);
    await Promise.all([
      writeFile(f('ca.crt'), a.cert),
      writeFile(f('a.crt'), a.cert),
      writeFile(f('a.key'), a.private),
      writeFile(f('b.key'), b.private),
      writeFile(f('junk.pem'), 'not a certificate\n'),
    ]);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is undefined without files, and reads a CA alone or with a client certificate and key', async () => {
    expect(await readEtcdCredentials(undefined)).toBeUndefined();
    expect(await readEtcdCredentials({})).toBeUndefined();
    const caOnly = await readEtcdCredentials({ caFile: f('ca.crt') });
    expect(caOnly?.rootCertificate?.toString()).toContain('BEGIN CERTIFICATE');
    expect(caOnly?.certChain).toBeUndefined();
    const mutual = await readEtcdCredentials({ caFile: f('ca.crt'), certFile: f('a.crt'), keyFile: f('a.key') });
    expect(mutual?.certChain?.toString()).toContain('BEGIN CERTIFICATE');
    expect(mutual?.privateKey?.toString()).toContain('PRIVATE KEY');
    // A client certificate without a CA: etcd is verified with the system's roots.
    expect((await readEtcdCredentials({ certFile: f('a.crt'), keyFile: f('a.key') }))?.rootCertificate).toBeUndefined();
  });

  it('names the flag and the file that cannot be used', async () => {
    await expect(readEtcdCredentials({ caFile: f('absent.crt') })).rejects.toThrow(
      `cannot read --etcd-cafile ${f('absent.crt')}`,
    );
    await expect(readEtcdCredentials({ caFile: f('junk.pem') })).rejects.toThrow(
      `--etcd-cafile ${f('junk.pem')} holds no PEM certificate`,
    );
    await expect(readEtcdCredentials({ certFile: f('a.crt'), keyFile: f('absent.key') })).rejects.toThrow(
      `cannot read --etcd-keyfile ${f('absent.key')}`,
    );
    await expect(readEtcdCredentials({ certFile: f('a.crt'), keyFile: f('junk.pem') })).rejects.toThrow(
      /--etcd-keyfile .*junk\.pem holds no usable PEM private key/,
    );
    await expect(readEtcdCredentials({ certFile: f('a.crt'), keyFile: f('b.key') })).rejects.toThrow(
      /is not the key of the certificate in --etcd-certfile/,
    );
    await expect(readEtcdCredentials({ certFile: f('a.crt') })).rejects.toThrow(EtcdTlsError);
  });

  it('is read by openKvStore for etcd3, which refuses TLS with plain http:// URLs', async () => {
    const spec = { backend: 'etcd3' as const, dataDir: '', etcdTls: { caFile: f('ca.crt') } };
    await expect(openKvStore({ ...spec, urls: ['https://a:2379', 'http://b:2379'] })).rejects.toThrow(
      /needs https:\/\/ etcd URLs, not http:\/\/b:2379/,
    );
    await expect(
      openKvStore({ ...spec, urls: ['https://a:2379'], etcdTls: { caFile: f('absent.crt') } }),
    ).rejects.toThrow(/--etcd-cafile/);
    const kv = await openKvStore({ ...spec, urls: ['https://a:2379'] });
    expect(kv.backend).toBe('etcd');
    await kv.close();
  });
});
