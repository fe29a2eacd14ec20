import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { reportedImage, reportedImageId } from './container-timeline.js';
import { resolveOptions } from './options.js';
import { mergeConditions, simulatePodStatus, type PodStatus } from './pod-status.js';

const opts = resolveOptions({ count: 1, podStartMs: 500, initContainerRunMs: 200, finitePodRunMs: 1000 });
const T0 = Date.parse('2026-01-01T00:00:00Z');
const view = (afterMs: number) => ({ hostIP: '172.18.0.2', podIP: '10.64.0.2', startMs: T0, nowMs: T0 + afterMs });

function pod(spec: Partial<NonNullable<Pod['spec']>> = {}, annotations?: Record<string, string>): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'ns', uid: 'u-1', ...(annotations ? { annotations } : {}) },
    spec: {
      nodeName: 'sim-node-0',
      containers: [
        { name: 'a', image: 'nginx' },
        { name: 'b', image: 'quay.io/x/y:1' },
      ],
      ...spec,
    },
    status: { phase: 'Pending', qosClass: 'BestEffort' },
  } as Pod;
}

const cond = (s: PodStatus, type: string) => s.conditions?.find((c) => c.type === type);
const types = (s: PodStatus) => s.conditions?.map((c) => `${c.type}=${c.status}`);

