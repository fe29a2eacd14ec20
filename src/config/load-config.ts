/**
 * Settings from flags and environment: `--flag=value` or `--flag value`; every flag also reads
 * `CK_<FLAG_IN_UPPER_SNAKE_CASE>`. Flag wins over environment, which wins over the default.
 * Validated with zod; problems throw ConfigError naming the flag.
 */
import { LATEST_KUBE_VERSION, parseEmulatedVersion, type KubeVersion } from './emulated-version.js';
import { join } from 'node:path';
import { z } from 'zod';
import { parseGoDurationMs } from '../api/go-duration.js';
import { parseIpRange, parsePortRange } from '../net/ranges.js';
import { checkCipherSuites, TLS_VERSIONS, type TlsVersionName } from '../serving/cipher-suites.js';
import { STORAGE_BACKENDS, type AuthorizationMode, type ServerConfig, type StorageBackendName } from './types.js';
import { errorMessage } from '../api/error-message.js';
import { CONTROLLER_MANAGER_FLAGS, controllerManagerConfig } from './controller-manager-flags.js';

/** A bad flag or environment value. */
export class ConfigError extends Error {}

/** `--help` was given; `usage` is the text to print. */
export class HelpRequested extends Error {
  constructor(readonly usage: string) {
    super('help requested');
  }
}

