/**
 * The root CA certificate publisher (upstream 1.33 pkg/controller/certificates/
 * rootcacertpublisher/publisher.go): every namespace holds a ConfigMap `kube-root-ca.crt` whose
 * `ca.crt` is the CA bundle that verifies this server (what pods use to trust
 * `kubernetes.default.svc`), annotated `kubernetes.io/description`. A namespace added, or
 * updated while Active, and a change or deletion of that ConfigMap queue the namespace; its
 * sync creates the ConfigMap when missing (not in a namespace that is gone or terminating) and
 * puts back the data and annotation when they differ. Writes go as the controller's service
 * account `root-ca-cert-publisher`.
 *
 * Name in `--controllers`: `root-ca-cert-publisher` (on by default upstream).
 */
import type { Logger } from 'pino';
import { ApiError } from '../../../errors/api-error.js';
import type { ResourceRegistry } from '../../../registry/resource-registry.js';
import { configMaps } from '../../../resources/configmaps/configmaps.resource.js';
import type { ConfigMap } from '../../../resources/configmaps/configmaps.schema.js';
import { namespaces } from '../../../resources/namespaces/namespaces.resource.js';
import type { Namespace } from '../../../resources/namespaces/namespaces.schema.js';
import { namespaceTerminating } from '../../replicaset/sync.js';
import { controllerUser, CONTROLLER_FIELD_MANAGER } from '../../controller-user.js';
import { watchLoop } from '../../watch-loop.js';
import { WorkQueue } from '../../work-queue.js';

export const ROOT_CA_CERT_PUBLISHER = 'root-ca-cert-publisher';
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

/** The publisher's reads (from the cache) and writes of ConfigMaps. */
export interface PublisherClient {
  /** The cached `kube-root-ca.crt` of `namespace`, or undefined. */
  get(namespace: string): Promise<ConfigMap | undefined>;
  create(namespace: string, cm: ConfigMap): Promise<void>;
  update(namespace: string, cm: ConfigMap): Promise<void>;
}

/** The namespace to sync for a namespace event (namespaceAdded / namespaceUpdated), or undefined. */
export function namespaceKey(type: 'ADDED' | 'MODIFIED', ns: Namespace): string | undefined {
  if (type === 'MODIFIED' && ns.status?.phase !== 'Active') return undefined;
  return ns.metadata.name ?? undefined;
}

/** The namespace to sync for a changed or deleted ConfigMap (configMapUpdated / configMapDeleted), or undefined. */
export function configMapKey(cm: ConfigMap): string | undefined {
  return cm.metadata.name === ROOT_CA_CONFIGMAP ? cm.metadata.namespace || undefined : undefined;
}

const sameData = (a: Readonly<Record<string, string>> | null | undefined, b: Readonly<Record<string, string>>) => {
  const keys = Object.keys(a ?? {});
  return keys.length === Object.keys(b).length && keys.every((k) => a![k] === b[k]);
};

/**
 * syncNamespace: make `namespace`'s ConfigMap hold `rootCA`. A create refused because the
 * namespace is gone (404) or terminating ends quietly; other errors are thrown to retry.
 */
export async function syncNamespace(namespace: string, rootCA: string, client: PublisherClient): Promise<void> {
  const data = { 'ca.crt': rootCA };
  const cm = await client.get(namespace);
  if (!cm) {
    try {
      await client.create(namespace, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: ROOT_CA_CONFIGMAP, namespace, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
        data,
      });
    } catch (err) {
      if ((err instanceof ApiError && err.code === 404) || namespaceTerminating(err)) return;
      throw err;
    }
    return;
  }
  if (sameData(cm.data, data) && cm.metadata.annotations?.[DESCRIPTION_ANNOTATION]) return;
  await client.update(namespace, {
    ...cm,
    metadata: { ...cm.metadata, annotations: { ...cm.metadata.annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
    data,
  });
}

/** A PublisherClient over this server's ConfigMap store, writing as `root-ca-cert-publisher`. */
function registryClient(registry: ResourceRegistry): PublisherClient {
  const store = registry.of(configMaps);
  const write = { user: controllerUser(ROOT_CA_CERT_PUBLISHER), fieldManager: CONTROLLER_FIELD_MANAGER };
  return {
    async get(namespace) {
      try {
        return await store.get(namespace, ROOT_CA_CONFIGMAP, '0');
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) return undefined;
        throw err;
      }
    },
    create: async (namespace, cm) => void (await store.create(namespace, cm, write)),
    // The ConfigMap's resourceVersion goes with it: a change meanwhile answers 409 and is retried.
    update: async (namespace, cm) =>
      void (await store.update(namespace, cm.metadata.name ?? '', () => cm, undefined, write)),
  };
}

/** The `root-ca-cert-publisher` controller: `start()` watches namespaces and ConfigMaps, `stop()` ends it. */
export class RootCaCertPublisher {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;

  /** @param opts.rootCA the PEM bundle published as `ca.crt` */
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: { readonly rootCA: string; readonly client?: PublisherClient },
  ) {
    const client = opts.client ?? registryClient(registry);
    this.queue = new WorkQueue<string>(
      (ns) => ns,
      (ns) => syncNamespace(ns, opts.rootCA, client),
      logger,
    );
  }

  start(): void {
    const signal = this.abort.signal;
    this.logger.info('Starting root CA cert publisher controller');
    void watchLoop(
      this.registry.of(namespaces),
      signal,
      (ev) => {
        const key = ev.type === 'ADDED' || ev.type === 'MODIFIED' ? namespaceKey(ev.type, ev.object) : undefined;
        if (key) this.queue.add(key);
      },
      this.logger,
    );
    void watchLoop(
      this.registry.of(configMaps),
      signal,
      (ev) => {
        const key = ev.type === 'MODIFIED' || ev.type === 'DELETED' ? configMapKey(ev.object) : undefined;
        if (key) this.queue.add(key);
      },
      this.logger,
    );
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }
}
