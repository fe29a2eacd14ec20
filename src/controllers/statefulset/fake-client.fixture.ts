/**
 * An in-memory StatefulSetClient for the unit tests, after upstream's fakeStatefulPodControl,
 * fakeStatefulSetStatusUpdater and fake history (stateful_set_control_test.go, fakes.go): pods,
 * claims, revisions and sets held in maps; a created pod is Pending (as the API server makes
 * it), a deleted one is gone at once; failures injected after N calls (upstream's
 * requestTracker).
 */
import { alreadyExists, notFound } from '../../errors/api-error.js';
import type { ApiObject } from '../../api/object.js';
import type { ControllerRevision } from '../../resources/controllerrevisions/controllerrevisions.schema.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import { controllerOf } from '../replicaset/workload.js';
import type { SetEvent, StatefulSetClient } from './client.js';
import type { StatefulSetStatus } from './kind.js';

/** Fail the call after `after` successful ones, once (upstream requestTracker). */
export class RequestTracker {
  requests = 0;
  err: Error | undefined;
  after = 0;

  /** Throw `err` once `after` calls have passed. */
  set(err: Error, after: number): void {
    this.err = err;
    this.after = after;
  }

  /** Count a call; throws the armed error (then disarms it). */
  check(): void {
    const ready = this.err !== undefined && this.requests >= this.after;
    this.requests++;
    if (ready) {
      const err = this.err;
      this.err = undefined;
      this.after = 0;
      throw err;
    }
  }
}

export class FakeStatefulSetClient implements StatefulSetClient {
  readonly sets = new Map<string, StatefulSet>();
  readonly pods = new Map<string, Pod>();
  readonly claims = new Map<string, PersistentVolumeClaim>();
  readonly revisions = new Map<string, ControllerRevision>();
  readonly events: SetEvent[] = [];
  /** Pod names deleted, in order. */
  readonly deleted: string[] = [];
  readonly createPodTracker = new RequestTracker();
  readonly updatePodTracker = new RequestTracker();
  readonly deletePodTracker = new RequestTracker();
  readonly statusTracker = new RequestTracker();
  private rv = 0;
  private uid = 0;

  private stamp<T extends ApiObject>(obj: T, fresh = false): T {
    const copy = structuredClone(obj);
    copy.metadata.resourceVersion = String(++this.rv);
    if (fresh) {
      copy.metadata.uid = `uid-${++this.uid}`;
      copy.metadata.creationTimestamp = new Date(Date.UTC(2026, 0, 1, 0, 0, this.uid)).toISOString();
    }
    return copy;
  }

  async getSet(_ns: string, name: string) {
    return this.sets.get(name);
  }
  async getSetFresh(ns: string, name: string) {
    const set = this.sets.get(name);
    if (!set) throw notFound('statefulsets', `${ns}/${name}`, 'apps');
    return set;
  }
  async listSets() {
    return [...this.sets.values()];
  }
  async listPods() {
    return [...this.pods.values()];
  }
  async getPod(_ns: string, name: string) {
    return this.pods.get(name);
  }
  async createPod(pod: Pod) {
    this.createPodTracker.check();
    const name = pod.metadata.name ?? '';
    if (this.pods.has(name)) throw alreadyExists('pods', name);
    const created = this.stamp({ ...pod, status: { phase: 'Pending' } }, true);
    this.pods.set(name, created);
    return created;
  }
  async updatePod(pod: Pod) {
    this.updatePodTracker.check();
    const stored = this.stamp(pod);
    this.pods.set(pod.metadata.name ?? '', stored);
    return stored;
  }
  async deletePod(_ns: string, name: string) {
    this.deletePodTracker.check();
    if (!this.pods.delete(name)) throw notFound('pods', name);
    this.deleted.push(name);
  }
  async adoptPod(pod: Pod, ref: NonNullable<Pod['metadata']['ownerReferences']>[number]) {
    const cur = this.pods.get(pod.metadata.name ?? '');
    if (!cur) throw notFound('pods', pod.metadata.name ?? '');
    cur.metadata.ownerReferences = [...(cur.metadata.ownerReferences ?? []), ref];
  }
  async releasePod(pod: Pod, ownerUid: string) {
    const cur = this.pods.get(pod.metadata.name ?? '');
    if (!cur) throw notFound('pods', pod.metadata.name ?? '');
    cur.metadata.ownerReferences = (cur.metadata.ownerReferences ?? []).filter((r) => r.uid !== ownerUid);
  }
  async getClaim(_ns: string, name: string) {
    return this.claims.get(name);
  }
  async createClaim(claim: PersistentVolumeClaim) {
    const name = claim.metadata.name ?? '';
    if (this.claims.has(name)) throw alreadyExists('persistentvolumeclaims', name);
    const created = this.stamp(claim, true);
    this.claims.set(name, created);
    return created;
  }
  async setClaimOwners(
    claim: PersistentVolumeClaim,
    refs: NonNullable<PersistentVolumeClaim['metadata']['ownerReferences']>,
  ) {
    const cur = this.claims.get(claim.metadata.name ?? '');
    if (!cur) throw notFound('persistentvolumeclaims', claim.metadata.name ?? '');
    cur.metadata.ownerReferences = refs;
  }
  async listRevisions() {
    return [...this.revisions.values()];
  }
  async getRevision(_ns: string, name: string) {
    const rev = this.revisions.get(name);
    if (!rev) throw notFound('controllerrevisions', name, 'apps');
    return rev;
  }
  async createRevision(rev: ControllerRevision) {
    const name = rev.metadata.name ?? '';
    if (this.revisions.has(name)) throw alreadyExists('controllerrevisions', name, 'apps');
    const created = this.stamp(rev, true);
    this.revisions.set(name, created);
    return created;
  }
  async setRevisionNumber(rev: ControllerRevision, revision: number) {
    const stored = this.stamp({ ...(await this.getRevision('', rev.metadata.name ?? '')), revision });
    this.revisions.set(rev.metadata.name ?? '', stored);
    return stored;
  }
  async adoptRevision(
    rev: ControllerRevision,
    ref: NonNullable<ControllerRevision['metadata']['ownerReferences']>[number],
  ) {
    const cur = await this.getRevision('', rev.metadata.name ?? '');
    if (controllerOf(cur)) throw new Error('already controlled');
    cur.metadata.ownerReferences = [...(cur.metadata.ownerReferences ?? []), ref];
    return cur;
  }
  async deleteRevision(_ns: string, name: string) {
    if (!this.revisions.delete(name)) throw notFound('controllerrevisions', name, 'apps');
  }
  async writeStatus(set: StatefulSet, status: StatefulSetStatus) {
    this.statusTracker.check();
    const stored = this.stamp({ ...set, status: structuredClone(status) });
    this.sets.set(set.metadata.name ?? '', stored);
    return stored;
  }
  event(_set: StatefulSet, event: SetEvent): void {
    this.events.push(event);
  }
}