const FLAGS: Record<string, { key?: keyof ServerConfig; help: string }> = {
  'secure-port': { key: 'securePort', help: 'HTTPS port (default 6443; 0 picks a free port)' },
  'bind-address': { key: 'bindAddress', help: 'address to listen on (default 0.0.0.0)' },
  'advertise-address': {
    key: 'advertiseAddress',
    help: 'host written into the kubeconfig and discovery (default 127.0.0.1)',
  },
  'etcd-servers': {
    key: 'etcdServers',
    help: 'comma list of etcd URLs; empty uses the embedded store under --data-dir',
  },
  'storage-backend': {
    key: 'storageBackend',
    help: 'etcd3 (default with --etcd-servers), embedded (default without: persistent, under --data-dir) or memory (lost at exit)',
  },
  'data-dir': { key: 'dataDir', help: 'directory of the embedded store (default .ck-apiserver/data)' },
  'tls-san': { key: 'tlsSans', help: 'comma list of extra DNS names or IPs for the generated serving certificate' },
  'etcd-prefix': { key: 'etcdPrefix', help: 'key prefix in etcd (default /registry)' },
  'etcd-cafile': {
    key: 'etcdCaFile',
    help: 'CA bundle (PEM) verifying etcd serving certificates (https:// etcd servers)',
  },
  'etcd-certfile': { key: 'etcdCertFile', help: 'client certificate (PEM) presented to etcd; with --etcd-keyfile' },
  'etcd-keyfile': { key: 'etcdKeyFile', help: 'key (PEM) of --etcd-certfile' },
  'tls-cert-file': { key: 'tlsCertFile', help: 'serving certificate (PEM); generated when absent' },
  'tls-private-key-file': { key: 'tlsPrivateKeyFile', help: 'serving key (PEM)' },
  'cert-dir': { key: 'certDir', help: 'directory for generated certificates (default .ck-apiserver/certs)' },
  'authorization-mode': {
    key: 'authorizationModes',
    help: 'comma list of RBAC, AlwaysAllow, AlwaysDeny, asked in order (default RBAC)',
  },
  'service-account-issuer': {
    key: 'serviceAccountIssuer',
    help: 'iss of service account tokens (default https://kubernetes.default.svc.cluster.local)',
  },
  'service-account-signing-key-file': {
    key: 'serviceAccountSigningKeyFile',
    help: 'PEM private key signing service account tokens (default: sa.key generated in the cert dir)',
  },
  'service-account-key-file': {
    key: 'serviceAccountKeyFiles',
    help: 'comma list of PEM keys verifying service account tokens (the signing key always does)',
  },
  'api-audiences': { key: 'apiAudiences', help: 'comma list of audiences tokens must name (default: the issuer)' },
  'anonymous-auth': {
    key: 'anonymousAuth',
    help: 'requests without credentials are system:anonymous, for RBAC to decide (default false: 401)',
  },
  'client-ca-file': {
    key: 'clientCaFile',
    help: 'PEM bundle verifying client certificates (user = CN, groups = O); default: the generated CA',
  },
  'token-auth-file': { key: 'tokenAuthFile', help: 'CSV token,user,uid,"groups"; absent generates an admin token' },
  'write-kubeconfig': {
    key: 'writeKubeconfig',
    help: "admin kubeconfig path (default beside the cert dir; '' disables)",
  },
  'watch-cache': { key: 'watchCache', help: 'serve watches and reads from a watch cache per resource (default true)' },
  'etcd-compaction-interval': {
    key: 'etcdCompactionIntervalSeconds',
    help: 'etcd compaction interval, e.g. 5m (0 disables)',
  },
  'log-level': { key: 'logLevel', help: 'fatal|error|warn|info|debug|trace|silent (default info)' },
  'max-requests-inflight': {
    key: 'maxRequestsInflight',
    help: 'non-mutating requests in flight (default 400); with priority and fairness, summed with the next into the seats shared by priority levels',
  },
  'max-mutating-requests-inflight': {
    key: 'maxMutatingRequestsInflight',
    help: 'mutating requests in flight (default 200)',
  },
  controllers: {
    key: 'controllers',
    help: "comma list of the leader's controllers: '*' (every one on by default), 'name' (enable), '-name' (disable); default '*'",
  },
  scheduler: {
    key: 'scheduler',
    help: 'run the scheduler: auto (unless a kube-scheduler holds its Lease), true or false (default auto)',
  },
  'simulated-nodes': {
    key: 'simulatedNodes',
    help: 'how many simulated nodes the server keeps and plays the node agent for (default 0)',
  },
  ...CONTROLLER_MANAGER_FLAGS,
  'enable-priority-and-fairness': {
    key: 'enablePriorityAndFairness',
    help: 'API Priority and Fairness: classify, queue and limit requests by FlowSchema and priority level (default true); false uses the max-in-flight limits',
  },
  'service-cluster-ip-range': {
    key: 'serviceClusterIpRange',
    help: 'CIDR of cluster IPs for Services (default 10.0.0.0/24)',
  },
  'service-node-port-range': {
    key: 'serviceNodePortRange',
    help: 'node ports for NodePort/LoadBalancer Services (default 30000-32767)',
  },
  'request-timeout': {
    key: 'requestTimeoutSeconds',
    help: 'Go duration a request that is not long-running may take, its body included, before it is answered 504 (default 1m0s)',
  },
  'emulated-version': {
    key: 'emulatedVersion',
    help: 'Kubernetes version reported by /version, major.minor between 1.10 and 1.33 (default 1.33)',
  },
  'min-request-timeout': {
    key: 'minRequestTimeoutSeconds',
    help: 'seconds; watches last a random [t, 2t) (default 1800)',
  },
  'http2-max-streams-per-connection': {
    key: 'http2MaxStreamsPerConnection',
    help: 'HTTP/2 streams a client may open on one connection (default 0: 100, as upstream)',
  },
  'disable-http2-serving': {
    key: 'disableHttp2Serving',
    help: 'serve HTTP/1.1 only (default false: h2 and http/1.1 by ALPN)',
  },
  'tls-min-version': { key: 'tlsMinVersion', help: 'VersionTLS12 (default) or VersionTLS13' },
  'tls-cipher-suites': {
    key: 'tlsCipherSuites',
    help: 'comma list of TLS 1.2 cipher suites by IANA name (default: ECDHE with AES-GCM or ChaCha20-Poly1305)',
  },
  'audit-log-path': { key: 'auditLogPath', help: "audit log file ('-' = standard out); unset audits nothing" },
  'audit-policy-file': {
    key: 'auditPolicyFile',
    help: 'audit.k8s.io/v1 Policy (YAML or JSON); without it nothing is audited',
  },
  'audit-log-maxage': {
    key: 'auditLogMaxAge',
    help: 'days to keep rotated audit log files, by the timestamp in their names (default 0: no limit)',
  },
  'audit-log-maxbackup': { key: 'auditLogMaxBackup', help: 'rotated audit log files to keep (default 0: all)' },
  'audit-log-maxsize': {
    key: 'auditLogMaxSize',
    help: 'megabytes an audit log file reaches before it is rotated (default 0: 100)',
  },
  'audit-log-format': { key: 'auditLogFormat', help: 'json (default: one Event per line) or legacy (one-line text)' },
};

