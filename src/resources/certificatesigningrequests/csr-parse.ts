/**
 * What upstream reads of a CertificateSigningRequest's `spec.request` (pkg/apis/certificates
 * helpers.go ParseCSR, with Go's crypto/x509 ParseCertificateRequest and CheckSignature): the
 * first PEM block must be a `CERTIFICATE REQUEST` holding a PKCS#10 request whose signature
 * verifies with its own public key. Read with a small DER reader and node:crypto's verify;
 * also gives the subject's common name and organizations and the subjectAltNames, which
 * v1beta1's signerName default looks at (IsKubeletClientCSR, IsKubeletServingCSR), and checks
 * `status.certificate` (validateCertificate: CERTIFICATE blocks only, no headers, each parsed).
 */
import { createPublicKey, verify, X509Certificate } from 'node:crypto';

/** A parsed request: the parts upstream's helpers look at. */
export interface ParsedCsr {
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly dnsNames: readonly string[];
  readonly emailAddresses: readonly string[];
  readonly ipAddresses: readonly string[];
  readonly uris: readonly string[];
}

/** One DER element: its tag, and where its content and the whole element lie in the buffer. */
interface Tlv {
  readonly tag: number;
  readonly start: number;
  readonly contentStart: number;
  readonly end: number;
}

class DerError extends Error {}

function readTlv(buf: Buffer, at: number, limit = buf.length): Tlv {
  if (at + 2 > limit) throw new DerError('x509: malformed certificate request');
  const tag = buf[at];
  let len = buf[at + 1];
  let pos = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || pos + n > limit) throw new DerError('x509: malformed certificate request');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[pos + i];
    pos += n;
  }
  if (pos + len > limit) throw new DerError('x509: malformed certificate request');
  return { tag, start: at, contentStart: pos, end: pos + len };
}

/** The elements inside a constructed element. */
function children(buf: Buffer, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.contentStart; at < parent.end;) {
    const child = readTlv(buf, at, parent.end);
    out.push(child);
    at = child.end;
  }
  return out;
}

