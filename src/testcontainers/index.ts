/**
 * `ck-apiserver/testcontainers`: the project's image as a testcontainers module, in the style
 * of testcontainers' own modules. The server listens on 6443 inside the container with a
 * generated CA (its certificate names localhost, 127.0.0.1 and the testcontainers host) and one
 * admin token; without etcd it keeps objects in its embedded store inside the container.
 *
 *   const apiserver = await new CkApiServerContainer().start();
 *   const kc = new KubeConfig(); kc.loadFromString(apiserver.getKubeconfig());
 *
 * `testcontainers` (11.x) is a peer dependency: install it beside this package.
 */
import { randomBytes } from 'node:crypto';
import { AbstractStartedContainer, GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { buildInfo } from '../build-info.js';
import { renderKubeconfig } from '../serving/kubeconfig.js';

const PORT = 6443;
const STATE = '/var/lib/ck-apiserver';

/** A ck-apiserver container to configure and start. */
export class CkApiServerContainer extends GenericContainer {
  private token = randomBytes(16).toString('hex');
  private etcdServers: readonly string[] = [];

  /** `image` defaults to `ck-apiserver:<this package's version>` (build it from the repository's Dockerfile). */
  constructor(image = `ck-apiserver:${buildInfo().version}`) {
    super(image);
    this.withExposedPorts(PORT)
      .withWaitStrategy(Wait.forLogMessage(/ck-apiserver serving/))
      .withStartupTimeout(60_000);
  }

  /** Keep objects in etcd at these URLs (reachable from inside the container) instead of the embedded store. */
  withEtcd(endpoints: readonly string[]): this {
    this.etcdServers = [...endpoints];
    return this;
  }

  /** Use this admin bearer token instead of a random one. */
  withToken(token: string): this {
    this.token = token;
    return this;
  }

  /** Start the container; resolves once the server serves. Rejects as GenericContainer.start does. */
  override async start(): Promise<StartedCkApiServerContainer> {
    const host = process.env.TESTCONTAINERS_HOST_OVERRIDE;
    this.withCopyContentToContainer([
      { content: `${this.token},admin,admin,"system:masters"\n`, target: `${STATE}/tokens.csv`, mode: 0o644 },
    ]).withCommand([
      `--secure-port=${PORT}`,
      `--token-auth-file=${STATE}/tokens.csv`,
      `--data-dir=${STATE}/data`,
      ...(host ? [`--tls-san=${host}`] : []),
      ...(this.etcdServers.length ? [`--etcd-servers=${this.etcdServers.join(',')}`] : []),
    ]);
    const started = await super.start();
    const ca = await started.exec([
      'node',
      '-e',
      `process.stdout.write(require('fs').readFileSync('${STATE}/certs/ca.crt', 'utf8'))`,
    ]);
    if (ca.exitCode !== 0) throw new Error(`cannot read the server's CA from the container: ${ca.output}`);
    return new StartedCkApiServerContainer(started, this.token, ca.stdout);
  }
}

/** A running ck-apiserver container. */
export class StartedCkApiServerContainer extends AbstractStartedContainer {
  constructor(
    started: StartedTestContainer,
    private readonly token: string,
    private readonly caPem: string,
  ) {
    super(started);
  }

  /** `https://<host>:<mapped port>` */
  getUrl(): string {
    return `https://${this.getHost()}:${this.getMappedPort(PORT)}`;
  }

  /** The admin bearer token (group system:masters). */
  getToken(): string {
    return this.token;
  }

  /** PEM of the CA that signed the serving certificate. */
  getCaPem(): string {
    return this.caPem;
  }

  /** A kubeconfig (YAML text) for the admin user. */
  getKubeconfig(): string {
    return renderKubeconfig({ server: this.getUrl(), caPem: this.caPem, token: this.token });
  }
}
