/**
 * The local signer's signing policy (upstream 1.33 pkg/controller/certificates/authority/
 * policies.go PermissiveSigningPolicy): the requested usages become the key usage bits and
 * extended key usages; NotBefore is now minus the backdate; NotAfter is now plus the TTL, less
 * the backdate unless the TTL is short, and never past the signer's own NotAfter; a signer that
 * has expired signs nothing.
 */

/** KeyUsage bits as x509 numbers them (digitalSignature = bit 0 ...). */
const KEY_USAGE_BITS: Readonly<Record<string, number>> = {
  signing: 1,
  'digital signature': 1,
  'content commitment': 2,
  'key encipherment': 4,
  'key agreement': 16,
  'data encipherment': 8,
  'cert sign': 32,
  'crl sign': 64,
  'encipher only': 128,
  'decipher only': 256,
};

/**
 * Extended key usages by usage, as OIDs, in the order of Go's ExtKeyUsage constants (the
 * order upstream sorts them in).
 */
const EXT_KEY_USAGES: readonly (readonly [usage: string, oid: string, rank: number])[] = [
  ['any', '2.5.29.37.0', 0],
  ['server auth', '1.3.6.1.5.5.7.3.1', 1],
  ['client auth', '1.3.6.1.5.5.7.3.2', 2],
  ['code signing', '1.3.6.1.5.5.7.3.3', 3],
  ['email protection', '1.3.6.1.5.5.7.3.4', 4],
  ['s/mime', '1.3.6.1.5.5.7.3.4', 4],
  ['ipsec end system', '1.3.6.1.5.5.7.3.5', 5],
  ['ipsec tunnel', '1.3.6.1.5.5.7.3.6', 6],
  ['ipsec user', '1.3.6.1.5.5.7.3.7', 7],
  ['timestamping', '1.3.6.1.5.5.7.3.8', 8],
  ['ocsp signing', '1.3.6.1.5.5.7.3.9', 9],
  ['microsoft sgc', '1.3.6.1.4.1.311.10.3.3', 10],
  ['netscape sgc', '2.16.840.1.113730.4.1', 11],
];

/** Key usage bits and extended key usage OIDs of `usages`. */
export interface KeyUsages {
  /** x509 KeyUsage bits (0: no keyUsage extension). */
  readonly keyUsage: number;
  /** Extended key usage OIDs, deduplicated and in Go's order. */
  readonly extKeyUsages: readonly string[];
}

/**
 * keyUsagesFromStrings. Throws Error `unrecognized usage values: ["a" "b"]` for usages that are
 * neither (as Go's `%q` of the list).
 */
export function keyUsagesFromStrings(usages: readonly string[]): KeyUsages {
  let keyUsage = 0;
  const ext = new Map<string, number>();
  const unrecognized: string[] = [];
  for (const usage of usages) {
    const bit = KEY_USAGE_BITS[usage];
    const extended = EXT_KEY_USAGES.find(([u]) => u === usage);
    if (bit !== undefined) keyUsage |= bit;
    else if (extended) ext.set(extended[1], extended[2]);
    else unrecognized.push(usage);
  }
  if (unrecognized.length)
    throw new Error(`unrecognized usage values: [${unrecognized.map((u) => JSON.stringify(u)).join(' ')}]`);
  const extKeyUsages = [...ext].sort((a, b) => a[1] - b[1]).map(([oid]) => oid);
  return { keyUsage, extKeyUsages };
}

/** PermissiveSigningPolicy's settings. Durations in milliseconds. */
export interface SigningPolicy {
  readonly ttlMs: number;
  readonly usages: readonly string[];
  readonly backdateMs: number;
  /** A TTL below this is short: its NotAfter is not backdated. */
  readonly shortMs: number;
  /** The clock (default Date.now). */
  readonly now?: () => number;
}

/** What the policy puts in the certificate. */
export interface CertificateTemplate extends KeyUsages {
  readonly notBefore: Date;
  readonly notAfter: Date;
}

/** A time as Go's time.Time String() prints a UTC time: `2006-01-02 15:04:05.999999999 +0000 UTC`. */
export function goTime(t: Date): string {
  const iso = t.toISOString(); // 2006-01-02T15:04:05.999Z
  const fraction = iso.slice(19, 23).replace(/\.?0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction} +0000 UTC`;
}

/**
 * Apply `policy` for a signer valid until `signerNotAfter`. Throws Error as upstream for an
 * unrecognized usage, a signer that has expired (`the signer has expired: NotAfter=...`) or
 * a certificate that would expire in the past.
 */
export function applyPolicy(policy: SigningPolicy, signerNotAfter: Date): CertificateTemplate {
  const now = (policy.now ?? Date.now)();
  const usages = keyUsagesFromStrings(policy.usages);
  const notBefore = now - policy.backdateMs;
  let notAfter = policy.ttlMs < policy.shortMs ? now + policy.ttlMs : now + policy.ttlMs - policy.backdateMs;
  const signerEnd = signerNotAfter.getTime();
  if (!(notAfter < signerEnd)) notAfter = signerEnd;
  if (!(notBefore < signerEnd)) throw new Error(`the signer has expired: NotAfter=${goTime(signerNotAfter)}`);
  if (!(now < signerEnd))
    throw new Error(`refusing to sign a certificate that expired in the past: NotAfter=${goTime(signerNotAfter)}`);
  return { ...usages, notBefore: new Date(notBefore), notAfter: new Date(notAfter) };
}
