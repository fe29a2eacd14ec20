/**
 * Local APIService registration: upstream's autoregister controller (k8s.io/kube-aggregator
 * pkg/controllers/autoregister) fed with kube-apiserver's group versions at start
 * (`AddAPIServiceToSyncOnStart`), and the local availability controller
 * (pkg/controllers/status/local).
 *
 * At start (every time this replica becomes the leader) it makes the `onstart` APIServices
 * equal to the group versions the resource table serves (resources/apiservices/local-apiservices.ts):
 * a missing one is created, an automanaged one whose spec differs gets the desired spec, an
 * automanaged one no longer served is deleted (`onstart`, or `true`: those of
 * CustomResourceDefinitions); an APIService without the automanaged
 * label (a user's) is never touched. As upstream's `onstart` sync, this happens once: one deleted
 * afterwards comes back at the next start, not at once. Then, for as long as it runs, it keeps
 * the automanaged local APIServices `Available=True` (reason `Local`) through `/status`, as
 * upstream's local availability controller does (which also covers users' local APIServices;
 * here those keep the condition their create gave them). And, as upstream's CRD registration
 * controller, every change of a CustomResourceDefinition syncs the `true` APIServices of the
 * group versions definitions serve (resources/apiservices/local-apiservices.ts crdApiServices).
 */
import type { Logger } from 'pino';
import { errorMessage } from '../api/error-message.js';
import { ApiError } from '../errors/api-error.js';
import { deleteObject } from '../registry/deletion.js';
import type { GenericStore } from '../registry/generic-store.js';
import { buildPredicate } from '../registry/predicate.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { rfc3339 } from '../api/object.js';
import { apiServices, LOCAL_AVAILABLE } from '../resources/apiservices/apiservices.resource.js';
import type { APIService } from '../resources/apiservices/apiservices.schema.js';
import {
  AUTO_REGISTER_MANAGED_LABEL,
  MANAGE_CONTINUOUSLY,
  MANAGE_ON_START,
  crdApiServices,
  localApiServices,
} from '../resources/apiservices/local-apiservices.js';
import { customResourceDefinitions } from '../resources/customresourcedefinitions/customresourcedefinitions.resource.js';
import type { CustomResourceDefinition } from '../resources/customresourcedefinitions/customresourcedefinitions.schema.js';
import { watchLoop } from './watch-loop.js';

type Condition = NonNullable<NonNullable<APIService['status']>['conditions']>[number];

const managedType = (obj: APIService): string | undefined => obj.metadata.labels?.[AUTO_REGISTER_MANAGED_LABEL];
const isAutomanaged = (obj: APIService): boolean =>
  managedType(obj) === MANAGE_ON_START || managedType(obj) === MANAGE_CONTINUOUSLY;

