/**
 * What the DaemonSet sync tests build, after upstream 1.33 daemon_controller_test.go's helpers:
 * newDaemonSet, newNode, addNodes, addPods, markPodsReady, the fake pod control (created pods
 * land in the pod store, deleted ones leave it at once) and the fake clientset's
 * ControllerRevisions, all in memory; expectSync runs one sync and compares the creations,
 * deletions and Events with upstream's expectSyncDaemonSets.
 */
import { expect } from 'vitest';
import type { OwnerReference } from '../../api/object.js';
import { ApiError, alreadyExists } from '../../errors/api-error.js';
import type { ControllerRevision } from '../../resources/controllerrevisions/controllerrevisions.schema.js';
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { computeHash } from '../deployment/hash.js';
import { ControllerExpectations } from '../replicaset/expectations.js';
import { CONTROLLER_REVISION_HASH } from './daemonset-util.js';
import { FailedPodsBackoff } from './failed-pods-backoff.js';
import { syncDaemonSet } from './sync.js';
import type { DaemonSetClient, DaemonSetStatus, SyncDeps } from './types.js';

export const simpleDaemonSetLabel = { name: 'simple-daemon', type: 'production' };
export const simpleDaemonSetLabel2 = { name: 'simple-daemon', type: 'test' };
export const simpleNodeLabel = { color: 'blue', speed: 'fast' };
export const noScheduleTaints = [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }];

let uid = 0;
const notFound = (what: string) => new ApiError(404, 'NotFound', `${what} not found`);

/** Upstream newDaemonSet: OnDelete, selector and template labels simpleDaemonSetLabel, history limit 2. */
export function newDaemonSet(name = 'foo', strategy?: unknown): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'default', uid: `ds-${++uid}`, generation: 1 },
    spec: {
      revisionHistoryLimit: 2,
      updateStrategy: (strategy as never) ?? { type: 'OnDelete' },
      selector: { matchLabels: { ...simpleDaemonSetLabel } },
      template: {
        metadata: { labels: { ...simpleDaemonSetLabel } },
        spec: { containers: [{ name: 'c', image: 'foo/bar' }] },
      },
    },
  } as DaemonSet;
}

/** Upstream newNode: Ready, with `labels`. */
export function newNode(name: string, labels?: Record<string, string>, spec: Record<string, unknown> = {}): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    spec,
    status: { conditions: [{ type: 'Ready', status: 'True' }], allocatable: { pods: '100' } },
  } as Node;
}

/** In-memory stores and a recording pod control. */
export class FakeDaemonSetClient implements DaemonSetClient {
  readonly sets = new Map<string, DaemonSet>();
  nodes: Node[] = [];
  pods: Pod[] = [];
  revisions: ControllerRevision[] = [];
  created: Pod[] = [];
  deleted: string[] = [];
  events: { reason: string; message: string }[] = [];
  statuses: DaemonSetStatus[] = [];
  /** Called on each pod write, as upstream's fake pod control observes its own expectations. */
  observe: { created(dsKey: string): void; deleted(dsKey: string, podKey: string): void } | undefined;
  private seq = 0;

  /** Upstream addNodes: nodes `node-<start>` ... with `labels`. */
  addNodes(start: number, count: number, labels?: Record<string, string>, spec?: Record<string, unknown>): void {
    for (let i = start; i < start + count; i++) this.nodes.push(newNode(`node-${i}`, labels, spec));
  }

  /** Upstream addPods: `count` pods of `ds` bound to `node` with `labels` and the template's hash. */
  addPods(
    node: string,
    count: number,
    ds: DaemonSet,
    labels: Record<string, string> = simpleDaemonSetLabel,
    extra: Partial<Pod> = {},
  ): void {
    for (let i = 0; i < count; i++) this.pods.push(this.pod({ nodeName: node }, labels, ds, extra));
  }

