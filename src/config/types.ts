import type { TlsVersionName } from '../serving/cipher-suites.js';

/** The storage backends `--storage-backend` accepts. */
export const STORAGE_BACKENDS = ['etcd3', 'embedded', 'memory'] as const;
export type StorageBackendName = (typeof STORAGE_BACKENDS)[number];

/**
 * The server's settings after flags and environment variables are read. Every flag mirrors the
 * upstream kube-apiserver name where one exists; each also reads an environment variable named
 * CK_<FLAG_IN_UPPER_SNAKE_CASE> (e.g. `--etcd-servers` <- CK_ETCD_SERVERS). A flag wins over
 * its environment variable, which wins over the default.
 */
export interface ServerConfig {
  /** `--secure-port` (default 6443). 0 picks a free port (tests). */
  readonly securePort: number;
  /** `--bind-address` (default 0.0.0.0). */
  readonly bindAddress: string;
  /** `--etcd-servers`: comma list of etcd URLs (required with `--storage-backend=etcd3`). */
  readonly etcdServers: readonly string[];
  /**
   * `--storage-backend` (upstream's flag; upstream knows only `etcd3`): `etcd3` when
   * `--etcd-servers` is given, else `embedded` (a persistent store under `--data-dir`); `memory`
   * keeps everything in the process and loses it at exit.
   */
  readonly storageBackend: StorageBackendName;
  /** `--data-dir` (default `.ck-apiserver/data`): where the embedded store keeps its files. */
  readonly dataDir: string;
  /** `--tls-san`: extra DNS names or IPs for a generated serving certificate (comma list). */
  readonly tlsSans: readonly string[];
  /** `--etcd-prefix` (default `/registry`). */
  readonly etcdPrefix: string;
  /**
   * `--etcd-cafile` (upstream's flag): PEM CA bundle verifying etcd's serving certificate
   * (absent: the system's roots for `https://` servers). Needs `https://` `--etcd-servers`.
   */
  readonly etcdCaFile?: string;
  /**
   * `--etcd-certfile` / `--etcd-keyfile` (upstream's flags): PEM client certificate and key
   * presented to etcd (for etcd's `--client-cert-auth`); both or neither. Read at start: a
   * missing or wrong file fails start-up naming it.
   */
  readonly etcdCertFile?: string;
  readonly etcdKeyFile?: string;
  /** `--tls-cert-file` / `--tls-private-key-file`: PEM files; both or neither. */
  readonly tlsCertFile?: string;
  readonly tlsPrivateKeyFile?: string;
  /** `--cert-dir` (default `.ck-apiserver/certs` under the working directory): generated certs go here. */
  readonly certDir: string;
  /**
   * `--authorization-mode`: the authorizers asked in order, the first allow or deny deciding
   * (RBAC, AlwaysAllow, AlwaysDeny; default RBAC, where upstream's is AlwaysAllow).
   */
  readonly authorizationModes: readonly AuthorizationMode[];
  /**
   * `--client-ca-file`: PEM bundle that verifies client certificates (user = CN, groups = O,
   * as upstream). Absent: the generated CA when the server generated its certificates, else
   * no client certificates are asked for.
   */
  readonly clientCaFile?: string;
  /** `--token-auth-file`: CSV `token,user,uid,"group1,group2"`; absent = generate an admin token. */
  readonly tokenAuthFile?: string;
  /** `--write-kubeconfig` (default `<cert-dir>/../kubeconfig`): where the admin kubeconfig goes; `''` disables. */
  readonly writeKubeconfig: string;
  /** `--advertise-address`: the host written into the kubeconfig (default 127.0.0.1). */
  readonly advertiseAddress: string;
  /** `--etcd-compaction-interval` in seconds (default 300; 0 disables). */
  readonly etcdCompactionIntervalSeconds: number;
  /** Put a watch cache in front of each cached resource (upstream --watch-cache; default true). */
  readonly watchCache?: boolean;
  /** `--log-level` (default info). */
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `--max-requests-inflight` (default 400) and `--max-mutating-requests-inflight` (default 200). */
  readonly maxRequestsInflight: number;
  readonly maxMutatingRequestsInflight: number;
  /** `--service-cluster-ip-range` (default 10.0.0.0/24) and `--service-node-port-range` (default 30000-32767). */
  readonly serviceClusterIpRange: string;
  readonly serviceNodePortRange: string;
  /** `--min-request-timeout` seconds (default 1800): watches last a random [t, 2t). */
  readonly minRequestTimeoutSeconds: number;
  /** `--http2-max-streams-per-connection` (default 0: upstream's 100). */
  readonly http2MaxStreamsPerConnection?: number;
  /** `--disable-http2-serving`: offer only HTTP/1.1 (default false). */
  readonly disableHttp2Serving?: boolean;
  /** `--tls-min-version`: `VersionTLS12` (default) or `VersionTLS13`. */
  readonly tlsMinVersion?: TlsVersionName;
  /** `--tls-cipher-suites`: upstream/IANA names of the TLS 1.2 suites; empty = ECDHE with AEAD. */
  readonly tlsCipherSuites?: readonly string[];
  /** Seconds to receive a request's headers before the connection is dropped (default 32, upstream's ReadHeaderTimeout; no flag). */
  readonly readHeaderTimeoutSeconds?: number;
  /** Seconds this replica's entry in the kubernetes Endpoints lives without renewal (default 15, upstream's; no flag). */
  readonly endpointLeaseTtlSeconds?: number;
  /** Seconds between renewals of that entry (default 10, upstream's; no flag). */
  readonly endpointReconcileIntervalSeconds?: number;
  /** Seconds a kept-alive connection may idle between requests (default 90, upstream's IdleTimeout; no flag). */
  readonly idleTimeoutSeconds?: number;
}

/** One `--authorization-mode` entry. */
export type AuthorizationMode = 'RBAC' | 'AlwaysAllow' | 'AlwaysDeny';
