/**
 * Upstream 1.33 daemon_controller_test.go TestNodeShouldRunDaemonPod (its 11 rows, under both
 * update strategies), plus the taint rows of shouldContinueRunning (NoExecute untolerated: the
 * pod goes; NoSchedule only: it stays) and a template naming another node.
 */
import { describe, expect, it } from 'vitest';
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import { newDaemonSet, newNode, simpleDaemonSetLabel, simpleDaemonSetLabel2 } from './fake-client.fixture.js';
import { nodeShouldRunDaemonPod } from './node-should-run.js';

const resources = (memory: string, cpu: string) => ({ resources: { requests: { memory, cpu } } });
const podSpec = (nodeName: string, memory: string, cpu: string) => ({
  ...(nodeName ? { nodeName } : {}),
  containers: [{ name: 'c', image: 'foo/bar', ...resources(memory, cpu) }],
});
const affinityIn = (value: string) => ({
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'type', operator: 'In', values: [value] }] }],
      },
    },
  },
});
const hostPort = { containers: [{ name: 'c', image: 'foo/bar', ports: [{ containerPort: 80, hostPort: 666 }] }] };

const rows: [string, Record<string, unknown>, boolean, boolean, boolean?][] = [
  ['ShouldRunDaemonPod', podSpec('', '50M', '0.5'), true, true],
  ['InsufficientResourceError', podSpec('', '200M', '0.5'), true, true],
  ['ErrPodNotMatchHostName', podSpec('other-node', '50M', '0.5'), false, false],
  ['ErrPodNotFitsHostPorts (the scheduler decides)', hostPort, true, true],
  ['InsufficientResourceError with a pod on the node', podSpec('', '100M', '0.5'), true, true],
  ['ShouldRunDaemonPod with a pod on the node', podSpec('', '50M', '0.5'), true, true],
  ['ErrNodeSelectorNotMatch', { nodeSelector: simpleDaemonSetLabel2 }, false, false],
  ['ShouldRunDaemonPod (nodeSelector matches)', { nodeSelector: simpleDaemonSetLabel }, true, true],
  ['ErrPodAffinityNotMatch', affinityIn('test'), false, false],
  ['ShouldRunDaemonPod (affinity matches)', affinityIn('production'), true, true],
  ['ShouldRunDaemonPodOnUnschedulableNode', podSpec('', '50M', '0.5'), true, true, true],
];

const strategies = [{ type: 'OnDelete' }, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }];

describe.each(strategies)('NodeShouldRunDaemonPod ($type)', (strategy) => {
  it.each(rows)('%s', (_name, spec, shouldRun, shouldContinueRunning, unschedulable = false) => {
    const ds = newDaemonSet('ds', strategy);
    ds.spec!.template!.spec = { containers: [], ...spec } as never;
    const node = newNode('test-node', simpleDaemonSetLabel, { unschedulable });
    node.status = { ...node.status, allocatable: { memory: '100M', cpu: '1' } };
    expect(nodeShouldRunDaemonPod(node, ds)).toEqual({ shouldRun, shouldContinueRunning });
  });
});

describe('NodeShouldRunDaemonPod and taints', () => {
  const ds = (tolerations: unknown[] = []): DaemonSet => {
    const d = newDaemonSet('ds');
    d.spec!.template!.spec = { containers: [], tolerations } as never;
    return d;
  };
  const tainted = (...taints: { key: string; value?: string; effect: string }[]) => newNode('n', {}, { taints });

  it('an untolerated NoSchedule taint: no new pod, the running one stays', () =>
    expect(nodeShouldRunDaemonPod(tainted({ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }), ds())).toEqual({
      shouldRun: false,
      shouldContinueRunning: true,
    }));
  it('an untolerated NoExecute taint: the running pod goes too', () =>
    expect(nodeShouldRunDaemonPod(tainted({ key: 'dedicated', value: 'user1', effect: 'NoExecute' }), ds())).toEqual({
      shouldRun: false,
      shouldContinueRunning: false,
    }));
  it('a tolerated NoExecute taint', () =>
    expect(
      nodeShouldRunDaemonPod(
        tainted({ key: 'dedicated', value: 'user1', effect: 'NoExecute' }),
        ds([{ key: 'dedicated', operator: 'Exists' }]),
      ),
    ).toEqual({ shouldRun: true, shouldContinueRunning: true }));
  it('PreferNoSchedule is ignored; out-of-service (NoExecute) is not tolerated by default', () => {
    expect(nodeShouldRunDaemonPod(tainted({ key: 'x', effect: 'PreferNoSchedule' }), ds()).shouldRun).toBe(true);
    expect(
      nodeShouldRunDaemonPod(
        tainted({ key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }),
        ds(),
      ),
    ).toEqual({ shouldRun: false, shouldContinueRunning: false });
  });
  it('the unreachable and network-unavailable taints', () => {
    const unreachable = tainted({ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' });
    expect(nodeShouldRunDaemonPod(unreachable, ds()).shouldRun).toBe(true);
    const network = tainted({ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' });
    expect(nodeShouldRunDaemonPod(network, ds()).shouldRun).toBe(false);
    const host = ds();
    host.spec!.template!.spec!.hostNetwork = true;
    expect(nodeShouldRunDaemonPod(network, host).shouldRun).toBe(true);
  });
});
