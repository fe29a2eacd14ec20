import { describe, expect, it } from 'vitest';
import { ConfigError, HelpRequested, loadConfig, parseDuration } from './load-config.js';

describe('loadConfig', () => {
  it('has upstream defaults and the embedded store without --etcd-servers', () => {
    const c = loadConfig([], {});
    expect(c).toMatchObject({
      securePort: 6443,
      bindAddress: '0.0.0.0',
      etcdServers: [],
      etcdPrefix: '/registry',
      etcdCompactionIntervalSeconds: 300,
    });
    expect(c.writeKubeconfig).toBe('.ck-apiserver/kubeconfig');
    expect(c).toMatchObject({ storageBackend: 'embedded', dataDir: '.ck-apiserver/data', tlsSans: [] });
  });
  it('picks etcd3 with --etcd-servers, reads --storage-backend, --data-dir and --tls-san, and rejects contradictions', () => {
    expect(loadConfig(['--etcd-servers=http://a:2379'], {}).storageBackend).toBe('etcd3');
    expect(loadConfig(['--storage-backend=memory'], {}).storageBackend).toBe('memory');
    expect(loadConfig(['--data-dir=/var/lib/x'], {}).dataDir).toBe('/var/lib/x');
    expect(loadConfig(['--tls-san=api.example.com, 10.0.0.9'], {}).tlsSans).toEqual(['api.example.com', '10.0.0.9']);
    expect(() => loadConfig(['--storage-backend=etcd3'], {})).toThrow(/needs --etcd-servers/);
    expect(() => loadConfig(['--storage-backend=memory', '--etcd-servers=http://a:2379'], {})).toThrow(
      /cannot be used/,
    );
    expect(() => loadConfig(['--storage-backend=etcd2'], {})).toThrow(/invalid --storage-backend "etcd2"/);
  });
  it('reads flags in both forms, with flags over CK_ environment variables', () => {
    const c = loadConfig(['--secure-port', '7443', '--etcd-servers=http://a:2379,http://b:2379'], {
      CK_SECURE_PORT: '9999',
      CK_ETCD_PREFIX: '/x',
    });
    expect(c.securePort).toBe(7443);
    expect(c.etcdServers).toEqual(['http://a:2379', 'http://b:2379']);
    expect(c.etcdPrefix).toBe('/x');
  });
  it('rejects bad values, unknown flags, half TLS pairs, and answers --help', () => {
    expect(() => loadConfig(['--secure-port=abc'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--secure-port=abc'], {})).toThrow(/--secure-port/);
    expect(() => loadConfig(['--nope=1'], {})).toThrow(/unknown flag --nope/);
    expect(() => loadConfig(['--tls-cert-file=a'], {})).toThrow(/go together/);
    expect(() => loadConfig(['--help'], {})).toThrow(HelpRequested);
  });
  it('reads --etcd-cafile, --etcd-certfile and --etcd-keyfile (and CK_ETCD_*), which need https:// --etcd-servers', () => {
    const servers = '--etcd-servers=https://a:2379,https://b:2379';
    expect(
      loadConfig([servers, '--etcd-cafile=/p/ca.crt', '--etcd-certfile', '/p/c.crt', '--etcd-keyfile=/p/c.key'], {}),
    ).toMatchObject({ etcdCaFile: '/p/ca.crt', etcdCertFile: '/p/c.crt', etcdKeyFile: '/p/c.key' });
    expect(loadConfig([servers], { CK_ETCD_CAFILE: '/e/ca.crt' })).toMatchObject({ etcdCaFile: '/e/ca.crt' });
    expect(loadConfig([servers, '--etcd-certfile=c', '--etcd-keyfile=k'], {}).etcdCaFile).toBeUndefined();
    expect(loadConfig(['--etcd-servers=http://a:2379'], {}).etcdCaFile).toBeUndefined();
    expect(() => loadConfig([servers, '--etcd-certfile=c'], {})).toThrow(
      /--etcd-certfile and --etcd-keyfile go together/,
    );
    expect(() => loadConfig([servers, '--etcd-keyfile=k'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--etcd-servers=https://a:2379,http://b:2379', '--etcd-cafile=ca'], {})).toThrow(
      /need https:\/\/ --etcd-servers, not http:\/\/b:2379/,
    );
    expect(() => loadConfig(['--etcd-cafile=ca'], {})).toThrow(/need --etcd-servers/);
  });
  it('defaults to TLS 1.2 with the default suites, and reads --tls-min-version and --tls-cipher-suites by upstream names', () => {
    expect(loadConfig([], {})).toMatchObject({ tlsMinVersion: 'VersionTLS12', tlsCipherSuites: [] });
    const c = loadConfig(
      [
        '--tls-min-version=VersionTLS13',
        '--tls-cipher-suites',
        'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305',
      ],
      {},
    );
    expect(c.tlsMinVersion).toBe('VersionTLS13');
    expect(c.tlsCipherSuites).toEqual([
      'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
      'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305',
    ]);
    const e = loadConfig([], { CK_TLS_MIN_VERSION: 'VersionTLS13', CK_TLS_CIPHER_SUITES: 'TLS_AES_128_GCM_SHA256' });
    expect(e).toMatchObject({ tlsMinVersion: 'VersionTLS13', tlsCipherSuites: ['TLS_AES_128_GCM_SHA256'] });
  });
  it('rejects unknown TLS versions and cipher suite names with upstream messages', () => {
    expect(() => loadConfig(['--tls-min-version=VersionTLS11'], {})).toThrow(
      /invalid --tls-min-version "VersionTLS11"/,
    );
    expect(() => loadConfig(['--tls-min-version=1.2'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--tls-cipher-suites=ECDHE-RSA-AES128-GCM-SHA256'], {})).toThrow(
      /Cipher suite ECDHE-RSA-AES128-GCM-SHA256 not supported or doesn't exist/,
    );
    expect(() => loadConfig([], { CK_TLS_CIPHER_SUITES: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_NOPE' })).toThrow(
      /Cipher suite TLS_NOPE not supported/,
    );
    // Known to Go but absent from OpenSSL 3: refused at start rather than silently not served.
    expect(() => loadConfig(['--tls-cipher-suites=TLS_RSA_WITH_RC4_128_SHA'], {})).toThrow(
      /Cipher suite TLS_RSA_WITH_RC4_128_SHA not supported/,
    );
  });
  it('reads the audit log flags, refusing negative limits and unknown formats as upstream', () => {
    expect(loadConfig([], {})).toMatchObject({
      auditLogPath: undefined,
      auditPolicyFile: undefined,
      auditLogMaxAge: 0,
      auditLogMaxBackup: 0,
      auditLogMaxSize: 0,
      auditLogFormat: 'json',
    });
    const c = loadConfig(
      [
        '--audit-log-path=-',
        '--audit-policy-file',
        'p.yaml',
        '--audit-log-maxage=7',
        '--audit-log-maxbackup=3',
        '--audit-log-maxsize=50',
        '--audit-log-format=legacy',
      ],
      {},
    );
    expect(c).toMatchObject({
      auditLogPath: '-',
      auditPolicyFile: 'p.yaml',
      auditLogMaxAge: 7,
      auditLogMaxBackup: 3,
      auditLogMaxSize: 50,
      auditLogFormat: 'legacy',
    });
    expect(() => loadConfig(['--audit-log-maxage=-1'], {})).toThrow(
      /invalid --audit-log-maxage "-1": can't be a negative number/,
    );
    expect(() => loadConfig(['--audit-log-maxsize=1.5'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--audit-log-format=yaml'], {})).toThrow(
      /invalid --audit-log-format "yaml": allowed formats are "legacy,json"/,
    );
  });
  it('parses Go durations', () => {
    expect(parseDuration('5m')).toBe(300);
    expect(parseDuration('1h30m')).toBe(5400);
    expect(parseDuration('0')).toBe(0);
    expect(() => parseDuration('5x')).toThrow();
  });
});
