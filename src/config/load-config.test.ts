import { describe, expect, it } from 'vitest';
import { ConfigError, HelpRequested, loadConfig, parseDuration } from './load-config.js';

describe('loadConfig', () => {
  it('has upstream defaults and the embedded store without --etcd-servers', () => {
    const c = loadConfig([], {});
    expect(c).toMatchObject({ securePort: 6443, bindAddress: '0.0.0.0', etcdServers: [], etcdPrefix: '/registry', etcdCompactionIntervalSeconds: 300 });
    expect(c.writeKubeconfig).toBe('.ck-apiserver/kubeconfig');
  });
  it('reads flags in both forms, with flags over CK_ environment variables', () => {
    const c = loadConfig(['--secure-port', '7443', '--etcd-servers=http://a:2379,http://b:2379'], { CK_SECURE_PORT: '9999', CK_ETCD_PREFIX: '/x' });
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
  it('parses Go durations', () => {
    expect(parseDuration('5m')).toBe(300);
    expect(parseDuration('1h30m')).toBe(5400);
    expect(parseDuration('0')).toBe(0);
    expect(() => parseDuration('5x')).toThrow();
  });
});
