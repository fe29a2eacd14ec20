/**
 * A fake VolumeClient for the sync table tests, after upstream's volumeReactor
 * (pkg/controller/volume/persistentvolume/testing): claims, volumes and classes in memory,
 * writes applied to them with resourceVersion bumps, events recorded as "<type> <reason>".
 */
import type { PersistentVolumeClaim } from '../../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { PersistentVolume } from '../../../resources/persistentvolumes/persistentvolumes.schema.js';
import type { StorageClass } from '../../../resources/storageclasses/storageclasses.schema.js';
import type { VolumeClient, VolumeEvent } from './sync.js';

export class FakeVolumeClient implements VolumeClient {
  readonly volumes = new Map<string, PersistentVolume>();
  readonly claims = new Map<string, PersistentVolumeClaim>();
  readonly classes = new Map<string, StorageClass>();
  readonly events: string[] = [];
  readonly messages: string[] = [];
  readonly enqueued: string[] = [];
  writes = 0;

  constructor(volumes: PersistentVolume[] = [], claims: PersistentVolumeClaim[] = [], classes: StorageClass[] = []) {
    for (const v of volumes) this.volumes.set(v.metadata.name ?? '', structuredClone(v));
    for (const c of claims) this.claims.set(`${c.metadata.namespace}/${c.metadata.name}`, structuredClone(c));
    for (const s of classes) this.classes.set(s.metadata.name ?? '', s);
  }

  getClass = (name: string) => this.classes.get(name);
  listClasses = () => [...this.classes.values()];
  listVolumes = () => [...this.volumes.values()];
  getVolume = (name: string) => this.volumes.get(name);
  getClaim = async (ns: string, name: string) => this.claims.get(`${ns}/${name}`);

  private bump<T extends PersistentVolume | PersistentVolumeClaim>(obj: T): T {
    this.writes++;
    const next = structuredClone(obj);
    next.metadata.resourceVersion = String(Number(obj.metadata.resourceVersion ?? '0') + 1);
    return next;
  }
  updateVolume = async (v: PersistentVolume) => {
    const saved = this.bump(v);
    this.volumes.set(v.metadata.name ?? '', saved);
    return saved;
  };
  updateVolumeStatus = this.updateVolume;
  updateClaim = async (c: PersistentVolumeClaim) => {
    const saved = this.bump(c);
    this.claims.set(`${c.metadata.namespace}/${c.metadata.name}`, saved);
    return saved;
  };
  updateClaimStatus = this.updateClaim;
  event = (_obj: unknown, ev: VolumeEvent) => {
    this.events.push(`${ev.type} ${ev.reason}`);
    this.messages.push(ev.message);
  };
  enqueueClaim = (key: string) => void this.enqueued.push(key);
}
