/**
 * A fake DisruptionClient and the objects of upstream disruption_test.go (newPod,
 * newReplicationController, newReplicaSet, newDeployment, newStatefulSet, the min/max budget
 * builders, updatePodOwnerTo*), held in memory as upstream's fake informers hold them; status
 * writes are kept by budget key as upstream's pdbStates, or applied with a resourceVersion
 * check when `checkResourceVersion` is set (upstream's real writePdbStatus over the fake
 * clientset).
 */
import { randomUUID } from 'node:crypto';
import type { ApiObject } from '../../api/object.js';
import { conflict } from '../../errors/api-error.js';
import type { Deployment } from '../../resources/deployments/deployments.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { PodDisruptionBudget } from '../../resources/poddisruptionbudgets/poddisruptionbudgets.schema.js';
import type { ReplicaSet } from '../../resources/replicasets/replicasets.schema.js';
import type { ReplicationController } from '../../resources/replicationcontrollers/replicationcontrollers.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import type { LegacyEvent } from '../events.js';
import type { DisruptionClient, ScaleAnswer } from './types.js';

export const NS = 'default';
export const fooBar = () => ({ foo: 'bar' });

type Named = { metadata: { name?: string | null } };
const byName = <T extends Named>(list: readonly T[], name: string) => list.find((o) => o.metadata.name === name);

export class FakeDisruptionClient implements DisruptionClient {
  pdbs: PodDisruptionBudget[] = [];
  pods: Pod[] = [];
  replicaSets: ReplicaSet[] = [];
  deployments: Deployment[] = [];
  statefulSets: StatefulSet[] = [];
  replicationControllers: ReplicationController[] = [];
  /** Scales by `<apiVersion>/<kind>/<name>`; a kind absent from `scaleKinds` is not served. */
  readonly scales = new Map<string, ScaleAnswer>();
  /** `<apiVersion>/<kind>` served, with whether it has a scale subresource. */
  readonly scaleKinds = new Map<string, boolean>();
  /** Status writes, by budget name (upstream pdbStates). */
  readonly written = new Map<string, PodDisruptionBudget>();
  readonly events: { kind: string; name: string; event: LegacyEvent }[] = [];
  /** Pod status writes made. */
  podStatusWrites = 0;
  /** Apply writes to `pdbs` with a resourceVersion check (409 when it moved). */
  checkResourceVersion = false;
  /** Called before a write is applied (to race it, as upstream's reactor does). */
  beforeWrite: (() => void) | undefined;

  async getPdb(_ns: string, name: string) {
    return byName(this.pdbs, name);
  }
  async listPdbs(ns: string) {
    return this.pdbs.filter((p) => p.metadata.namespace === ns);
  }
  async listPods(ns: string) {
    return this.pods.filter((p) => p.metadata.namespace === ns);
  }
  async getPod(_ns: string, name: string) {
    return byName(this.pods, name);
  }
  async writePodStatus(pod: Pod) {
    const i = this.pods.findIndex((p) => p.metadata.name === pod.metadata.name);
    this.pods[i] = structuredClone(pod);
    this.podStatusWrites++;
  }
  async getReplicaSet(_ns: string, name: string) {
    return byName(this.replicaSets, name);
  }
  async getDeployment(_ns: string, name: string) {
    return byName(this.deployments, name);
  }
  async getStatefulSet(_ns: string, name: string) {
    return byName(this.statefulSets, name);
  }
  async getReplicationController(_ns: string, name: string) {
    return byName(this.replicationControllers, name);
  }
  async getScale(apiVersion: string, kind: string, _ns: string, name: string) {
    const served = this.scaleKinds.get(`${apiVersion}/${kind}`);
    if (served === undefined) throw new Error(`no matches for kind "${kind}" in version "${apiVersion}"`);
    if (!served) throw new Error(`${kind.toLowerCase()}s does not implement the scale subresource`);
    return this.scales.get(`${apiVersion}/${kind}/${name}`);
  }
  async writeStatus(pdb: PodDisruptionBudget) {
    const name = pdb.metadata.name ?? '';
    this.beforeWrite?.();
    this.beforeWrite = undefined;
    if (this.checkResourceVersion) {
      const i = this.pdbs.findIndex((p) => p.metadata.name === name);
      if (this.pdbs[i].metadata.resourceVersion !== pdb.metadata.resourceVersion)
        throw conflict('poddisruptionbudgets', name, 'the object has been modified', 'policy');
      this.pdbs[i] = { ...pdb, metadata: { ...pdb.metadata, resourceVersion: bump(pdb) } };
    }
    this.written.set(name, structuredClone(pdb));
  }
  record(obj: ApiObject, kind: string, event: LegacyEvent) {
    this.events.push({ kind, name: obj.metadata.name ?? '', event });
  }

