/**
 * The `kubernetes` Service and its Endpoints in `default`, through which clients and tools find
 * the API servers (upstream pkg/master/controller.go, the bootstrap controller, and
 * pkg/master/reconcilers/lease.go, `--endpoint-reconciler-type=lease`):
 *  - the Service: ClusterIP the first address of the service range, port 443 named `https`
 *    to the replicas' secure port, labels `component: apiserver` and `provider: kubernetes`;
 *    every replica creates it at start when it is missing;
 *  - every replica keeps a lease key `masterleases/<advertise address>` alive (TTL 15 s,
 *    renewed every 10 s) and sets the Endpoints to the addresses of the live leases, sorted, on
 *    the secure port. A replica that stops removes its lease at once; one that dies drops out
 *    when its lease expires.
 *  - the EndpointSlice `kubernetes` beside them, as upstream's EndpointsAdapter
 *    (pkg/controlplane/reconcilers/endpointsadapter.go) writes it: label
 *    `kubernetes.io/service-name: kubernetes`, addressType IPv4, one ready endpoint per
 *    address, the `https` port; the Endpoints carry `endpointslice.kubernetes.io/skip-mirror`,
 *    so no mirroring makes a second slice. Other slices of that service are deleted.
 * An advertise address that upstream's Endpoints validation refuses (loopback, link-local,
 * unspecified) is not published: upstream's reconciler fails on it at every renewal; here the
 * replica says so once and serves on.
 */
import { isIPv4 } from 'node:net';
import type { Logger } from 'pino';
import type { ApiObject } from '../api/object.js';
import { validateNonSpecialIP } from '../api/validation/network.js';
import { ApiError } from '../errors/api-error.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { prefixEnd } from '../storage/kv/types.js';
import type { ObjectStorage } from '../storage/types.js';
import { errorMessage } from '../api/error-message.js';
import { endpoints as endpointsResource } from '../resources/endpoints/endpoints.resource.js';
import type { Endpoints } from '../resources/endpoints/endpoints.schema.js';
import { services as servicesResource } from '../resources/services/services.resource.js';
import { endpointSlices } from '../resources/endpointslices/endpointslices.resource.js';
import { buildPredicate } from '../registry/predicate.js';
import { deleteObject } from '../registry/deletion.js';

export const KUBERNETES_SERVICE = 'kubernetes';
const NAMESPACE = 'default';
const LEASE_PREFIX = 'masterleases/';
/** discovery.LabelServiceName and discovery.LabelSkipMirror. */
const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';

export interface EndpointSettings {
  /** This replica's advertise address (an IPv4 address; anything else publishes nothing). */
  readonly ip: string;
  /** The secure port the replicas serve on. */
  readonly port: number;
  /** Seconds a lease lives without renewal (upstream 15). */
  readonly leaseTtlSeconds?: number;
  /** Milliseconds between renewals (upstream 10 s). */
  readonly intervalMs?: number;
}

/**
 * Create the `kubernetes` Service when it is missing. `clusterIP` is the range's first address.
 * Another replica creating it meanwhile is not an error; a refusal other than that (the address
 * taken by a user's Service) is logged, not fatal. Throws for storage failures.
 */
export async function ensureKubernetesService(
  registry: ResourceRegistry,
  clusterIP: string,
  port: number,
  logger: Logger,
): Promise<void> {
  const services = registry.of(servicesResource);
  const exists = () =>
    services.get(NAMESPACE, KUBERNETES_SERVICE).then(
      () => true,
      (err) => {
        if (err instanceof ApiError && err.code === 404) return false;
        throw err;
      },
    );
  if (await exists()) return;
  const service: ApiObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: KUBERNETES_SERVICE,
      namespace: NAMESPACE,
      labels: { component: 'apiserver', provider: 'kubernetes' },
    },
    spec: {
      type: 'ClusterIP',
      clusterIP,
      sessionAffinity: 'None',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: port }],
    },
  };
  try {
    await services.create(NAMESPACE, service);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (!(await exists())) logger.warn({ err: err.message }, 'the kubernetes Service could not be created');
  }
}

