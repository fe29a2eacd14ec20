/**
 * The scheduler's claims, volumes and storage classes (upstream's PVC, PV and StorageClass
 * informers and the VolumeBinding plugin's assume caches, volumebinding/assume_cache.go): kept
 * from the watches; a volume or claim the scheduler has just written for a pod is "assumed" in
 * its written form until the watch reports a newer version, so the next pod's
 * decision does not choose the same volume again.
 */
import type { Logger } from 'pino';
import type { ApiObject } from '../../api/object.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { persistentVolumeClaims } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.resource.js';
import { persistentVolumes } from '../../resources/persistentvolumes/persistentvolumes.resource.js';
import { storageClasses } from '../../resources/storageclasses/storageclasses.resource.js';
import { watchLoop } from '../watch-loop.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { PersistentVolume } from '../../resources/persistentvolumes/persistentvolumes.schema.js';
import type { StorageClass } from '../../resources/storageclasses/storageclasses.schema.js';
import type { VolumeListers } from './framework.js';

const rv = (o: ApiObject): bigint => {
  const v = o.metadata.resourceVersion ?? '';
  return /^\d+$/.test(v) ? BigInt(v) : 0n;
};

/** Objects by key, with assumed versions over them (upstream AssumeCache). */
class AssumeCache<T extends ApiObject> {
  private readonly objects = new Map<string, T>();
  private readonly assumed = new Map<string, T>();

  set(key: string, obj: T): void {
    this.objects.set(key, obj);
    const mine = this.assumed.get(key);
    if (mine && (rv(obj) > rv(mine) || obj.metadata.uid !== mine.metadata.uid)) this.assumed.delete(key);
  }

  delete(key: string): void {
    this.objects.delete(key);
    this.assumed.delete(key);
  }

  get(key: string): T | undefined {
    return this.assumed.get(key) ?? this.objects.get(key);
  }

  all(): T[] {
    return [...this.objects.keys()].map((k) => this.get(k) as T);
  }

  /** Hold `obj` (as written, with the resourceVersion the write answered) over the informer's copy. */
  assume(key: string, obj: T): void {
    this.assumed.set(key, obj);
  }

  /** Drop an assumption (upstream Restore after a failed binding). */
  restore(key: string): void {
    this.assumed.delete(key);
  }
}

export class VolumeCache implements VolumeListers {
  private readonly claims = new AssumeCache<PersistentVolumeClaim>();
  private readonly pvs = new AssumeCache<PersistentVolume>();
  private readonly classes = new Map<string, StorageClass>();

  setClaim(pvc: PersistentVolumeClaim): void {
    this.claims.set(`${pvc.metadata.namespace}/${pvc.metadata.name}`, pvc);
  }
  removeClaim(pvc: PersistentVolumeClaim): void {
    this.claims.delete(`${pvc.metadata.namespace}/${pvc.metadata.name}`);
  }
  setVolume(pv: PersistentVolume): void {
    this.pvs.set(pv.metadata.name ?? '', pv);
  }
  removeVolume(pv: PersistentVolume): void {
    this.pvs.delete(pv.metadata.name ?? '');
  }
  setClass(sc: StorageClass): void {
    this.classes.set(sc.metadata.name ?? '', sc);
  }
  removeClass(sc: StorageClass): void {
    this.classes.delete(sc.metadata.name ?? '');
  }

  assumeClaim(pvc: PersistentVolumeClaim): void {
    this.claims.assume(`${pvc.metadata.namespace}/${pvc.metadata.name}`, pvc);
  }
  assumeVolume(pv: PersistentVolume): void {
    this.pvs.assume(pv.metadata.name ?? '', pv);
  }
  restoreClaim(namespace: string, name: string): void {
    this.claims.restore(`${namespace}/${name}`);
  }
  restoreVolume(name: string): void {
    this.pvs.restore(name);
  }

  claim(namespace: string, name: string): PersistentVolumeClaim | undefined {
    return this.claims.get(`${namespace}/${name}`);
  }
  volume(name: string): PersistentVolume | undefined {
    return this.pvs.get(name);
  }
  volumes(): readonly PersistentVolume[] {
    return this.pvs.all();
  }
  storageClass(name: string): StorageClass | undefined {
    return this.classes.get(name);
  }
}

/**
 * Keep `cache` from the claim, volume and StorageClass watches until `signal` aborts; `changed`
 * is called on every add or update (upstream VolumeBinding's EventsToRegister: such a change
 * may make a parked pod schedulable).
 */
export function followVolumes(
  registry: ResourceRegistry,
  cache: VolumeCache,
  signal: AbortSignal,
  logger: Logger,
  changed: () => void,
): void {
  void watchLoop(
    registry.of(persistentVolumeClaims),
    signal,
    (ev) => {
      if (ev.type === 'DELETED') return cache.removeClaim(ev.object);
      cache.setClaim(ev.object);
      changed();
    },
    logger,
  );
  void watchLoop(
    registry.of(persistentVolumes),
    signal,
    (ev) => {
      if (ev.type === 'DELETED') return cache.removeVolume(ev.object);
      cache.setVolume(ev.object);
      changed();
    },
    logger,
  );
  void watchLoop(
    registry.of(storageClasses),
    signal,
    (ev) => {
      if (ev.type === 'DELETED') return cache.removeClass(ev.object as StorageClass);
      cache.setClass(ev.object as StorageClass);
      changed();
    },
    logger,
  );
}