/** Parse a Go duration (`5m`, `1h30m`, `30s`, `0`) or plain seconds into seconds. */
export function parseDuration(value: string): number {
  if (/^\d+$/.test(value)) return Number(value);
  const re = /(\d+(?:\.\d+)?)(h|ms|m|s)/gy;
  let total = 0;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(value))) {
    const n = Number(m[1]);
    total += m[2] === 'h' ? n * 3600 : m[2] === 'm' ? n * 60 : m[2] === 's' ? n : n / 1000;
    consumed = re.lastIndex;
  }
  if (consumed !== value.length || value === '') throw new Error(`invalid duration "${value}"`);
  return total;
}

/** True when `parse` accepts the text. */
const isRange = (parse: (text: string) => unknown) => (text: string) => {
  try {
    parse(text);
    return true;
  } catch {
    return false;
  }
};

const port = z.coerce.number().int().min(0).max(65535);
const count = z.coerce.number().int().min(1);
/** Upstream's audit log limits: whole numbers, "can't be a negative number". */
const nonNegative = z.coerce.number().int().min(0, "can't be a negative number");

function usage(): string {
  const lines = Object.entries(FLAGS).map(
    ([f, { help }]) => `  --${f.padEnd(32)} ${help} [env CK_${f.toUpperCase().replace(/-/g, '_')}]`,
  );
  return `Usage: ck-apiserver [flags]\n\n${lines.join('\n')}`;
}