describe('simulatePodStatus', () => {
  it('reports Pending with ContainerCreating until the sandbox is up, then Running and Ready', () => {
    const before = simulatePodStatus(pod(), view(100), opts);
    expect(before.status.phase).toBe('Pending');
    expect(before.status.containerStatuses?.map((c) => c.state?.waiting?.reason)).toEqual([
      'ContainerCreating',
      'ContainerCreating',
    ]);
    expect(before.status.hostIP).toBe('172.18.0.2');
    expect(before.status.podIP).toBeUndefined();
    expect(types(before.status)).toEqual([
      'PodReadyToStartContainers=False',
      'Initialized=True',
      'Ready=False',
      'ContainersReady=False',
      'PodScheduled=True',
    ]);
    expect(cond(before.status, 'Ready')).toMatchObject({
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [a b]',
    });
    expect(before.nextMs).toBe(T0 + 500);

    const after = simulatePodStatus(pod(), view(600), opts);
    expect(after.status.phase).toBe('Running');
    expect(after.status.podIPs).toEqual([{ ip: '10.64.0.2' }]);
    expect(after.status.startTime).toBe('2026-01-01T00:00:00Z');
    expect(after.status.containerStatuses?.[0]).toMatchObject({
      name: 'a',
      image: 'docker.io/library/nginx:latest',
      ready: true,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
    });
    expect(after.status.containerStatuses?.[0]?.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(types(after.status)?.every((t) => t.endsWith('=True'))).toBe(true);
    expect(after.nextMs).toBeUndefined(); // an Always pod runs until deleted
  });

  it('makes a container with a readinessProbe ready after its initialDelaySeconds', () => {
    const spec = {
      containers: [{ name: 'a', image: 'nginx', readinessProbe: { initialDelaySeconds: 5, httpGet: { port: 80 } } }],
    };
    const early = simulatePodStatus(pod(spec as never), view(2_000), opts);
    expect(early.status.phase).toBe('Running');
    expect(early.status.containerStatuses?.[0]).toMatchObject({ ready: false, started: true });
    expect(cond(early.status, 'ContainersReady')?.status).toBe('False');
    expect(early.nextMs).toBe(T0 + 5_500);
    const late = simulatePodStatus(pod(spec as never), view(5_600), opts);
    expect(late.status.containerStatuses?.[0]?.ready).toBe(true);
    expect(cond(late.status, 'Ready')).toMatchObject({ status: 'True', lastTransitionTime: '2026-01-01T00:00:05Z' });
  });

  it('runs init containers first, one after the other, and reports them Completed', () => {
    const spec = {
      initContainers: [
        { name: 'i1', image: 'busybox' },
        { name: 'i2', image: 'busybox' },
      ],
    };
    const first = simulatePodStatus(pod(spec as never), view(550), opts);
    expect(first.status.phase).toBe('Pending');
    expect(first.status.initContainerStatuses?.map((c) => Object.keys(c.state ?? {})[0])).toEqual([
      'running',
      'waiting',
    ]);
    expect(first.status.containerStatuses?.[0]?.state?.waiting?.reason).toBe('PodInitializing');
    expect(cond(first.status, 'Initialized')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [i1 i2]',
    });
    const done = simulatePodStatus(pod(spec as never), view(950), opts);
    expect(done.status.phase).toBe('Running');
    expect(
      done.status.initContainerStatuses?.map((c) => [
        c.state?.terminated?.reason,
        c.state?.terminated?.exitCode,
        c.ready,
      ]),
    ).toEqual([
      ['Completed', 0, true],
      ['Completed', 0, true],
    ]);
    expect(cond(done.status, 'Initialized')?.status).toBe('True');
  });

  it('starts a sidecar before the next init container and reports it among the containers to be ready', () => {
    const spec = {
      initContainers: [
        {
          name: 'proxy',
          image: 'envoy',
          restartPolicy: 'Always',
          startupProbe: { initialDelaySeconds: 1, exec: { command: ['true'] } },
        },
        { name: 'setup', image: 'busybox' },
      ],
    };
    const starting = simulatePodStatus(pod(spec as never), view(1_000), opts).status;
    expect(starting.initContainerStatuses?.map((c) => [c.name, Object.keys(c.state ?? {})[0], c.started])).toEqual([
      ['proxy', 'running', false],
      ['setup', 'waiting', false],
    ]);
    expect(cond(starting, 'Initialized')?.message).toBe('containers with incomplete status: [proxy setup]');
    const running = simulatePodStatus(pod(spec as never), view(1_800), opts).status;
    expect(running.phase).toBe('Running');
    expect(running.initContainerStatuses?.map((c) => [c.name, c.ready])).toEqual([
      ['proxy', true],
      ['setup', true],
    ]);
    expect(cond(running, 'ContainersReady')?.status).toBe('True');
    const job = pod({ ...spec, restartPolicy: 'Never' } as never);
    const done = simulatePodStatus(job, view(1_700 + 1_000), opts).status;
    expect(done.phase).toBe('Succeeded');
    expect(done.initContainerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });

  it('ends a restartPolicy Never pod Succeeded after the finite run, with the kubelet terminal conditions', () => {
    const s = simulatePodStatus(pod({ restartPolicy: 'Never' }), view(1_600), opts).status;
    expect(s.phase).toBe('Succeeded');
    expect(s.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(cond(s, 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    expect(cond(s, 'Initialized')).toMatchObject({ status: 'True', reason: 'PodCompleted' });
    expect(cond(s, 'PodReadyToStartContainers')?.status).toBe('False');
    expect(simulatePodStatus(pod({ restartPolicy: 'Never' }), view(1_000), opts).status.phase).toBe('Running');
  });

  it('ends a pod Failed with the annotated exit code after the annotated time', () => {
    const annotated = pod({ restartPolicy: 'Never' }, { 'sim.ck.io/exit-code': '3', 'sim.ck.io/run-seconds': '2' });
    expect(simulatePodStatus(annotated, view(2_400), opts).status.phase).toBe('Running');
    const s = simulatePodStatus(annotated, view(2_600), opts).status;
    expect(s.phase).toBe('Failed');
    expect(s.containerStatuses?.[1]?.state?.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect(cond(s, 'ContainersReady')).toMatchObject({ status: 'False', reason: 'PodFailed' });
  });

  it('restarts a failing container of an OnFailure pod after a doubling back-off', () => {
    const failing = pod({ restartPolicy: 'OnFailure' }, { 'sim.ck.io/exit-code': '1', 'sim.ck.io/run-seconds': '1' });
    const crashed = simulatePodStatus(failing, view(2_000), opts);
    const c = crashed.status.containerStatuses?.[0];
    expect(crashed.status.phase).toBe('Running');
    expect(c?.state?.waiting?.reason).toBe('CrashLoopBackOff');
    expect(c?.state?.waiting?.message).toBe('back-off 10s restarting failed container=a pod=web_ns(u-1)');
    expect(c?.lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(crashed.nextMs).toBe(T0 + 1_500 + 10_000);
    const again = simulatePodStatus(failing, view(12_000), opts).status.containerStatuses?.[0];
    expect(again).toMatchObject({ restartCount: 1, ready: true, lastState: { terminated: { exitCode: 1 } } });
    const third = simulatePodStatus(failing, view(12_500 + 1_000 + 15_000), opts).status.containerStatuses?.[0];
    expect(third?.state?.waiting?.message).toMatch(/^back-off 20s/);
    // The 4th back-off (80 s) is printed as Go prints a duration.
    const fourth = simulatePodStatus(
      failing,
      view(1_500 + 10_000 + 1_000 + 20_000 + 1_000 + 40_000 + 1_000 + 5_000),
      opts,
    );
    expect(fourth.status.containerStatuses?.[0]).toMatchObject({ restartCount: 3 });
    expect(fourth.status.containerStatuses?.[0]?.state?.waiting?.message).toMatch(/^back-off 1m20s /);
  });

  it('holds Ready back while a readiness gate is not True', () => {
    const gated = pod({ readinessGates: [{ conditionType: 'example.com/lb' }] });
    const s = simulatePodStatus(gated, view(1_000), opts).status;
    expect(cond(s, 'ContainersReady')?.status).toBe('True');
    expect(cond(s, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ReadinessGatesNotReady',
      message: 'corresponding condition of pod readiness gate "example.com/lb" does not exist.',
    });
    gated.status!.conditions = [{ type: 'example.com/lb', status: 'True' }];
    const open = simulatePodStatus(gated, view(1_000), opts).status;
    expect(cond(open, 'Ready')?.status).toBe('True');
    expect(open.conditions?.at(-1)?.type).toBe('example.com/lb');
  });
});

describe('mergeConditions', () => {
  it('keeps transition times of unchanged conditions, the scheduler PodScheduled and foreign conditions', () => {
    const current = [
      { type: 'PodScheduled', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' },
      { type: 'Ready', status: 'False', lastTransitionTime: '2025-01-01T00:00:01Z', reason: 'ContainersNotReady' },
      { type: 'DisruptionTarget', status: 'True' },
    ];
    const computed = [
      { type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'PodFailed' },
      { type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' },
    ];
    expect(mergeConditions(current, computed)).toEqual([
      { type: 'Ready', status: 'False', lastTransitionTime: '2025-01-01T00:00:01Z', reason: 'PodFailed' },
      { type: 'PodScheduled', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' },
      { type: 'DisruptionTarget', status: 'True' },
    ]);
  });
});

describe('reported images', () => {
  it('qualifies Docker Hub names and keeps registries, tags and digests', () => {
    expect(reportedImage('nginx')).toBe('docker.io/library/nginx:latest');
    expect(reportedImage('bitnami/redis:7')).toBe('docker.io/bitnami/redis:7');
    expect(reportedImage('localhost:5000/app')).toBe('localhost:5000/app:latest');
    expect(reportedImage('registry.k8s.io/pause:3.10')).toBe('registry.k8s.io/pause:3.10');
    expect(reportedImageId('nginx:1.27')).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
  });
});
