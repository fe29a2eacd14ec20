/**
 * `startServer()` for users' test suites (what envtest is for controller-runtime, with nothing
 * to download): a real ck-apiserver in this process, on a free port of 127.0.0.1, over HTTPS
 * with a generated CA, one admin token and an ephemeral store, torn down by `stop()`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/load-config.js';
import type { ServerConfig } from '../config/types.js';
import { startServer as startRunning } from '../server.js';
import { renderKubeconfig } from '../serving/kubeconfig.js';

/** Options of {@link startServer}; every field is optional. */
export interface StartServerOptions {
  /**
   * Where objects live: 'memory' (default; gone at stop), 'embedded' (LMDB files in the
   * temporary directory, removed at stop), or an etcd cluster (`{ etcdServers: [...] }`).
   */
  readonly storage?: 'memory' | 'embedded' | { readonly etcdServers: readonly string[]; readonly prefix?: string };
  /** Port to listen on (default 0: a free port). */
  readonly port?: number;
  /** Address to listen on (default 127.0.0.1). */
  readonly bindAddress?: string;
  /** The admin bearer token (default: 32 random hex characters). */
  readonly token?: string;
  /** pino level name (default 'silent'). */
  readonly logLevel?: ServerConfig['logLevel'];
  /** Any other server setting, as `ck-apiserver --help` lists them (camel case). */
  readonly settings?: Partial<ServerConfig>;
}

/** A started server. */
export interface StartedServer {
  /** `https://127.0.0.1:<port>` */
  readonly url: string;
  /** A kubeconfig (YAML text) for the admin user: server, CA and token. */
  readonly kubeconfig: string;
  /** Where that kubeconfig is written (inside the temporary directory). */
  readonly kubeconfigPath: string;
  /** The admin bearer token (group system:masters). */
  readonly token: string;
  /** PEM of the CA that signed the serving certificate. */
  readonly caPem: string;
  /** Stop serving, end watches, close storage and remove the temporary directory. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Start a server in this process. Resolves once it serves (typically in well under a second).
 * Rejects when the port is taken, storage cannot be opened, or a setting is invalid; nothing is
 * left running or on disk then.
 */
export async function startServer(options: StartServerOptions = {}): Promise<StartedServer> {
  const dir = await mkdtemp(join(tmpdir(), 'ck-apiserver-'));
  try {
    const token = options.token ?? randomBytes(16).toString('hex');
    const tokenFile = join(dir, 'tokens.csv');
    await writeFile(tokenFile, `${token},admin,admin,"system:masters"\n`, { mode: 0o600 });
    const storage = options.storage ?? 'memory';
    const etcd = typeof storage === 'object' ? storage : undefined;
    const config: ServerConfig = {
      ...loadConfig([], {}),
      securePort: options.port ?? 0,
      bindAddress: options.bindAddress ?? '127.0.0.1',
      advertiseAddress: '127.0.0.1',
      certDir: join(dir, 'certs'),
      tokenAuthFile: tokenFile,
      writeKubeconfig: join(dir, 'kubeconfig'),
      logLevel: options.logLevel ?? 'silent',
      storageBackend: etcd ? 'etcd3' : storage === 'embedded' ? 'embedded' : 'memory',
      etcdServers: etcd ? [...etcd.etcdServers] : [],
      etcdPrefix: etcd?.prefix ?? '/registry',
      dataDir: join(dir, 'data'),
      ...options.settings,
    };
    const running = await startRunning(config);
    const caPem = running.caPem ?? '';
    let stopped: Promise<void> | undefined;
    return {
      url: running.url,
      kubeconfig: renderKubeconfig({ server: running.url, caPem, token }),
      kubeconfigPath: running.kubeconfigPath ?? join(dir, 'kubeconfig'),
      token,
      caPem,
      stop: () => (stopped ??= running.stop().finally(() => rm(dir, { recursive: true, force: true }))),
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
