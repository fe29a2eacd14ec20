import { describe, expect, it } from 'vitest';
import { controllerEnabled } from './controllers.js';
import { loadConfig } from './load-config.js';

describe('--controllers (upstream IsControllerEnabled)', () => {
  it.each([
    [['*'], 'replicaset', true, true],
    [['*'], 'bootstrapsigner', false, false],
    [['*', '-replicaset'], 'replicaset', true, false],
    [['*', 'bootstrapsigner'], 'bootstrapsigner', false, true],
    [['replicaset'], 'deployment', true, false],
    [['replicaset', '-replicaset'], 'replicaset', true, false],
    [[], 'replicaset', true, false],
    // Canonical names and their aliases are one controller (upstream ControllerDescriptor aliases).
    [['*', '-replicaset-controller'], 'replicaset', true, false],
    [['replicaset'], 'replicaset-controller', false, true],
    [['horizontal-pod-autoscaler-controller'], 'horizontalpodautoscaling', false, true],
    [['*', '-nodelifecycle'], 'node-lifecycle-controller', true, false],
    [['taint-eviction-controller'], 'taint-eviction-controller', false, true],
  ] as const)('%j: %s (on by default %s) runs: %s', (flag, name, onByDefault, runs) => {
    expect(controllerEnabled(flag, name, onByDefault)).toBe(runs);
  });

  it('reads the flag and --simulated-nodes', () => {
    const config = loadConfig(['--controllers=*,-deployment', '--simulated-nodes=3'], {});
    expect(config.controllers).toEqual(['*', '-deployment']);
    expect(config.simulatedNodes).toBe(3);
    expect(loadConfig([], {}).controllers).toEqual(['*']);
    expect(() => loadConfig(['--simulated-nodes=-1'], {})).toThrow();
    expect(loadConfig([], {}).scheduler).toBe('auto');
    expect(loadConfig(['--scheduler=false'], {}).scheduler).toBe('false');
    expect(() => loadConfig(['--scheduler=maybe'], {})).toThrow();
  });

  it("reads kube-controller-manager's flags of the controllers with upstream's rules", () => {
    const config = loadConfig(
      [
        '--horizontal-pod-autoscaler-sync-period=5s',
        '--horizontal-pod-autoscaler-tolerance=0.2',
        '--node-monitor-grace-period=1m30s',
        '--node-eviction-rate=0.5',
        '--large-cluster-size-threshold=10',
        '--cluster-signing-duration=24h',
        '--cluster-signing-kubelet-serving-cert-file=/ca.crt',
        '--cluster-signing-kubelet-serving-key-file=/ca.key',
        '--simulated-nodes-config=/sim.yaml',
      ],
      {},
    );
    expect(config.controllerManager).toMatchObject({
      hpa: { syncPeriodMs: 5000, tolerance: 0.2 },
      nodeLifecycle: { nodeMonitorGracePeriodMs: 90_000, evictionLimiterQps: 0.5, largeClusterThreshold: 10 },
      signing: {
        clusterSigningDurationSeconds: 86_400,
        signerFiles: { 'kubernetes.io/kubelet-serving': { certFile: '/ca.crt', keyFile: '/ca.key' } },
      },
      simulatedNodesConfig: '/sim.yaml',
    });
    expect(loadConfig([], {}).controllerManager?.hpa.syncPeriodMs).toBeUndefined();
    expect(() => loadConfig(['--cluster-signing-kubelet-client-cert-file=/a'], {})).toThrow(
      '"cluster-signing-kubelet-client": cannot specify cert without key',
    );
    expect(() =>
      loadConfig(
        [
          '--cluster-signing-cert-file=/a',
          '--cluster-signing-key-file=/b',
          '--cluster-signing-legacy-unknown-cert-file=/c',
          '--cluster-signing-legacy-unknown-key-file=/d',
        ],
        {},
      ),
    ).toThrow('cannot specify default and per controller certs at the same time');
    expect(() => loadConfig(['--node-monitor-period=soon'], {})).toThrow('invalid --node-monitor-period "soon"');
    expect(() => loadConfig(['--node-eviction-rate=-1'], {})).toThrow('invalid --node-eviction-rate "-1"');
  });
});
