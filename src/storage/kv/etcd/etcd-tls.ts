/**
 * TLS to etcd, as upstream's `--etcd-cafile`, `--etcd-certfile` and `--etcd-keyfile`
 * (k8s.io/apiserver pkg/server/options/etcd.go, used by storagebackend/factory/etcd3.go): the
 * CA bundle verifies etcd's serving certificate (absent: the system's roots), the client
 * certificate and key are presented to etcd when it requires client certificates
 * (`--client-cert-auth`). The files are read and checked once, at start, so that a missing or
 * wrong file is a start-up error naming it rather than a failed TLS handshake later.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { errorMessage } from '../../../api/error-message.js';

/** Paths of the PEM files (upstream's flags); the certificate and key go together. */
export interface EtcdTlsFiles {
  /** `--etcd-cafile`: CA bundle verifying etcd's serving certificate. */
  readonly caFile?: string;
  /** `--etcd-certfile`: client certificate (chain) presented to etcd. */
  readonly certFile?: string;
  /** `--etcd-keyfile`: the client certificate's private key. */
  readonly keyFile?: string;
}

/**
 * The `credentials` of the etcd3 client (its IOptions.credentials, passed to gRPC's
 * `credentials.createSsl(rootCertificate, privateKey, certChain)`): PEM bytes. Without
 * `rootCertificate` the system's roots verify etcd.
 */
export interface EtcdCredentials {
  readonly rootCertificate?: Buffer;
  readonly privateKey?: Buffer;
  readonly certChain?: Buffer;
}

/** A TLS file that cannot be used; the message names the flag and the file. */
export class EtcdTlsError extends Error {}

/** True when any of the files is given. */
export function hasEtcdTls(files: EtcdTlsFiles | undefined): files is EtcdTlsFiles {
  return Boolean(files && (files.caFile || files.certFile || files.keyFile));
}

async function read(flag: string, path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new EtcdTlsError(`cannot read ${flag} ${path}: ${errorMessage(err)}`);
  }
}

/** The PEM certificates in `pem`, parsed; throws EtcdTlsError when there is none or one is bad. */
function certificates(flag: string, path: string, pem: Buffer): X509Certificate[] {
  const blocks = pem.toString('utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new EtcdTlsError(`${flag} ${path} holds no PEM certificate`);
  try {
    return blocks.map((b) => new X509Certificate(b));
  } catch (err) {
    throw new EtcdTlsError(`${flag} ${path} holds an invalid certificate: ${errorMessage(err)}`);
  }
}

/**
 * Read and check the files: every certificate parses, the key parses and matches the client
 * certificate. Resolves undefined when no file is given (plain connection, or TLS with the
 * system's roots for `https://` URLs). Throws EtcdTlsError naming the flag and file when a
 * file is missing, unreadable or wrong, or when only one of certFile / keyFile is given.
 */
export async function readEtcdCredentials(files: EtcdTlsFiles | undefined): Promise<EtcdCredentials | undefined> {
  if (!hasEtcdTls(files)) return undefined;
  if (Boolean(files.certFile) !== Boolean(files.keyFile))
    throw new EtcdTlsError('--etcd-certfile and --etcd-keyfile go together');
  let rootCertificate: Buffer | undefined;
  if (files.caFile) {
    rootCertificate = await read('--etcd-cafile', files.caFile);
    certificates('--etcd-cafile', files.caFile, rootCertificate);
  }
  if (!files.certFile || !files.keyFile) return { rootCertificate };
  const [certChain, privateKey] = await Promise.all([
    read('--etcd-certfile', files.certFile),
    read('--etcd-keyfile', files.keyFile),
  ]);
  const [leaf] = certificates('--etcd-certfile', files.certFile, certChain);
  let key;
  try {
    key = createPrivateKey(privateKey);
  } catch (err) {
    throw new EtcdTlsError(`--etcd-keyfile ${files.keyFile} holds no usable PEM private key: ${errorMessage(err)}`);
  }
  if (!leaf.checkPrivateKey(key))
    throw new EtcdTlsError(
      `--etcd-keyfile ${files.keyFile} is not the key of the certificate in --etcd-certfile ${files.certFile}`,
    );
  return { rootCertificate, certChain, privateKey };
}
