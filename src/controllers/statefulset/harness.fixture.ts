/**
 * The drivers of upstream's control tests (stateful_set_control_test.go and
 * stateful_set_utils_test.go: newStatefulSet, burst, setPodRunning, setPodReady,
 * scaleUpStatefulSetControl, scaleDownStatefulSetControl, updateStatefulSetControl,
 * updateComplete, assertMonotonicInvariants, assertBurstInvariants, assertUpdateInvariants)
 * over the fake client. Upstream advances a random pod per pass; a seeded generator keeps runs
 * reproducible here.
 */
import { labelSelectorOf, matchesLabels, type LabelSelectorObject } from '../../api/label-selector.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import { updateStatefulSet } from './control.js';
import type { FakeStatefulSetClient } from './fake-client.fixture.js';
import {
  ascendingOrdinal,
  claimsFor,
  identityMatches,
  ordinalOf,
  podRevision,
  replicasOf,
  storageMatches,
} from './identity.js';
import { isRunningAndReady } from './kind.js';

/** A check run after each pass; throws Error naming what broke. */
export type Invariant = (set: StatefulSet, client: FakeStatefulSetClient) => void;

/** Fixed "now" of the tests (ms since the epoch). */
export const NOW = Date.UTC(2026, 5, 1);

/**
 * Upstream newStatefulSetWithVolumes(replicas, name, [datadir], [home]): selector and template
 * labels foo=bar, one nginx container mounting both, a hostPath volume `home`, the claim
 * template `datadir`, serviceName governingsvc, OrderedReady, RollingUpdate (no rollingUpdate),
 * Retain/Retain, revisionHistoryLimit 2, uid `test`.
 */
export function newStatefulSet(replicas: number, name = 'foo'): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: 'default', uid: 'test', generation: 1 },
    spec: {
      podManagementPolicy: 'OrderedReady',
      selector: { matchLabels: { foo: 'bar' } },
      replicas,
      template: {
        metadata: { labels: { foo: 'bar' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx',
              volumeMounts: [
                { name: 'datadir', mountPath: '/tmp/zookeeper' },
                { name: 'home', mountPath: '/home' },
              ],
            },
          ],
          volumes: [{ name: 'home', hostPath: { path: '/tmp/home' } }],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'datadir' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
      serviceName: 'governingsvc',
      updateStrategy: { type: 'RollingUpdate' },
      persistentVolumeClaimRetentionPolicy: { whenScaled: 'Retain', whenDeleted: 'Retain' },
      revisionHistoryLimit: 2,
    },
  };
}

/** podManagementPolicy Parallel (upstream burst). */
export function burst(set: StatefulSet): StatefulSet {
  set.spec!.podManagementPolicy = 'Parallel';
  return set;
}

/** A small deterministic generator (a linear congruential one), for "a random pod". */
export function seeded(seed = 42): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

/** The set's pods in the fake, ascending by ordinal. */
export function podsOf(set: StatefulSet, client: FakeStatefulSetClient): Pod[] {
  const selector = labelSelectorOf(set.spec!.selector as LabelSelectorObject);
  return ascendingOrdinal([...client.pods.values()].filter((p) => matchesLabels(selector, p.metadata.labels)));
}

/** Set a pod's phase (upstream setPodPending / setPodRunning). */
export function setPodPhase(client: FakeStatefulSetClient, pod: Pod, phase: string): void {
  client.pods.set(pod.metadata.name!, { ...pod, status: { ...(pod.status ?? {}), phase } });
}

/** Give a pod the Ready condition (upstream setPodReady). */
export function setPodReady(client: FakeStatefulSetClient, pod: Pod): void {
  const ready = { type: 'Ready', status: 'True', lastTransitionTime: new Date(NOW - 60_000).toISOString() };
  const conditions = [...(pod.status?.conditions ?? []).filter((c) => c.type !== 'Ready'), ready];
  client.pods.set(pod.metadata.name!, { ...pod, status: { ...(pod.status ?? {}), conditions } });
}

/** One control pass over the set's pods; returns the set as the fake holds it afterwards. */
export async function pass(set: StatefulSet, client: FakeStatefulSetClient, maxUnavailable = true) {
  await updateStatefulSet(set, podsOf(set, client), { client, now: NOW, maxUnavailableEnabled: maxUnavailable });
  return client.sets.get(set.metadata.name!) ?? set;
}

/** Move one (random) pod a step toward Running and Ready. */
function advanceOne(set: StatefulSet, client: FakeStatefulSetClient, rand: (n: number) => number): void {
  const pods = podsOf(set, client);
  if (!pods.length) return;
  const pod = pods[rand(pods.length)];
  if (pod.status?.phase === 'Pending') setPodPhase(client, pod, 'Running');
  else if (pod.status?.phase === 'Running') setPodReady(client, pod);
}

const LIMIT = 2000;

/** Upstream scaleUpStatefulSetControl: advance pods and pass until readyReplicas reaches replicas. */
export async function scaleUp(set: StatefulSet, client: FakeStatefulSetClient, inv: Invariant, rand = seeded()) {
  client.sets.set(set.metadata.name!, set);
  for (let i = 0; (set.status?.readyReplicas ?? 0) < replicasOf(set); i++) {
    if (i > LIMIT) throw new Error('scale up did not converge');
    advanceOne(set, client, rand);
    set = await pass(set, client);
    inv(set, client);
  }
  inv(set, client);
  return set;
}

