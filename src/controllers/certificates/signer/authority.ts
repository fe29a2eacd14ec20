/**
 * A certificate authority that signs certificate requests (upstream 1.33
 * pkg/controller/certificates/authority/authority.go CertificateAuthority.Sign, with Go's
 * x509.CreateCertificate): the issued certificate carries the request's subject, public key and
 * subjectAltNames (DNS, IP, email, URI), a random 128-bit serial, the policy's validity and
 * usages, `basicConstraints` CA:false (critical), and the CA's key id as authorityKeyIdentifier;
 * every other extension of the request is dropped. Signed with the CA's key: SHA-256 with RSA,
 * ECDSA with SHA-256/384/512 by curve (Go's choice), or Ed25519. Uses @peculiar/x509.
 */
import { createPrivateKey, webcrypto, type KeyObject } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { applyPolicy, type SigningPolicy } from './policy.js';

const crypto = webcrypto;
const OID_SAN = '2.5.29.17';
const OID_SKID = '2.5.29.14';

/** The webcrypto algorithm of a private key, with the hash Go signs with for it. */
function signingAlgorithm(key: KeyObject): {
  import: webcrypto.AlgorithmIdentifier | webcrypto.EcKeyImportParams | webcrypto.RsaHashedImportParams;
  sign: webcrypto.Algorithm;
} {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return {
        import: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
        sign: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as webcrypto.Algorithm,
      };
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      const [namedCurve, hash] =
        curve === 'secp384r1'
          ? ['P-384', 'SHA-384']
          : curve === 'secp521r1'
            ? ['P-521', 'SHA-512']
            : ['P-256', 'SHA-256'];
      return { import: { name: 'ECDSA', namedCurve }, sign: { name: 'ECDSA', hash } as webcrypto.Algorithm };
    }
    case 'ed25519':
      return { import: { name: 'Ed25519' }, sign: { name: 'Ed25519' } };
    default:
      throw new Error(`the CA key must be an RSA, ECDSA or Ed25519 key, not ${key.asymmetricKeyType ?? 'unknown'}`);
  }
}

/** A CA certificate with its private key, imported for webcrypto signing. */
export class CertificateAuthority {
  private constructor(
    /** The CA certificate (PEM). */
    readonly certPem: string,
    private readonly cert: x509.X509Certificate,
    private readonly key: webcrypto.CryptoKey,
    private readonly algorithm: webcrypto.Algorithm,
  ) {}

  /** The CA certificate's NotAfter. */
  get notAfter(): Date {
    return this.cert.notAfter;
  }

  /**
   * The CA of a PEM certificate (the first one is the CA; upstream ParseCertsPEM) and its PEM
   * private key (PKCS#1, SEC 1 or PKCS#8). Throws Error when either does not parse or the key
   * type is not one Go's signer supports.
   */
  static async load(certPem: string, keyPem: string): Promise<CertificateAuthority> {
    const first = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec(certPem);
    if (!first) throw new Error('data does not contain any valid RSA or ECDSA certificates');
    const cert = new x509.X509Certificate(first[0]);
    const keyObject = createPrivateKey(keyPem);
    const alg = signingAlgorithm(keyObject);
    const der = keyObject.export({ format: 'der', type: 'pkcs8' });
    const key = await crypto.subtle.importKey('pkcs8', der, alg.import, false, ['sign']);
    return new CertificateAuthority(certPem, cert, key, alg.sign);
  }

  /**
   * Sign the PEM certificate request `requestPem` under `policy`; answers the certificate as
   * PEM. Throws Error (upstream's messages) when the request does not parse or its signature
   * does not verify, and what the policy throws.
   */
  async sign(requestPem: string, policy: SigningPolicy): Promise<string> {
    let req: x509.Pkcs10CertificateRequest;
    try {
      req = new x509.Pkcs10CertificateRequest(requestPem);
    } catch (err) {
      throw new Error(`unable to parse certificate request: ${(err as Error).message}`, { cause: err });
    }
    if (!(await req.verify(crypto)))
      throw new Error('unable to verify certificate request signature: x509: invalid signature');
    const tmpl = applyPolicy(policy, this.cert.notAfter);
    const extensions: x509.Extension[] = [];
    if (tmpl.keyUsage) extensions.push(new x509.KeyUsagesExtension(tmpl.keyUsage, true));
    if (tmpl.extKeyUsages.length) extensions.push(new x509.ExtendedKeyUsageExtension([...tmpl.extKeyUsages]));
    extensions.push(new x509.BasicConstraintsExtension(false, undefined, true));
    const skid = this.cert.getExtension(OID_SKID);
    if (skid)
      extensions.push(
        new x509.AuthorityKeyIdentifierExtension(new x509.SubjectKeyIdentifierExtension(skid.rawData).keyId),
      );
    const sans = subjectAltNames(req);
    // Go marks the subjectAltName critical when the subject is empty (RFC 5280 4.2.1.6).
    if (sans.length)
      extensions.push(new x509.SubjectAlternativeNameExtension(sans, req.subjectName.toJSON().length === 0));
    const issued = await x509.X509CertificateGenerator.create(
      {
        subject: req.subjectName,
        issuer: this.cert.subjectName,
        notBefore: tmpl.notBefore,
        notAfter: tmpl.notAfter,
        publicKey: req.publicKey,
        signingKey: this.key,
        signingAlgorithm: this.algorithm,
        extensions,
      },
      crypto,
    );
    return issued.toString('pem') + '\n';
  }
}

/** The DNS, IP, email and URI names of a request's subjectAltName extension (what Go parses into the template). */
function subjectAltNames(req: x509.Pkcs10CertificateRequest): x509.JsonGeneralName[] {
  const ext = req.extensions.find((e) => e.type === OID_SAN);
  if (!ext) return [];
  const names = new x509.SubjectAlternativeNameExtension(ext.rawData).names.toJSON();
  return names.filter((n) => n.type === 'dns' || n.type === 'ip' || n.type === 'email' || n.type === 'url');
}
