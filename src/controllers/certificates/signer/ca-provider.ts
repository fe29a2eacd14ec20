/**
 * The signer's CA from its files (upstream 1.33 pkg/controller/certificates/signer/
 * ca_provider.go, whose dynamic loader picks up changed files): the files are read at each
 * signing and parsed again only when their content changed, so a rotated CA is used without a
 * restart. Also which files each built-in signer signs with (kube-controller-manager's
 * certificates.go getKubeletServingSignerFiles ...): `--cluster-signing-{cert,key}-file` for
 * all four, unless a per-signer pair is given, in which case only signers with a pair run.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILT_IN_SIGNERS, type BuiltInSigner } from '../csr-conditions.js';
import { CertificateAuthority } from './authority.js';

/** A CA certificate file and its key file (PEM). */
export interface SigningFiles {
  readonly certFile: string;
  readonly keyFile: string;
}

/** The signing flags of kube-controller-manager, as options. */
export interface SigningFileOptions {
  /** `--cluster-signing-cert-file` / `--cluster-signing-key-file`: the CA of every built-in signer. */
  readonly clusterSigningCertFile?: string;
  readonly clusterSigningKeyFile?: string;
  /**
   * `--cluster-signing-kubelet-serving-{cert,key}-file`, `...-kubelet-client-...`,
   * `...-kube-apiserver-client-...`, `...-legacy-unknown-...`: one signer's CA.
   */
  readonly signerFiles?: Partial<Record<BuiltInSigner, { readonly certFile?: string; readonly keyFile?: string }>>;
}

/**
 * Which files each built-in signer uses; signers absent from the answer stay off. Throws Error
 * `cannot specify default and per controller certs at the same time` when both kinds are given.
 */
export function signingFilesBySigner(opts: SigningFileOptions): Map<BuiltInSigner, SigningFiles> {
  const specific = BUILT_IN_SIGNERS.filter((s) => opts.signerFiles?.[s]?.certFile || opts.signerFiles?.[s]?.keyFile);
  const single = Boolean(opts.clusterSigningCertFile && opts.clusterSigningKeyFile);
  if (single && specific.length) throw new Error('cannot specify default and per controller certs at the same time');
  const out = new Map<BuiltInSigner, SigningFiles>();
  if (specific.length)
    for (const s of specific)
      out.set(s, { certFile: opts.signerFiles?.[s]?.certFile ?? '', keyFile: opts.signerFiles?.[s]?.keyFile ?? '' });
  else if (single)
    for (const s of BUILT_IN_SIGNERS)
      out.set(s, { certFile: opts.clusterSigningCertFile!, keyFile: opts.clusterSigningKeyFile! });
  return out;
}

/**
 * The server's own CA as the signing CA, when it is the client CA and its key is at hand: the
 * server generated its certificates in `certDir` (no `--tls-cert-file`) and verifies client
 * certificates with that CA (no `--client-ca-file`). As kubeadm gives the controller manager
 * the cluster CA, a certificate issued for kube-apiserver-client then authenticates here.
 * Undefined otherwise (the signer stays off, as upstream's without signing files).
 */
export function serverCaSigningFiles(server: {
  readonly certDir: string;
  readonly tlsCertFile?: string;
  readonly clientCaFile?: string;
}): SigningFiles | undefined {
  if (server.tlsCertFile || server.clientCaFile) return undefined;
  return { certFile: join(server.certDir, 'ca.crt'), keyFile: join(server.certDir, 'ca.key') };
}

/** A CA read from `files`, reloaded when they change. */
export class FileCaProvider {
  private current?: { certPem: string; keyPem: string; ca: CertificateAuthority };

  constructor(readonly files: SigningFiles) {}

  /** The current CA. Throws Error naming the file that cannot be read or parsed. */
  async currentCa(): Promise<CertificateAuthority> {
    const [certPem, keyPem] = await Promise.all([
      readFile(this.files.certFile, 'utf8').catch((err: Error) => {
        throw new Error(`error reading CA cert file ${JSON.stringify(this.files.certFile)}: ${err.message}`);
      }),
      readFile(this.files.keyFile, 'utf8').catch((err: Error) => {
        throw new Error(`error reading CA key file ${JSON.stringify(this.files.keyFile)}: ${err.message}`);
      }),
    ]);
    if (this.current?.certPem === certPem && this.current.keyPem === keyPem) return this.current.ca;
    let ca: CertificateAuthority;
    try {
      ca = await CertificateAuthority.load(certPem, keyPem);
    } catch (err) {
      throw new Error(
        `error reading CA cert file ${JSON.stringify(this.files.certFile)} or key file ${JSON.stringify(this.files.keyFile)}: ${(err as Error).message}`,
        { cause: err },
      );
    }
    this.current = { certPem, keyPem, ca };
    return ca;
  }
}
