/**
 * The PersistentVolume binder (kube-controller-manager's `persistentvolume-binder`, upstream
 * pkg/controller/volume/persistentvolume pv_controller_base.go): follows the claim, volume and
 * StorageClass watches into caches (its informers), syncs each changed claim and volume on a
 * work queue ({@link PvSync}), and resyncs everything every 15 s (upstream's
 * --pvclaimbinder-sync-period). Writes as `system:serviceaccount:kube-system:
 * persistent-volume-binder`; events come from `persistentvolume-controller`.
 */
import type { Logger } from 'pino';
import type { ApiObject } from '../../../api/object.js';
import { ApiError, conflict } from '../../../errors/api-error.js';
import type { GenericStore } from '../../../registry/generic-store.js';
import type { ResourceRegistry } from '../../../registry/resource-registry.js';
import { events } from '../../../resources/events/events.resource.js';
import { persistentVolumeClaims } from '../../../resources/persistentvolumeclaims/persistentvolumeclaims.resource.js';
import type { PersistentVolumeClaim } from '../../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import { persistentVolumes } from '../../../resources/persistentvolumes/persistentvolumes.resource.js';
import type { PersistentVolume } from '../../../resources/persistentvolumes/persistentvolumes.schema.js';
import { storageClasses } from '../../../resources/storageclasses/storageclasses.resource.js';
import type { StorageClass } from '../../../resources/storageclasses/storageclasses.schema.js';
import { CONTROLLER_FIELD_MANAGER, controllerUser } from '../../controller-user.js';
import { legacyEvent, recordLegacyEvent } from '../../events.js';
import { resyncLoop, watchLoop } from '../../watch-loop.js';
import { WorkQueue } from '../../work-queue.js';
import { PvSync, type VolumeClient } from './sync.js';

/** The `--controllers` name. */
export const PV_BINDER_CONTROLLER = 'persistentvolume-binder';
/** The events' source component (upstream's recorder). */
export const PV_EVENT_SOURCE = 'persistentvolume-controller';

/** Settings; defaults are upstream's. */
export interface PvBinderOptions {
  /** How often every claim and volume is synced again (upstream 15 s). */
  readonly resyncMs?: number;
}

/**
 * Keep `obj` in `cache` unless the cache holds a newer version (upstream storeObjectUpdate):
 * the controller's own writes run ahead of their watch events.
 */
function storeNewer<T extends ApiObject>(cache: Map<string, T>, key: string, obj: T): void {
  const cur = cache.get(key);
  const rv = (o: ApiObject) =>
    BigInt(/^\d+$/.test(o.metadata.resourceVersion ?? '') ? o.metadata.resourceVersion! : '0');
  if (cur && cur.metadata.uid === obj.metadata.uid && rv(cur) > rv(obj)) return;
  cache.set(key, obj);
}