export class EndpointReconciler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly storage: ObjectStorage,
    private readonly settings: EndpointSettings,
    private readonly logger: Logger,
  ) {}

  /** Renew this replica's lease and reconcile now and every interval. */
  start(): void {
    if (!isIPv4(this.settings.ip)) {
      this.logger.warn(
        { advertiseAddress: this.settings.ip },
        'the advertise address is not an IPv4 address: not published in the kubernetes Endpoints',
      );
      return;
    }
    if (validateNonSpecialIP(this.settings.ip, 'ip').length) {
      this.logger.warn(
        { advertiseAddress: this.settings.ip },
        'the advertise address is a loopback, link-local, multicast or unspecified address, which Endpoints may not hold: not published in the kubernetes Endpoints (set --advertise-address to an address clients reach)',
      );
      return;
    }
    const tick = () => {
      this.running = this.running.then(() => this.renewAndReconcile());
    };
    tick();
    this.timer = setInterval(tick, this.settings.intervalMs ?? 10_000);
    this.timer.unref();
  }

  /** Stop renewing, remove this replica's lease and publish the Endpoints without it. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    if (!this.timer) return;
    try {
      await this.storage.kv.delete(this.leaseKey());
      await this.reconcile();
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'removing this replica from the kubernetes Endpoints failed');
    }
  }

  private leaseKey(): string {
    return this.storage.fullKey(LEASE_PREFIX + this.settings.ip);
  }

  private async renewAndReconcile(): Promise<void> {
    if (this.stopped) return;
    try {
      const kv = this.storage.kv;
      const key = this.leaseKey();
      const lease = await kv.grantLease(this.settings.leaseTtlSeconds ?? 15);
      const value = JSON.stringify({ ip: this.settings.ip, port: this.settings.port });
      const current = await kv.range({ start: key });
      const res = current.kvs.length
        ? await kv.update(key, value, current.kvs[0].modRevision, lease)
        : await kv.create(key, value, lease);
      if (!res.succeeded) return; // another write raced this one; the next tick renews
      await this.reconcile();
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'kubernetes Endpoints reconcile failed');
    }
  }

  /** Set the Endpoints and the EndpointSlice to the addresses of the live leases. */
  private async reconcile(): Promise<void> {
    const ips = await this.liveAddresses();
    await this.reconcileEndpoints(ips);
    await this.reconcileSlice(ips);
  }

  /** The addresses of the live leases, sorted. */
  private async liveAddresses(): Promise<string[]> {
    const start = this.storage.fullKey(LEASE_PREFIX);
    const leases = await this.storage.kv.range({ start, end: prefixEnd(start) });
    return leases.kvs
      .map((kv) => kv.key.slice(start.length))
      .filter((ip) => isIPv4(ip))
      .sort();
  }

  /** The Endpoints: create, or update when the addresses or labels differ. */
  private async reconcileEndpoints(ips: string[]): Promise<void> {
    const labels = { [SKIP_MIRROR_LABEL]: 'true' };
    const subsets = ips.length
      ? [
          {
            addresses: ips.map((ip) => ({ ip })),
            ports: [{ name: 'https', port: this.settings.port, protocol: 'TCP' }],
          },
        ]
      : [];
    const endpoints = this.registry.of(endpointsResource);
    let current: Endpoints | undefined;
    try {
      current = await endpoints.get(NAMESPACE, KUBERNETES_SERVICE);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
    if (!current) {
      await endpoints.create(NAMESPACE, {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: KUBERNETES_SERVICE, namespace: NAMESPACE, labels },
        subsets,
      });
      return;
    }
    if (same(current.subsets ?? [], subsets) && same(current.metadata.labels ?? {}, labels)) return;
    await endpoints.update(NAMESPACE, KUBERNETES_SERVICE, (old) => ({
      ...old,
      metadata: { ...old.metadata, labels },
      subsets,
    }));
  }

  /**
   * The EndpointSlice `kubernetes`: create, or update when its endpoints, ports or labels
   * differ; any other slice labelled for the service goes (upstream EndpointsAdapter.Sync).
   */
  private async reconcileSlice(ips: string[]): Promise<void> {
    const slices = this.registry.of(endpointSlices);
    const labels = { [SERVICE_NAME_LABEL]: KUBERNETES_SERVICE };
    const wanted = {
      endpoints: ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
      ports: [{ name: 'https', port: this.settings.port, protocol: 'TCP' }],
    };
    const listed = await slices.list(NAMESPACE, {
      predicate: buildPredicate(endpointSlices, `${SERVICE_NAME_LABEL}=${KUBERNETES_SERVICE}`),
    });
    let current: ApiObject | undefined;
    for (const slice of listed.items) {
      if (slice.metadata.name === KUBERNETES_SERVICE && slice.addressType === 'IPv4') current = slice;
      else await deleteObject(slices, NAMESPACE, slice.metadata.name ?? '', {}).catch(ignoreNotFound);
    }
    if (!current) {
      await slices
        .create(NAMESPACE, {
          apiVersion: 'discovery.k8s.io/v1',
          kind: 'EndpointSlice',
          metadata: { name: KUBERNETES_SERVICE, namespace: NAMESPACE, labels },
          addressType: 'IPv4',
          ...wanted,
        })
        .catch(ignoreExists);
      return;
    }
    const unchanged =
      same(current.endpoints ?? [], wanted.endpoints) &&
      same(current.ports ?? [], wanted.ports) &&
      same(current.metadata.labels ?? {}, labels);
    if (unchanged) return;
    await slices.update(NAMESPACE, KUBERNETES_SERVICE, (old) => ({
      ...old,
      metadata: { ...old.metadata, labels },
      ...wanted,
    }));
  }
}

/** True when `a` and `b` have the same JSON (both built in the same key order). */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Ignore a 404: another replica deleted it first. */
function ignoreNotFound(err: unknown): void {
  if (!(err instanceof ApiError && err.code === 404)) throw err;
}

/** Ignore a 409 AlreadyExists: another replica created it first; the next tick updates it. */
function ignoreExists(err: unknown): void {
  if (!(err instanceof ApiError && err.code === 409)) throw err;
}