  /** Reasons of the Events recorded. */
  reasons(): string[] {
    return this.events.map((e) => e.event.reason);
  }
}

const bump = (o: ApiObject) => String(Number(o.metadata.resourceVersion ?? '0') + 1);

const meta = (name: string, labels?: Record<string, string>) => ({
  uid: randomUUID(),
  name,
  namespace: NS,
  resourceVersion: '18',
  ...(labels ? { labels } : {}),
});

/** Upstream newMinAvailablePodDisruptionBudget / newMaxUnavailablePodDisruptionBudget. */
export function newPdb(budget: { minAvailable: number | string } | { maxUnavailable: number | string }) {
  return { metadata: meta('foobar'), spec: { ...budget, selector: { matchLabels: fooBar() } } } as PodDisruptionBudget;
}

/** Upstream newPod: labels foo=bar, Ready. */
export function newPod(name: string): Pod {
  return {
    metadata: { ...meta(name, fooBar()), annotations: {} },
    spec: { containers: [] },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  } as unknown as Pod;
}

export const newReplicationController = (size: number) =>
  ({ metadata: meta('foobar', fooBar()), spec: { replicas: size, selector: fooBar() } }) as ReplicationController;
export const newReplicaSet = (size: number) =>
  ({ metadata: meta('foobar', fooBar()), spec: { replicas: size, selector: { matchLabels: fooBar() } } }) as ReplicaSet;
export const newDeployment = (size: number) =>
  ({ metadata: meta('foobar', fooBar()), spec: { replicas: size, selector: { matchLabels: fooBar() } } }) as Deployment;
export const newStatefulSet = (size: number) =>
  ({
    metadata: meta('foobar', fooBar()),
    spec: { replicas: size, selector: { matchLabels: fooBar() } },
  }) as StatefulSet;

/** Upstream updatePodOwnerToRc / ToRs / ToSs: append a controllerRef to `owner`. */
export function setOwner(pod: Pod, owner: ApiObject, apiVersion: string, kind: string): void {
  const ref = { apiVersion, kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true };
  pod.metadata.ownerReferences = [...(pod.metadata.ownerReferences ?? []), ref];
}

/** A pod not Ready (upstream: `pod.Status.Conditions = []v1.PodCondition{}`). */
export function setUnready(pod: Pod): void {
  pod.status = { ...pod.status, conditions: [] };
}

/** What upstream's VerifyPdbStatus compares of a written status (absent counts are Go's zeros). */
export interface StatusSummary {
  readonly disruptionsAllowed: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly expectedPods: number;
  readonly disruptedPods: Readonly<Record<string, string>>;
  /** observedGeneration equals the budget's generation. */
  readonly observedCurrentGeneration: boolean;
  /** The DisruptionAllowed condition's status. */
  readonly disruptionAllowed: string | undefined;
}

/** The summary of the last status written for `name` (undefined when none was). */
export function writtenStatus(c: FakeDisruptionClient, name = 'foobar'): StatusSummary | undefined {
  const pdb = c.written.get(name);
  if (!pdb) return undefined;
  const s = pdb.status ?? {};
  return {
    disruptionsAllowed: s.disruptionsAllowed ?? 0,
    currentHealthy: s.currentHealthy ?? 0,
    desiredHealthy: s.desiredHealthy ?? 0,
    expectedPods: s.expectedPods ?? 0,
    disruptedPods: s.disruptedPods ?? {},
    observedCurrentGeneration: (s.observedGeneration ?? 0) === (pdb.metadata.generation ?? 0),
    disruptionAllowed: s.conditions?.find((x) => x.type === 'DisruptionAllowed')?.status,
  };
}

/** Upstream VerifyPdbStatus's expectation: the counts, the current generation, the condition agreeing. */
export function expectedStatus(
  allowed: number,
  current: number,
  desired: number,
  expected: number,
  disruptedPods: Record<string, string> = {},
): StatusSummary {
  return {
    disruptionsAllowed: allowed,
    currentHealthy: current,
    desiredHealthy: desired,
    expectedPods: expected,
    disruptedPods,
    observedCurrentGeneration: true,
    disruptionAllowed: allowed > 0 ? 'True' : 'False',
  };
}
