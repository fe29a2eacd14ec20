/**
 * TLS versions and cipher suites by their upstream names, mapped to OpenSSL's.
 *
 * Names follow k8s.io/component-base/cli/flag/ciphersuites_flag.go: every suite Go's
 * `tls.CipherSuites()` and `tls.InsecureCipherSuites()` list (IANA names), plus the two legacy
 * Go names `TLS_ECDHE_{RSA,ECDSA}_WITH_CHACHA20_POLY1305`. An unknown name is the upstream
 * error `Cipher suite X not supported or doesn't exist`. As in Go, the TLS 1.3 suites are not
 * configurable: their names are accepted and ignored, and TLS 1.3 always offers Go's three.
 *
 * The default for TLS 1.2 is ECDHE key exchange with AEAD ciphers, in Go's preference order
 * (crypto/tls `cipherSuitesPreferenceOrder`). Go's own default also keeps the four
 * ECDHE-CBC-SHA1 suites; they are left out here (issue #9) and may be named in the flag.
 */
import { getCiphers } from 'node:tls';

/** One suite: its OpenSSL name and whether Go counts it as insecure. */
interface Suite {
  readonly openssl: string;
  readonly insecure?: boolean;
  /** A TLS 1.3 suite: accepted in the flag, never configurable (as Go). */
  readonly tls13?: boolean;
}

const SUITES: Readonly<Record<string, Suite>> = {
  // TLS 1.3 (crypto/tls defaultCipherSuitesTLS13 order)
  TLS_AES_128_GCM_SHA256: { openssl: 'TLS_AES_128_GCM_SHA256', tls13: true },
  TLS_AES_256_GCM_SHA384: { openssl: 'TLS_AES_256_GCM_SHA384', tls13: true },
  TLS_CHACHA20_POLY1305_SHA256: { openssl: 'TLS_CHACHA20_POLY1305_SHA256', tls13: true },
  // ECDHE with AEAD
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: { openssl: 'ECDHE-ECDSA-AES128-GCM-SHA256' },
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: { openssl: 'ECDHE-RSA-AES128-GCM-SHA256' },
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: { openssl: 'ECDHE-ECDSA-AES256-GCM-SHA384' },
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: { openssl: 'ECDHE-RSA-AES256-GCM-SHA384' },
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: { openssl: 'ECDHE-ECDSA-CHACHA20-POLY1305' },
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: { openssl: 'ECDHE-RSA-CHACHA20-POLY1305' },
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: { openssl: 'ECDHE-ECDSA-CHACHA20-POLY1305' },
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: { openssl: 'ECDHE-RSA-CHACHA20-POLY1305' },
  // ECDHE with CBC and SHA-1
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: { openssl: 'ECDHE-ECDSA-AES128-SHA' },
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: { openssl: 'ECDHE-RSA-AES128-SHA' },
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: { openssl: 'ECDHE-ECDSA-AES256-SHA' },
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: { openssl: 'ECDHE-RSA-AES256-SHA' },
  // RSA key exchange
  TLS_RSA_WITH_AES_128_GCM_SHA256: { openssl: 'AES128-GCM-SHA256' },
  TLS_RSA_WITH_AES_256_GCM_SHA384: { openssl: 'AES256-GCM-SHA384' },
  TLS_RSA_WITH_AES_128_CBC_SHA: { openssl: 'AES128-SHA' },
  TLS_RSA_WITH_AES_256_CBC_SHA: { openssl: 'AES256-SHA' },
  // Go's InsecureCipherSuites()
  TLS_RSA_WITH_AES_128_CBC_SHA256: { openssl: 'AES128-SHA256', insecure: true },
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: { openssl: 'ECDHE-ECDSA-AES128-SHA256', insecure: true },
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: { openssl: 'ECDHE-RSA-AES128-SHA256', insecure: true },
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: { openssl: 'DES-CBC3-SHA', insecure: true },
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: { openssl: 'ECDHE-RSA-DES-CBC3-SHA', insecure: true },
  TLS_RSA_WITH_RC4_128_SHA: { openssl: 'RC4-SHA', insecure: true },
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: { openssl: 'ECDHE-ECDSA-RC4-SHA', insecure: true },
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: { openssl: 'ECDHE-RSA-RC4-SHA', insecure: true },
};

/** The TLS 1.2 suites served when `--tls-cipher-suites` is empty: ECDHE with AEAD. */
export const DEFAULT_CIPHER_SUITES: readonly string[] = [
  'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
];

/** Upstream `--tls-min-version` names this server accepts, with Node's names. */
export const TLS_VERSIONS = { VersionTLS12: 'TLSv1.2', VersionTLS13: 'TLSv1.3' } as const;

/** An upstream TLS version name: `VersionTLS12` or `VersionTLS13`. */
export type TlsVersionName = keyof typeof TLS_VERSIONS;

/**
 * Check `--tls-cipher-suites` names. Throws Error with upstream's message
 * (`Cipher suite X not supported or doesn't exist`) for a name Go does not know or the linked
 * OpenSSL cannot serve (RC4 and 3DES are absent from OpenSSL 3).
 */
export function checkCipherSuites(names: readonly string[]): void {
  const available = new Set(getCiphers());
  for (const name of names) {
    const suite = SUITES[name];
    if (!suite || !available.has(suite.openssl.toLowerCase()))
      throw new Error(`Cipher suite ${name} not supported or doesn't exist`);
  }
}

/** The names among `names` that Go lists as insecure (upstream logs a warning for each). */
export function insecureCipherSuites(names: readonly string[]): string[] {
  return names.filter((n) => SUITES[n]?.insecure);
}

/**
 * The OpenSSL cipher string for Node's `ciphers` option: Go's TLS 1.3 suites, then the
 * TLS 1.2 suites named (or the defaults when `names` is empty), in the order given.
 * Throws as checkCipherSuites.
 */
export function opensslCipherList(names: readonly string[]): string {
  const chosen = names.length ? names : DEFAULT_CIPHER_SUITES;
  checkCipherSuites(chosen);
  const tls12 = chosen.filter((n) => !SUITES[n].tls13).map((n) => SUITES[n].openssl);
  const tls13 = Object.values(SUITES)
    .filter((s) => s.tls13)
    .map((s) => s.openssl);
  return [...new Set([...tls13, ...tls12])].join(':');
}