/**
 * Upstream scaleDownStatefulSetControl: pass, then show the highest pod terminating, pass, then
 * remove it, until status.replicas reaches replicas.
 */
export async function scaleDown(set: StatefulSet, client: FakeStatefulSetClient, inv: Invariant) {
  client.sets.set(set.metadata.name!, set);
  for (let i = 0; (set.status?.replicas ?? 0) > replicasOf(set); i++) {
    if (i > LIMIT) throw new Error('scale down did not converge');
    let pods = podsOf(set, client);
    if (pods.length) {
      set = await pass(set, client);
      const last = pods[pods.length - 1];
      const terminating = { ...last, metadata: { ...last.metadata, deletionTimestamp: new Date(NOW).toISOString() } };
      client.pods.set(last.metadata.name!, terminating);
      set = await pass(set, client);
      pods = podsOf(set, client);
      if (pods.length) client.pods.delete(pods[pods.length - 1].metadata.name!);
    }
    set = await pass(set, client);
    inv(set, client);
  }
  inv(set, client);
  return set;
}

/** Upstream updateComplete: every replica exists, is ready and at the revision the strategy asks for. */
export function updateComplete(set: StatefulSet, pods: readonly Pod[]): boolean {
  if (pods.length !== replicasOf(set) || (set.status?.readyReplicas ?? 0) !== replicasOf(set)) return false;
  const strategy = set.spec?.updateStrategy;
  if (strategy?.type === 'OnDelete') return true;
  const partition = strategy?.rollingUpdate?.partition ?? 0;
  if (partition <= 0) {
    if ((set.status?.currentReplicas ?? 0) < replicasOf(set)) return false;
    return pods.every((p) => podRevision(p) === set.status?.currentRevision);
  }
  return pods.slice(partition).every((p) => podRevision(p) === set.status?.updateRevision);
}

/** Upstream updateStatefulSetControl: pass, then advance pods and pass until the update is complete. */
export async function updateControl(set: StatefulSet, client: FakeStatefulSetClient, inv: Invariant, rand = seeded()) {
  client.sets.set(set.metadata.name!, set);
  set = await pass(set, client);
  for (let i = 0; !updateComplete(set, podsOf(set, client)); i++) {
    if (i > LIMIT) throw new Error('update did not converge');
    advanceOne(set, client, rand);
    set = await pass(set, client);
    inv(set, client);
  }
  inv(set, client);
  return set;
}

/** Storage, claims and identity of every pod (the part the three upstream invariants share). */
function assertMembers(set: StatefulSet, client: FakeStatefulSetClient, pods: readonly Pod[]): void {
  for (const pod of pods) {
    if (!storageMatches(set, pod))
      throw new Error(`pod ${pod.metadata.name} does not match the storage of ${set.metadata.name}`);
    for (const claim of claimsFor(set, pod).values())
      if (!client.claims.has(claim.metadata.name!)) throw new Error(`claim ${claim.metadata.name} was not created`);
    if (!identityMatches(set, pod))
      throw new Error(`pod ${pod.metadata.name} does not match the identity of ${set.metadata.name}`);
  }
}

/** Upstream assertMonotonicInvariants: pods in order, none Ready before its predecessor. */
export const assertMonotonicInvariants: Invariant = (set, client) => {
  const pods = podsOf(set, client);
  pods.forEach((pod, ord) => {
    if (ord > 0 && isRunningAndReady(pod) && !isRunningAndReady(pods[ord - 1]))
      throw new Error(
        `successor ${pod.metadata.name} is Running and Ready while ${pods[ord - 1].metadata.name} is not`,
      );
    if (ordinalOf(pod) !== ord) throw new Error(`pod ${pod.metadata.name} deployed in the wrong order ${ord}`);
  });
  assertMembers(set, client, pods);
};

/** Upstream assertBurstInvariants. */
export const assertBurstInvariants: Invariant = (set, client) => assertMembers(set, client, podsOf(set, client));

/** Upstream assertUpdateInvariants: the first currentReplicas pods at currentRevision, the last updatedReplicas at updateRevision. */
export const assertUpdateInvariants: Invariant = (set, client) => {
  const pods = podsOf(set, client);
  assertMembers(set, client, pods);
  if (set.spec?.updateStrategy?.type !== 'RollingUpdate') return;
  const st = set.status ?? {};
  for (let i = 0; i < (st.currentReplicas ?? 0) && i < pods.length; i++)
    if (podRevision(pods[i]) !== st.currentRevision)
      throw new Error(
        `pod ${pods[i].metadata.name} want current revision ${st.currentRevision} got ${podRevision(pods[i])}`,
      );
  for (let i = pods.length - 1, j = 0; j < (st.updatedReplicas ?? 0) && i >= 0; i--, j++)
    if (podRevision(pods[i]) !== st.updateRevision)
      throw new Error(
        `pod ${pods[i].metadata.name} want update revision ${st.updateRevision} got ${podRevision(pods[i])}`,
      );
};