const keyOf = (o: ApiObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

export class PersistentVolumeBinder {
  private readonly abort = new AbortController();
  private readonly claims = new Map<string, PersistentVolumeClaim>();
  private readonly volumes = new Map<string, PersistentVolume>();
  private readonly classes = new Map<string, StorageClass>();
  private readonly claimQueue: WorkQueue<string>;
  private readonly volumeQueue: WorkQueue<string>;
  private readonly sync: PvSync;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: PvBinderOptions = {},
  ) {
    this.sync = new PvSync(this.client());
    this.claimQueue = new WorkQueue<string>(
      (k) => k,
      async (k) => {
        const claim = this.claims.get(k);
        if (claim) await this.sync.syncClaim(claim);
      },
      logger,
    );
    this.volumeQueue = new WorkQueue<string>(
      (k) => k,
      async (k) => {
        const volume = this.volumes.get(k);
        if (volume) await this.sync.syncVolume(volume);
      },
      logger,
    );
  }

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(
      this.registry.of(storageClasses),
      signal,
      (ev) => {
        if (ev.type === 'DELETED') this.classes.delete(ev.object.metadata.name ?? '');
        else this.classes.set(ev.object.metadata.name ?? '', ev.object as StorageClass);
      },
      this.logger,
    );
    void watchLoop(
      this.registry.of(persistentVolumes),
      signal,
      (ev) => {
        const name = ev.object.metadata.name ?? '';
        if (ev.type === 'DELETED') this.volumes.delete(name);
        else storeNewer(this.volumes, name, ev.object);
        // A volume's change may let a claim bind (upstream enqueues the volume; its sync the claim).
        if (ev.type !== 'DELETED') this.volumeQueue.add(name);
        else this.enqueueAllClaims();
      },
      this.logger,
    );
    void watchLoop(
      this.registry.of(persistentVolumeClaims),
      signal,
      (ev) => {
        const key = keyOf(ev.object);
        if (ev.type === 'DELETED') {
          this.claims.delete(key);
          const vol = ev.object.spec?.volumeName;
          if (vol) this.volumeQueue.add(vol);
          return;
        }
        storeNewer(this.claims, key, ev.object);
        this.claimQueue.add(key);
      },
      this.logger,
    );
    resyncLoop(signal, this.opts.resyncMs ?? 15_000, async () => {
      this.enqueueAllClaims();
      for (const name of this.volumes.keys()) this.volumeQueue.add(name);
    });
  }

  stop(): void {
    this.abort.abort();
    this.claimQueue.stop();
    this.volumeQueue.stop();
  }

  private enqueueAllClaims(): void {
    for (const key of this.claims.keys()) this.claimQueue.add(key);
  }

  /** The sync's reads from the caches and writes through the stores, optimistic on resourceVersion. */
  private client(): VolumeClient {
    const user = controllerUser('persistent-volume-binder');
    const write = { user, fieldManager: CONTROLLER_FIELD_MANAGER };
    const reg = this.registry;
    const put = async <T extends ApiObject>(store: GenericStore<T>, obj: T, status: boolean): Promise<T> => {
      const sub = status ? store.def.subresources.find((s) => s.name === 'status') : undefined;
      const saved = await store.update(
        obj.metadata.namespace ?? '',
        obj.metadata.name ?? '',
        (cur) => {
          if (cur.metadata.resourceVersion !== obj.metadata.resourceVersion)
            throw conflict(
              store.def.plural,
              obj.metadata.name ?? '',
              'the object has been modified; please apply your changes to the latest version and try again',
            );
          return obj;
        },
        sub,
        write,
      );
      // Keep the cache ahead of the watch, as upstream's storeObjectUpdate.
      if (store.def.plural === 'persistentvolumes')
        storeNewer(this.volumes, saved.metadata.name ?? '', saved as PersistentVolume);
      else storeNewer(this.claims, keyOf(saved), saved as PersistentVolumeClaim);
      return saved;
    };
    return {
      getClass: (name) => this.classes.get(name),
      listClasses: () => [...this.classes.values()],
      listVolumes: () => [...this.volumes.values()],
      getVolume: (name) => this.volumes.get(name),
      getClaim: async (ns, name, fresh) => {
        if (!fresh) return this.claims.get(`${ns}/${name}`);
        try {
          return await reg.of(persistentVolumeClaims).get(ns, name);
        } catch (err) {
          if (err instanceof ApiError && err.code === 404) return undefined;
          throw err;
        }
      },
      updateVolume: (v) => put(reg.of(persistentVolumes), v, false),
      updateVolumeStatus: (v) => put(reg.of(persistentVolumes), v, true),
      updateClaim: (c) => put(reg.of(persistentVolumeClaims), c, false),
      updateClaimStatus: (c) => put(reg.of(persistentVolumeClaims), c, true),
      event: (obj, ev) => {
        const kind =
          obj.kind === 'PersistentVolume' || !obj.metadata.namespace ? 'PersistentVolume' : 'PersistentVolumeClaim';
        void recordLegacyEvent(
          reg.of(events) as GenericStore,
          legacyEvent(obj, { apiVersion: 'v1', kind }, PV_EVENT_SOURCE, ev),
          user,
          this.logger,
        );
      },
      enqueueClaim: (key) => this.claimQueue.add(key),
    };
  }
}
