/**
 * Fixtures of the taint eviction tests (upstream testutil.NewPod, NewNode, createNoExecuteTaint,
 * addToleration, addTaintsToNode, and a fake clientset recording patch and delete actions).
 */
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { EvictionClient } from './eviction.js';
import type { Taint, Toleration } from './tolerations.js';

/** upstream testutil.NewPod: Ready True, in namespace default. */
export function newPod(name: string, nodeName: string, tolerations?: Toleration[]): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: { nodeName, containers: [{ name: 'c', image: 'i' }], ...(tolerations ? { tolerations } : {}) },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  } as Pod;
}

/** upstream createNoExecuteTaint(i). */
export const taint = (i: number): Taint => ({
  key: `testTaint${i}`,
  value: `test${i}`,
  effect: 'NoExecute',
  timeAdded: '2026-01-01T00:00:00Z',
});

/** upstream addToleration: a toleration of taint i; seconds < 0 means none (forever). */
export const tolerating = (pod: Pod, i: number, seconds: number): Pod => ({
  ...pod,
  spec: {
    ...pod.spec!,
    tolerations: [
      {
        key: `testTaint${i}`,
        value: `test${i}`,
        effect: 'NoExecute',
        ...(seconds < 0 ? {} : { tolerationSeconds: seconds }),
      },
    ],
  },
});

/** upstream testutil.NewNode with addTaintsToNode(indices). */
export const newNode = (name: string, taints?: number[]): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  spec: taints ? { taints: taints.map(taint) } : {},
});

/** The fake client: `actions` lists status patches and deletes, `events` the Events' messages. */
export class FakeClient implements EvictionClient {
  readonly actions: { verb: 'patch' | 'delete'; name: string }[] = [];
  readonly events: string[] = [];
  constructor(readonly pods = new Map<string, Pod>()) {}
  static of(...pods: Pod[]): FakeClient {
    return new FakeClient(new Map(pods.map((p) => [p.metadata.name!, p])));
  }
  podsOnNode = (node: string) => [...this.pods.values()].filter((p) => p.spec?.nodeName === node);
  getPod = async (_ns: string, name: string) => this.pods.get(name);
  writePodStatus = async (pod: Pod, status: NonNullable<Pod['status']>) => {
    this.actions.push({ verb: 'patch', name: pod.metadata.name! });
    this.pods.set(pod.metadata.name!, { ...pod, status });
  };
  deletePod = async (_ns: string, name: string) => {
    this.actions.push({ verb: 'delete', name });
  };
  event = (_ns: string, _name: string, message: string) => void this.events.push(message);
  did(verb: 'patch' | 'delete', name?: string): boolean {
    return this.actions.some((a) => a.verb === verb && (name === undefined || a.name === name));
  }
}
