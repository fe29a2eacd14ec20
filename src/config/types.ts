import type { ControllerManagerConfig } from './controller-manager-flags.js';
import type { KubeVersion } from './emulated-version.js';
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
   * `--anonymous-auth` (default false, where upstream's is true: without credentials the API
   * answers 401): requests that carry no credential are `system:anonymous` in
   * `system:unauthenticated`, and authorization decides (RBAC's bootstrap policy gives them
   * the health and version paths only).
   */
  readonly anonymousAuth?: boolean;
  /** `--service-account-issuer` (default `https://kubernetes.default.svc.cluster.local`): `iss` of issued tokens. */
  readonly serviceAccountIssuer: string;
  /** `--service-account-signing-key-file`: PEM private key (default: `sa.key` generated in the cert dir). Replicas must share it. */
  readonly serviceAccountSigningKeyFile?: string;
  /** `--service-account-key-file`: PEM keys also accepted when verifying tokens. */
  readonly serviceAccountKeyFiles: readonly string[];
  /** `--api-audiences` (default: the issuer): a token must name one. */
  readonly apiAudiences: readonly string[];
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
  /** `--enable-priority-and-fairness` (default true): API Priority and Fairness instead of the max-in-flight limits. */
  readonly enablePriorityAndFairness?: boolean;
  /**
   * `--controllers` (upstream kube-controller-manager's flag; default `['*']`): `*` runs every
   * controller that is on by default, `name` adds one, `-name` removes one
   * (config/controllers.ts controllerEnabled).
   */
  readonly controllers?: readonly string[];
  /**
   * kube-controller-manager's flags of the HPA, node lifecycle, certificate signing and root CA
   * publisher, and `--simulated-nodes-config` (config/controller-manager-flags.ts); absent = all
   * upstream's defaults.
   */
  readonly controllerManager?: ControllerManagerConfig;
  /** `--simulated-nodes` (default 0): Nodes the server keeps and plays the node agent for. */
  readonly simulatedNodes?: number;
  /** `--scheduler` (default auto: on, standing down while a kube-scheduler holds the Lease kube-system/kube-scheduler): the leader schedules pods of `default-scheduler`. */
  readonly scheduler?: 'auto' | 'true' | 'false';
  /** `--service-cluster-ip-range` (default 10.0.0.0/24) and `--service-node-port-range` (default 30000-32767). */
  readonly serviceClusterIpRange: string;
  readonly serviceNodePortRange: string;
  /**
   * `--request-timeout` (a Go duration, default `1m0s`; upstream's flag), in seconds: how long a
   * request that is not long-running (not a watch, proxy, exec, attach, portforward or log) may
   * take, reading its body included, before it is answered 504 Timeout; a request's `timeout`
   * query parameter may shorten it. Absent = 60.
   */
  readonly requestTimeoutSeconds?: number;
  /** `--min-request-timeout` seconds (default 1800): watches last a random [t, 2t). */
  readonly minRequestTimeoutSeconds: number;
  /** `--emulated-version`: the Kubernetes version /version reports (default 1.33). */
  readonly emulatedVersion: KubeVersion;
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
  /**
   * `--audit-log-path`: the audit log file (upstream k8s.io/apiserver log backend); `-` writes
   * to standard output; unset (the default) audits nothing. Events are only recorded with
   * `--audit-policy-file` too, as upstream (a path without a policy logs a warning).
   */
  readonly auditLogPath?: string;
  /** `--audit-policy-file`: an `audit.k8s.io/v1` Policy in YAML or JSON (src/audit/policy.ts); a bad policy stops start-up. */
  readonly auditPolicyFile?: string;
  /** `--audit-log-maxage`: days to keep rotated files, by the timestamp in their names (default 0: no age limit). */
  readonly auditLogMaxAge?: number;
  /** `--audit-log-maxbackup`: rotated files to keep (default 0: all). */
  readonly auditLogMaxBackup?: number;
  /**
   * `--audit-log-maxsize`: megabytes (MiB) a file reaches before it is rotated (default 0:
   * lumberjack's 100). The flag takes whole numbers as upstream; fractions are accepted here
   * for tests.
   */
  readonly auditLogMaxSize?: number;
  /** `--audit-log-format`: `json` (default; one audit.k8s.io/v1 Event per line) or `legacy` (upstream's one-line text). */
  readonly auditLogFormat?: 'json' | 'legacy';
}

/** One `--authorization-mode` entry. */
export type AuthorizationMode = 'RBAC' | 'AlwaysAllow' | 'AlwaysDeny';