/** Read settings. Throws ConfigError (bad value or unknown flag) or HelpRequested. */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ServerConfig {
  const raw: Record<string, string> = {};
  for (const [flag] of Object.entries(FLAGS)) {
    const v = env[`CK_${flag.toUpperCase().replace(/-/g, '_')}`];
    if (v !== undefined) raw[flag] = v;
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') throw new HelpRequested(usage());
    const m = /^--([a-z0-9-]+)(?:=(.*))?$/s.exec(arg);
    if (!m) throw new ConfigError(`unexpected argument "${arg}"`);
    if (!FLAGS[m[1]]) throw new ConfigError(`unknown flag --${m[1]}`);
    if (m[2] !== undefined) raw[m[1]] = m[2];
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) raw[m[1]] = argv[++i];
    else throw new ConfigError(`flag --${m[1]} needs a value`);
  }
  const parse = <T>(flag: string, schema: z.ZodType<T>, fallback: T): T => {
    if (raw[flag] === undefined) return fallback;
    const res = schema.safeParse(raw[flag]);
    if (!res.success) throw new ConfigError(`invalid --${flag} "${raw[flag]}": ${res.error.issues[0]?.message}`);
    return res.data;
  };
  const certDir = parse('cert-dir', z.string().min(1), join('.ck-apiserver', 'certs'));
  const tlsCertFile = parse<string | undefined>('tls-cert-file', z.string().min(1), undefined);
  const tlsPrivateKeyFile = parse<string | undefined>('tls-private-key-file', z.string().min(1), undefined);
  if (Boolean(tlsCertFile) !== Boolean(tlsPrivateKeyFile))
    throw new ConfigError('--tls-cert-file and --tls-private-key-file go together');
  let compaction = 300;
  if (raw['etcd-compaction-interval'] !== undefined) {
    try {
      compaction = parseDuration(raw['etcd-compaction-interval']);
    } catch (err) {
      throw new ConfigError(`invalid --etcd-compaction-interval: ${errorMessage(err)}`);
    }
  }
  const etcdServers = (raw['etcd-servers'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const storageBackend = parse<StorageBackendName>(
    'storage-backend',
    z.enum(STORAGE_BACKENDS),
    etcdServers.length ? 'etcd3' : 'embedded',
  );
  if (storageBackend === 'etcd3' && etcdServers.length === 0)
    throw new ConfigError('--storage-backend=etcd3 needs --etcd-servers');
  if (storageBackend !== 'etcd3' && etcdServers.length > 0)
    throw new ConfigError(`--etcd-servers cannot be used with --storage-backend=${storageBackend}`);
  const etcdTls = etcdTlsFlags(parse, etcdServers);
  const tlsCipherSuites = (raw['tls-cipher-suites'] ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  try {
    checkCipherSuites(tlsCipherSuites);
  } catch (err) {
    throw new ConfigError(`invalid --tls-cipher-suites: ${errorMessage(err)}`);
  }
  let controllerManager;
  try {
    controllerManager = controllerManagerConfig(raw);
  } catch (err) {
    throw new ConfigError(errorMessage(err));
  }
  return {
    controllerManager,
    securePort: parse('secure-port', port, 6443),
    bindAddress: parse('bind-address', z.string().min(1), '0.0.0.0'),
    advertiseAddress: parse('advertise-address', z.string().min(1), '127.0.0.1'),
    etcdServers,
    storageBackend,
    dataDir: parse('data-dir', z.string().min(1), join('.ck-apiserver', 'data')),
    tlsSans: (raw['tls-san'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    etcdPrefix: parse('etcd-prefix', z.string().min(1), '/registry'),
    ...etcdTls,
    tlsCertFile,
    tlsPrivateKeyFile,
    certDir,
    authorizationModes: authorizationModes(raw['authorization-mode'] ?? 'RBAC'),
    clientCaFile: parse<string | undefined>('client-ca-file', z.string().min(1), undefined),
    anonymousAuth: parse('anonymous-auth', z.enum(['true', 'false']), 'false') === 'true',
    ...serviceAccountFlags(raw),
    tokenAuthFile: parse<string | undefined>('token-auth-file', z.string().min(1), undefined),
    writeKubeconfig: raw['write-kubeconfig'] ?? join(certDir, '..', 'kubeconfig'),
    etcdCompactionIntervalSeconds: compaction,
    watchCache: parse('watch-cache', z.enum(['true', 'false']), 'true') === 'true',
    logLevel: parse('log-level', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
    maxRequestsInflight: parse('max-requests-inflight', count, 400),
    maxMutatingRequestsInflight: parse('max-mutating-requests-inflight', count, 200),
    enablePriorityAndFairness: parse('enable-priority-and-fairness', z.enum(['true', 'false']), 'true') === 'true',
    controllers: (raw.controllers ?? '*')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    simulatedNodes: parse('simulated-nodes', z.coerce.number().int().min(0).max(10_000), 0),
    scheduler: parse('scheduler', z.enum(['auto', 'true', 'false']), 'auto'),
    requestTimeoutSeconds: requestTimeout(raw['request-timeout']),
    minRequestTimeoutSeconds: parse('min-request-timeout', count, 1800),
    emulatedVersion: emulatedVersion(raw['emulated-version']),
    http2MaxStreamsPerConnection: parse('http2-max-streams-per-connection', z.coerce.number().int().min(0), 0),
    disableHttp2Serving: parse('disable-http2-serving', z.enum(['true', 'false']), 'false') === 'true',
    serviceClusterIpRange: parse(
      'service-cluster-ip-range',
      z.string().refine(isRange(parseIpRange), 'not an IPv4 CIDR between /8 and /30'),
      '10.0.0.0/24',
    ),
    tlsMinVersion: parse<TlsVersionName>(
      'tls-min-version',
      z.enum(Object.keys(TLS_VERSIONS) as [TlsVersionName, ...TlsVersionName[]]),
      'VersionTLS12',
    ),
    tlsCipherSuites,
    serviceNodePortRange: parse(
      'service-node-port-range',
      z.string().refine(isRange(parsePortRange), 'not a port range such as 30000-32767'),
      '30000-32767',
    ),
    auditLogPath: parse<string | undefined>('audit-log-path', z.string().min(1), undefined),
    auditPolicyFile: parse<string | undefined>('audit-policy-file', z.string().min(1), undefined),
    auditLogMaxAge: parse('audit-log-maxage', nonNegative, 0),
    auditLogMaxBackup: parse('audit-log-maxbackup', nonNegative, 0),
    auditLogMaxSize: parse('audit-log-maxsize', nonNegative, 0),
    auditLogFormat: parse(
      'audit-log-format',
      z.enum(['json', 'legacy'], { message: 'allowed formats are "legacy,json"' }),
      'json',
    ),
  };
}

/**
 * `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile` (upstream's): the certificate and key go
 * together, and any of them needs `--etcd-servers` that are all `https://` (the etcd client
 * dials every member with the same TLS settings). Throws ConfigError. Files are read at start.
 */
function etcdTlsFlags(
  parse: <T>(flag: string, schema: z.ZodType<T>, fallback: T) => T,
  etcdServers: readonly string[],
): Pick<ServerConfig, 'etcdCaFile' | 'etcdCertFile' | 'etcdKeyFile'> {
  const file = (flag: string) => parse<string | undefined>(flag, z.string().min(1), undefined);
  const tls = {
    etcdCaFile: file('etcd-cafile'),
    etcdCertFile: file('etcd-certfile'),
    etcdKeyFile: file('etcd-keyfile'),
  };
  if (Boolean(tls.etcdCertFile) !== Boolean(tls.etcdKeyFile))
    throw new ConfigError('--etcd-certfile and --etcd-keyfile go together');
  if (!tls.etcdCaFile && !tls.etcdCertFile) return {};
  if (etcdServers.length === 0)
    throw new ConfigError('--etcd-cafile, --etcd-certfile and --etcd-keyfile need --etcd-servers');
  const plain = etcdServers.filter((u) => !u.startsWith('https://'));
  if (plain.length)
    throw new ConfigError(
      `--etcd-cafile, --etcd-certfile and --etcd-keyfile need https:// --etcd-servers, not ${plain.join(',')}`,
    );
  return tls;
}

/**
 * `--request-timeout` in seconds (default 60): a Go duration as upstream's DurationVar reads
 * it; negative is refused with upstream's message. Throws ConfigError.
 */
function requestTimeout(value: string | undefined): number {
  if (value === undefined) return 60;
  let ms: number;
  try {
    ms = parseGoDurationMs(value);
  } catch (err) {
    throw new ConfigError(`invalid --request-timeout "${value}": ${errorMessage(err)}`);
  }
  if (ms < 0) throw new ConfigError('--request-timeout can not be negative value');
  return ms / 1000;
}

const AUTHORIZATION_MODES: readonly AuthorizationMode[] = ['RBAC', 'AlwaysAllow', 'AlwaysDeny'];

/** Parse `--authorization-mode` (upstream: a comma list, no repeats). Throws ConfigError. */
function authorizationModes(value: string): AuthorizationMode[] {
  const modes = value.split(',').map((m) => m.trim());
  for (const m of modes) {
    if (!AUTHORIZATION_MODES.includes(m as AuthorizationMode))
      throw new ConfigError(
        `invalid --authorization-mode: authorization mode "${m}" is not supported (${AUTHORIZATION_MODES.join(', ')})`,
      );
  }
  if (new Set(modes).size !== modes.length)
    throw new ConfigError('invalid --authorization-mode: a mode may be given once');
  return modes as AuthorizationMode[];
}

const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** `--service-account-*` and `--api-audiences` (upstream's): audiences default to the issuer. */
function serviceAccountFlags(
  raw: Readonly<Record<string, string | undefined>>,
): Pick<
  ServerConfig,
  'serviceAccountIssuer' | 'serviceAccountSigningKeyFile' | 'serviceAccountKeyFiles' | 'apiAudiences'
> {
  const issuer = raw['service-account-issuer'] || DEFAULT_ISSUER;
  if (issuer.includes(':') && !/^https?:\/\/[^\s]+$/.test(issuer))
    throw new ConfigError(`invalid --service-account-issuer: "${issuer}" is neither a URL nor a plain name`);
  const audiences = list(raw['api-audiences']);
  return {
    serviceAccountIssuer: issuer,
    serviceAccountSigningKeyFile: raw['service-account-signing-key-file'] || undefined,
    serviceAccountKeyFiles: list(raw['service-account-key-file']),
    apiAudiences: audiences.length ? audiences : [issuer],
  };
}

/** `--emulated-version`, default the newest version the server follows. Throws ConfigError. */
function emulatedVersion(value: string | undefined): KubeVersion {
  if (value === undefined) return LATEST_KUBE_VERSION;
  try {
    return parseEmulatedVersion(value);
  } catch (err) {
    throw new ConfigError(`invalid --emulated-version "${value}": ${errorMessage(err)}`);
  }
}