function oid(buf: Buffer, t: Tlv): string {
  const bytes = buf.subarray(t.contentStart, t.end);
  if (!bytes.length) return '';
  const parts = [Math.floor(bytes[0] / 40), bytes[0] % 40];
  let value = 0;
  for (let i = 1; i < bytes.length; i++) {
    value = value * 128 + (bytes[i] & 0x7f);
    if (!(bytes[i] & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

const text = (buf: Buffer, t: Tlv) => buf.subarray(t.contentStart, t.end).toString('utf8');

/** Signature algorithms by OID: the digest node:crypto verifies with (null: the key's own, Ed25519). */
const SIGNATURE_DIGESTS: Readonly<Record<string, string | null>> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.3.101.112': null,
};

const OID_CN = '2.5.4.3';
const OID_O = '2.5.4.10';
const OID_EXTENSION_REQUEST = '1.2.840.113549.1.9.14';
const OID_SAN = '2.5.29.17';

/** The subjectAltNames of an extensionRequest attribute's extensions. */
function readSans(buf: Buffer, extensions: Tlv, into: Record<'dns' | 'email' | 'ip' | 'uri', string[]>): void {
  for (const ext of children(buf, extensions)) {
    const parts = children(buf, ext);
    if (oid(buf, parts[0]) !== OID_SAN) continue;
    const octets = parts[parts.length - 1];
    const names = readTlv(buf, octets.contentStart, octets.end);
    for (const name of children(buf, names)) {
      const value = buf.subarray(name.contentStart, name.end);
      if (name.tag === 0x81) into.email.push(value.toString('utf8'));
      else if (name.tag === 0x82) into.dns.push(value.toString('utf8'));
      else if (name.tag === 0x86) into.uri.push(value.toString('utf8'));
      else if (name.tag === 0x87) into.ip.push([...value].join('.'));
    }
  }
}

/** The DER of the first PEM block of `pem` and its type, or null when there is none. */
function firstPemBlock(pem: string): { type: string; der: Buffer; headers: boolean; rest: string } | null {
  const m = /-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----/.exec(pem);
  if (!m) return null;
  const body = m[2];
  return {
    type: m[1],
    der: Buffer.from(body.replace(/^[^:\n]+:.*$/gm, '').replace(/\s+/g, ''), 'base64'),
    headers: /^[^:\n]+:/m.test(body),
    rest: pem.slice(m.index + m[0].length),
  };
}

/**
 * Parse and check a request as upstream's validateCSR does. Throws Error with upstream's
 * message for a request that is not a PEM CERTIFICATE REQUEST, does not parse, or whose
 * signature does not verify.
 */
export function parseCsr(request: Buffer): ParsedCsr {
  const block = firstPemBlock(request.toString('latin1'));
  if (!block || block.type !== 'CERTIFICATE REQUEST') throw new Error('PEM block type must be CERTIFICATE REQUEST');
  const buf = block.der;
  const top = readTlv(buf, 0);
  const [info, algorithm, signature] = children(buf, top);
  if (!info || !algorithm || !signature || signature.tag !== 0x03)
    throw new Error('x509: malformed certificate request');
  const [, subject, spki, attributes] = children(buf, info);
  const out: { cn: string } & Record<'o' | 'dns' | 'email' | 'ip' | 'uri', string[]> = {
    cn: '',
    o: [],
    dns: [],
    email: [],
    ip: [],
    uri: [],
  };
  for (const rdn of children(buf, subject))
    for (const atv of children(buf, rdn)) {
      const [type, value] = children(buf, atv);
      if (oid(buf, type) === OID_CN) out.cn = text(buf, value);
      if (oid(buf, type) === OID_O) out.o.push(text(buf, value));
    }
  if (attributes?.tag === 0xa0)
    for (const attr of children(buf, attributes)) {
      const [type, values] = children(buf, attr);
      if (oid(buf, type) === OID_EXTENSION_REQUEST)
        for (const extensions of children(buf, values)) readSans(buf, extensions, out);
    }
  const algorithmOid = oid(buf, children(buf, algorithm)[0]);
  if (!(algorithmOid in SIGNATURE_DIGESTS)) throw new Error('x509: cannot verify signature: algorithm unimplemented');
  let key;
  try {
    key = createPublicKey({ key: buf.subarray(spki.start, spki.end), format: 'der', type: 'spki' });
  } catch {
    throw new Error('x509: unsupported public key type');
  }
  const sig = buf.subarray(signature.contentStart + 1, signature.end);
  const ok = verify(SIGNATURE_DIGESTS[algorithmOid], buf.subarray(info.start, info.end), key, sig);
  if (!ok)
    throw new Error(
      key.asymmetricKeyType === 'ec' ? 'x509: ECDSA verification failure' : 'crypto/rsa: verification error',
    );
  return {
    commonName: out.cn,
    organizations: out.o,
    dnsNames: out.dns,
    emailAddresses: out.email,
    ipAddresses: out.ip,
    uris: out.uri,
  };
}

/** Upstream parseCsr, with DER problems reported as Go's x509 does; null when the request is good. */
export function csrProblem(request: Buffer): string | null {
  try {
    parseCsr(request);
    return null;
  } catch (err) {
    return err instanceof DerError || err instanceof Error ? err.message : String(err);
  }
}

/** Upstream validateCertificate: empty, or CERTIFICATE PEM blocks without headers that parse. */
export function certificateProblem(pem: Buffer): string | null {
  if (!pem.length) return null;
  let rest = pem.toString('latin1');
  let blocks = 0;
  for (let block = firstPemBlock(rest); block; block = firstPemBlock(rest)) {
    if (block.type !== 'CERTIFICATE')
      return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (block.headers) return 'no PEM block headers are permitted';
    blocks++;
    try {
      new X509Certificate(block.der);
    } catch {
      return 'x509: malformed certificate';
    }
    rest = block.rest;
  }
  return blocks ? null : 'must contain at least one CERTIFICATE PEM block';
}