/** The spec fields upstream compares (reflect.DeepEqual of the specs), absent and empty alike. */
function sameSpec(a: APIService['spec'], b: APIService['spec']): boolean {
  const norm = (s: APIService['spec']) => ({
    service: s?.service ?? null,
    group: s?.group ?? '',
    version: s?.version ?? '',
    insecureSkipTLSVerify: s?.insecureSkipTLSVerify ?? false,
    caBundle: s?.caBundle ?? '',
    groupPriorityMinimum: s?.groupPriorityMinimum ?? 0,
    versionPriority: s?.versionPriority ?? 0,
  });
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

/** The conditions with Available set as SetAPIServiceCondition does, or undefined when nothing changes. */
function withLocalAvailable(conditions: readonly Condition[]): Condition[] | undefined {
  const current = conditions.find((c) => c.type === LOCAL_AVAILABLE.type);
  if (
    current?.status === LOCAL_AVAILABLE.status &&
    current.reason === LOCAL_AVAILABLE.reason &&
    current.message === LOCAL_AVAILABLE.message
  )
    return undefined;
  const now = rfc3339();
  if (!current) return [...conditions, { ...LOCAL_AVAILABLE, lastTransitionTime: now }];
  return conditions.map((c) =>
    c === current
      ? {
          ...LOCAL_AVAILABLE,
          lastTransitionTime: c.status === LOCAL_AVAILABLE.status ? c.lastTransitionTime : now,
        }
      : c,
  );
}

export class ApiServiceRegistration {
  private readonly abort = new AbortController();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly retryMs = 1000,
  ) {}

  /** Start: the one sync (retried until it succeeds), then the availability watch. Returns at once. */
  start(): void {
    void this.run();
  }

  stop(): void {
    this.abort.abort();
  }

  private get store(): GenericStore<APIService> {
    return this.registry.of(apiServices);
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      try {
        await this.syncOnStart();
        break;
      } catch (err) {
        this.logger.warn({ err: errorMessage(err) }, 'local APIService registration failed; retrying');
        await new Promise((r) => setTimeout(r, this.retryMs));
      }
    }
    if (signal.aborted) return;
    void watchLoop(
      this.store,
      signal,
      (ev) => {
        if (ev.type !== 'DELETED') void this.ensureAvailable(ev.object);
      },
      this.logger,
    );
    // Upstream's CRD registration controller: every change of a definition syncs the `true` ones.
    void watchLoop(
      this.registry.of(customResourceDefinitions),
      signal,
      (ev) => {
        if (ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED') this.syncCrdsSoon();
      },
      this.logger,
    );
  }

  private crdSync: Promise<void> | undefined;
  private crdSyncAgain = false;

  /** Sync the definitions' APIServices once now, and once more after if asked again meanwhile. */
  private syncCrdsSoon(): void {
    if (this.crdSync) {
      this.crdSyncAgain = true;
      return;
    }
    this.crdSync = this.sync(MANAGE_CONTINUOUSLY)
      .catch((err: unknown) => this.logger.warn({ err: errorMessage(err) }, 'CRD APIService registration failed'))
      .finally(() => {
        this.crdSync = undefined;
        if (this.crdSyncAgain && !this.abort.signal.aborted) {
          this.crdSyncAgain = false;
          this.syncCrdsSoon();
        }
      });
  }

  /** The APIServices wanted now, by name: the table's (onstart) and the definitions' (true). */
  private async desired(): Promise<Map<string, APIService>> {
    const crds = (await this.registry.of(customResourceDefinitions).items('')) as CustomResourceDefinition[];
    const table = localApiServices(this.registry.all().map((s) => s.def));
    return new Map([...table, ...crdApiServices(crds)].map((d) => [d.metadata.name ?? '', d]));
  }

  /**
   * Upstream's checkAPIService for every name, once: create what is missing (2B), give an
   * automanaged one the desired spec (5B, 6B), delete an automanaged one nothing serves (5A, 6A).
   */
  async syncOnStart(): Promise<void> {
    await this.sync();
  }

  /** checkAPIService for the APIServices managed `only` one way (default: both ways, at start). */
  private async sync(only?: string): Promise<void> {
    const store = this.store;
    const desired = await this.desired();
    if (only) for (const [name, d] of desired) if (managedType(d) !== only) desired.delete(name);
    const all = (await store.list('', { predicate: buildPredicate(store.def) })).items;
    const existing = only ? all.filter((e) => managedType(e) === only || desired.has(e.metadata.name ?? '')) : all;
    const atStart = new Map(existing.map((e) => [e.metadata.name, e]));
    for (const [name, want] of desired) {
      const current = atStart.get(name);
      if (!current) await this.create(want);
      else if (isAutomanaged(current) && !sameSpec(current.spec, want.spec))
        await store.update('', name ?? '', (latest) => ({ ...latest, spec: want.spec }));
    }
    for (const current of existing) {
      const name = current.metadata.name ?? '';
      if (!isAutomanaged(current) || desired.has(name)) continue;
      await deleteObject(store, '', name, { preconditions: { uid: current.metadata.uid } }).then(
        () => this.logger.info({ apiService: name }, 'deleted a local APIService no longer served'),
        ignore(404, 409),
      );
    }
  }

  private async create(want: APIService): Promise<void> {
    await this.store.create('', want).catch(ignore(409));
    this.logger.debug({ apiService: want.metadata.name }, 'registered a local APIService');
  }

  /** The local availability controller's sync, for the automanaged local APIServices: Available through `/status`. */
  private async ensureAvailable(obj: APIService): Promise<void> {
    if (!isAutomanaged(obj) || obj.spec?.service || obj.metadata.deletionTimestamp) return;
    if (!withLocalAvailable(obj.status?.conditions ?? [])) return;
    const status = this.store.def.subresources.find((s) => s.name === 'status');
    try {
      await this.store.update(
        '',
        obj.metadata.name ?? '',
        (latest) => {
          const conditions = withLocalAvailable(latest.status?.conditions ?? []);
          return conditions ? { ...latest, status: { ...latest.status, conditions } } : latest;
        },
        status,
      );
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return;
      this.logger.warn({ apiService: obj.metadata.name, err: errorMessage(err) }, 'APIService status update failed');
    }
  }
}

/** A catch handler that lets the given API error codes pass. */
function ignore(...codes: number[]): (err: unknown) => void {
  return (err) => {
    if (!(err instanceof ApiError && codes.includes(err.code))) throw err;
  };
}
