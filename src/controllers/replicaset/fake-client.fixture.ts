/**
 * A fake ReplicaClient for the sync tests, after upstream's controller.FakePodControl (records
 * pod templates created, pod names deleted and patches; CreateLimit; Err) and its fake
 * informers (pods and controllers held in memory).
 */
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { ReplicaClient } from './sync.js';
import type { Workload, WorkloadStatus } from './workload.js';

export class FakeReplicaClient implements ReplicaClient {
  /** The pods the "informer" holds. */
  pods: Pod[] = [];
  /** The controllers the "informer" holds, by name. */
  readonly controllers = new Map<string, Workload>();
  /** What a fresh (quorum) read answers, by name; falls back to `controllers`. */
  readonly fresh = new Map<string, Workload>();
  /** Created pods, in order. */
  created: Pod[] = [];
  /** Deleted pod names. */
  deleted: string[] = [];
  /** Adoptions and releases attempted. */
  patches: { pod: string; op: 'adopt' | 'release' }[] = [];
  /** Statuses written. */
  statuses: WorkloadStatus[] = [];
  /** Create calls made (including refused ones). */
  createCalls = 0;
  /** At most this many creations succeed (upstream CreateLimit; 0 = no limit). */
  createLimit = 0;
  /** Every pod write fails with this (upstream FakePodControl.Err). */
  err: Error | undefined;
  /** Status writes fail with this. */
  statusErr: Error | undefined;

  /** Forget the recorded writes (upstream FakePodControl.Clear). */
  clear(): void {
    this.created = [];
    this.deleted = [];
    this.patches = [];
    this.createCalls = 0;
  }

  async getController(_ns: string, name: string) {
    return this.controllers.get(name);
  }
  async getControllerFresh(ns: string, name: string) {
    const obj = this.fresh.get(name) ?? this.controllers.get(name);
    if (!obj) throw new Error(`${ns}/${name} not found`);
    return obj;
  }
  async listControllers(ns: string) {
    return [...this.controllers.values()].filter((c) => c.metadata.namespace === ns);
  }
  async listPods(ns: string) {
    return this.pods.filter((p) => p.metadata.namespace === ns);
  }
  async createPod(_ns: string, pod: Pod, _owner: Workload) {
    this.createCalls++;
    if (this.createLimit && this.createCalls > this.createLimit)
      throw new Error(`not creating pod, limit ${this.createLimit} already reached (create call ${this.createCalls})`);
    this.created.push(pod);
    if (this.err) throw this.err;
  }
  async deletePod(_ns: string, name: string, _owner: Workload) {
    this.deleted.push(name);
    if (this.err) throw this.err;
  }
  async adoptPod(pod: Pod) {
    this.patches.push({ pod: pod.metadata.name ?? '', op: 'adopt' });
    if (this.err) throw this.err;
  }
  async releasePod(pod: Pod) {
    this.patches.push({ pod: pod.metadata.name ?? '', op: 'release' });
    if (this.err) throw this.err;
  }
  async writeStatus(obj: Workload, status: WorkloadStatus) {
    if (this.statusErr) throw this.statusErr;
    this.statuses.push(status);
    return { ...obj, status } as Workload;
  }

  /** The counts upstream's validateSyncReplicaSet compares. */
  counts() {
    return { creates: this.created.length, deletes: this.deleted.length, patches: this.patches.length };
  }
}