  /** Upstream markPodsReady: every pod Ready since a minute ago. */
  markPodsReady(): void {
    const since = new Date(Date.now() - 60_000).toISOString();
    for (const p of this.pods)
      p.status = { ...p.status, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: since }] };
  }

  clear(): void {
    this.created = [];
    this.deleted = [];
    this.events = [];
  }

  private pod(spec: Record<string, unknown>, labels: Record<string, string>, ds: DaemonSet, extra: Partial<Pod>): Pod {
    const name = `pod-${++this.seq}`;
    const ref: OwnerReference = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      name: ds.metadata.name ?? '',
      uid: ds.metadata.uid ?? '',
      controller: true,
    };
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      ...extra,
      metadata: {
        name,
        namespace: 'default',
        uid: `pod-uid-${this.seq}`,
        labels: { ...labels, [CONTROLLER_REVISION_HASH]: computeHash(ds.spec?.template, ds.status?.collisionCount) },
        ownerReferences: [ref],
        creationTimestamp: new Date(Date.now() + this.seq).toISOString(),
        ...extra.metadata,
      },
      spec: { ...ds.spec?.template?.spec, ...spec },
    } as Pod;
  }

  getDaemonSet = async (_ns: string, name: string) => this.sets.get(name);
  getDaemonSetFresh = async (ns: string, name: string) => {
    const ds = this.sets.get(name);
    if (!ds) throw notFound(`${ns}/${name}`);
    return ds;
  };
  listNodes = async () => this.nodes;
  listPods = async () => this.pods;
  listRevisions = async () => this.revisions;
  createPod = async (ns: string, pod: Pod, ds: DaemonSet) => {
    const stored = {
      ...pod,
      metadata: {
        ...pod.metadata,
        name: `${pod.metadata.generateName}${++this.seq}`,
        uid: `pod-uid-${this.seq}`,
        creationTimestamp: new Date(Date.now() + this.seq).toISOString(),
      },
    };
    this.created.push(stored);
    this.pods.push(stored);
    this.observe?.created(`${ns}/${ds.metadata.name}`);
  };
  deletePod = async (ns: string, name: string, ds: DaemonSet) => {
    this.deleted.push(name);
    this.pods = this.pods.filter((p) => p.metadata.name !== name);
    this.observe?.deleted(`${ns}/${ds.metadata.name}`, `${ns}/${name}`);
  };
  labelPod = async (_ns: string, name: string, labels: Readonly<Record<string, string>>) => {
    for (const p of this.pods) if (p.metadata.name === name) p.metadata.labels = { ...p.metadata.labels, ...labels };
  };
  adoptPod = async () => {};
  releasePod = async () => {};
  createRevision = async (rev: ControllerRevision) => {
    if (this.revisions.some((r) => r.metadata.name === rev.metadata.name))
      throw alreadyExists('controllerrevisions', rev.metadata.name ?? '', 'apps');
    this.revisions.push(structuredClone(rev));
    return rev;
  };
  getRevisionFresh = async (_ns: string, name: string) => {
    const rev = this.revisions.find((r) => r.metadata.name === name);
    if (!rev) throw notFound(name);
    return rev;
  };
  updateRevision = async (rev: ControllerRevision) => {
    this.revisions = this.revisions.map((r) => (r.metadata.name === rev.metadata.name ? rev : r));
    return rev;
  };
  deleteRevision = async (_ns: string, name: string) => {
    this.revisions = this.revisions.filter((r) => r.metadata.name !== name);
  };
  /** Revisions adopted, by name. */
  adoptedRevisions: string[] = [];
  adoptRevision = async (rev: ControllerRevision) => {
    this.adoptedRevisions.push(rev.metadata.name ?? '');
  };
  releaseRevision = async () => {};
  writeStatus = async (ds: DaemonSet, counts: DaemonSetStatus) => {
    this.statuses.push(counts);
    const cur = this.sets.get(ds.metadata.name ?? '');
    if (cur) cur.status = { ...cur.status, ...counts };
  };
  setCollisionCount = async (ds: DaemonSet, count: number) => {
    const cur = this.sets.get(ds.metadata.name ?? '');
    if (cur) cur.status = { ...cur.status, collisionCount: count };
  };
  event = (_ds: DaemonSet, _type: string, reason: string, message: string) => {
    this.events.push({ reason, message });
  };
}

/** A client with `ds` stored, and sync deps over it (`requeued` records enqueueAfter). */
export function fixture(ds: DaemonSet, now = () => Date.now()) {
  const client = new FakeDaemonSetClient();
  client.sets.set(ds.metadata.name ?? '', ds);
  const requeued: { key: string; ms: number }[] = [];
  const deps: SyncDeps = {
    client,
    creations: new ControllerExpectations(),
    deletions: new ControllerExpectations(),
    backoff: new FailedPodsBackoff(),
    enqueueAfter: (key, ms) => requeued.push({ key, ms }),
    now,
  };
  client.observe = {
    created: (key) => deps.creations.creationObserved(key),
    deleted: (key, podKey) => deps.deletions.deletionObserved(key, podKey),
  };
  return { client, deps, requeued };
}

/**
 * Upstream expectSyncDaemonSets after clearExpectations: one sync of `ds` (expectations met
 * first, as the fake pod control observes its own writes), then the counts of creations,
 * deletions and the controller's Events; the recorded writes are cleared.
 */
export async function expectSync(
  ds: DaemonSet,
  { client, deps }: ReturnType<typeof fixture>,
  creates: number,
  deletes: number,
  events = 0,
): Promise<void> {
  const key = `${ds.metadata.namespace}/${ds.metadata.name}`;
  deps.creations.delete(key);
  deps.deletions.delete(key);
  client.clear();
  await syncDaemonSet(ds.metadata.namespace ?? '', ds.metadata.name ?? '', deps);
  expect({ creates: client.created.length, deletes: client.deleted.length, events: client.events.length }).toEqual({
    creates,
    deletes,
    events,
  });
}
