import { describe, expect, it } from 'vitest';
import { checkCipherSuites, insecureCipherSuites, opensslCipherList } from './cipher-suites.js';

// Go's tls.CipherSuites() names (Go 1.22+), which upstream's --tls-cipher-suites accepts.
const GO_SECURE = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'TLS_RSA_WITH_AES_128_CBC_SHA',
  'TLS_RSA_WITH_AES_256_CBC_SHA',
  'TLS_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA',
  'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA',
  'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA',
  'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA',
  'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
];

describe('cipher suites', () => {
  it('accepts every name Go calls secure, each mapped to a suite the linked OpenSSL serves', () => {
    for (const name of GO_SECURE) expect(() => checkCipherSuites([name]), name).not.toThrow();
  });
  it('flags Go’s insecure suites that OpenSSL still serves', () => {
    expect(
      insecureCipherSuites(['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256']),
    ).toEqual(['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256']);
  });
  it('builds the OpenSSL list: Go’s TLS 1.3 suites, then ECDHE with AEAD by default, or the names given', () => {
    expect(opensslCipherList([])).toBe(
      'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:' +
        'ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305',
    );
    expect(opensslCipherList(['TLS_AES_256_GCM_SHA384', 'TLS_RSA_WITH_AES_128_GCM_SHA256'])).toBe(
      'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:AES128-GCM-SHA256',
    );
  });
});
