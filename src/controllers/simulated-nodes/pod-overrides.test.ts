/** Per-pod stage annotations, as the status a simulated kubelet reports shows them. */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { resolveOptions } from './options.js';
import { terminationDue } from './pod-agent.js';
import { podOverrides } from './pod-overrides.js';
import { simulatePodStatus, type PodStatus } from './pod-status.js';

const opts = resolveOptions({
  count: 1,
  podStartMs: 500,
  initContainerRunMs: 200,
  restartBackoffMs: 10_000,
  podTerminationMs: 1000,
});
const T0 = Date.parse('2026-01-01T00:00:00Z');
const view = (afterMs: number) => ({ hostIP: '172.18.0.2', podIP: '10.64.0.2', startMs: T0, nowMs: T0 + afterMs });

function pod(annotations: Record<string, string>, spec: Partial<NonNullable<Pod['spec']>> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'ns', uid: 'u-1', annotations },
    spec: {
      nodeName: 'sim-node-0',
      containers: [
        { name: 'a', image: 'nginx' },
        { name: 'b', image: 'registry.example/nope:1' },
      ],
      ...spec,
    },
    status: { phase: 'Pending' },
  } as Pod;
}

const at = (p: Pod, ms: number) => simulatePodStatus(p, view(ms), opts);
const ready = (s: PodStatus) => s.conditions?.find((c) => c.type === 'Ready')?.status;
const waiting = (s: PodStatus) =>
  s.containerStatuses?.map((c) => c.state?.waiting?.reason ?? Object.keys(c.state ?? {})[0]);

describe('sim.ck.io/start-delay-seconds', () => {
  it('keeps the pod Pending / ContainerCreating for that long instead of podStartMs', () => {
    const p = pod({ 'sim.ck.io/start-delay-seconds': '3' });
    expect(at(p, 2900).status.phase).toBe('Pending');
    expect(at(p, 2900).nextMs).toBe(T0 + 3000);
    expect(at(p, 3000).status.phase).toBe('Running');
  });

  it('ignores a malformed value', () => {
    expect(at(pod({ 'sim.ck.io/start-delay-seconds': 'soon' }), 600).status.phase).toBe('Running');
  });
});

describe('sim.ck.io/ready-delay-seconds and never-ready', () => {
  it('makes the containers ready that long after they start', () => {
    const p = pod({ 'sim.ck.io/ready-delay-seconds': '2.5' });
    const running = at(p, 1000);
    expect([running.status.phase, ready(running.status)]).toEqual(['Running', 'False']);
    expect(running.nextMs).toBe(T0 + 3000);
    expect(ready(at(p, 3000).status)).toBe('True');
  });

  it('overrides a readinessProbe delay', () => {
    const p = pod({ 'sim.ck.io/ready-delay-seconds': '0' }, {
      containers: [{ name: 'a', image: 'nginx', readinessProbe: { initialDelaySeconds: 60 } }],
    } as Partial<NonNullable<Pod['spec']>>);
    expect(ready(at(p, 600).status)).toBe('True');
  });

  it('never-ready pods run but never become ready and do not wake the agent for it', () => {
    const p = pod({ 'sim.ck.io/never-ready': 'true' });
    const later = at(p, 3_600_000);
    expect(later.status.phase).toBe('Running');
    expect(later.status.containerStatuses?.map((c) => [c.ready, c.started])).toEqual([
      [false, true],
      [false, true],
    ]);
    expect(later.status.conditions?.find((c) => c.type === 'ContainersReady')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [a b]',
    });
    expect(later.nextMs).toBeUndefined();
  });
});

describe('sim.ck.io/image-pull-error', () => {
  it('keeps every container Waiting: ErrImagePull, then ImagePullBackOff until the next try, doubling', () => {
    const p = pod({ 'sim.ck.io/image-pull-error': 'true' });
    const first = at(p, 600);
    expect(first.status.phase).toBe('Pending');
    expect(waiting(first.status)).toEqual(['ErrImagePull', 'ErrImagePull']);
    expect(first.status.containerStatuses?.[0]?.state?.waiting?.message).toBe(
      'Failed to pull image "nginx": rpc error: code = NotFound desc = failed to pull and unpack image ' +
        '"docker.io/library/nginx:latest": failed to resolve reference "docker.io/library/nginx:latest": ' +
        'docker.io/library/nginx:latest: not found',
    );
    expect(first.nextMs).toBe(T0 + 1500);
    const backoff = at(p, 1500);
    expect(waiting(backoff.status)).toEqual(['ImagePullBackOff', 'ImagePullBackOff']);
    expect(backoff.status.containerStatuses?.[1]?.state?.waiting?.message).toBe(
      'Back-off pulling image "registry.example/nope:1"',
    );
    // Tries at 0.5 s, 10.5 s, 30.5 s (back-off 10 s, then 20 s).
    expect(backoff.nextMs).toBe(T0 + 10_500);
    expect(waiting(at(p, 10_600).status)).toEqual(['ErrImagePull', 'ErrImagePull']);
    expect(at(p, 12_000).nextMs).toBe(T0 + 30_500);
    expect(ready(at(p, 60_000).status)).toBe('False');
    expect(at(p, 60_000).status.podIP).toBe('10.64.0.2');
  });

  it('fails only the named containers; the pod runs with the others', () => {
    const p = pod({ 'sim.ck.io/image-pull-error': 'b' });
    const s = at(p, 2000).status;
    expect(s.phase).toBe('Running');
    expect(waiting(s)).toEqual(['running', 'ImagePullBackOff']);
    expect(ready(s)).toBe('False');
  });

  it('stops a pod at a failing init container', () => {
    const p = pod({ 'sim.ck.io/image-pull-error': 'init' }, { initContainers: [{ name: 'init', image: 'busybox' }] });
    const s = at(p, 5000).status;
    expect(s.phase).toBe('Pending');
    expect(s.initContainerStatuses?.[0]?.state?.waiting?.reason).toBe('ImagePullBackOff');
    expect(waiting(s)).toEqual(['PodInitializing', 'PodInitializing']);
  });

  it('keeps a job pod whose image is missing from ending', () => {
    const p = pod({ 'sim.ck.io/image-pull-error': 'true', 'sim.ck.io/run-seconds': '1' }, { restartPolicy: 'Never' });
    expect(at(p, 60_000).status.phase).toBe('Pending');
  });
});

describe('termination annotations', () => {
  const deleted = '2026-01-01T00:00:30Z';
  const seen = T0;

  it('termination-seconds sets how long the containers take to stop, within the grace period', () => {
    const p = pod({ 'sim.ck.io/termination-seconds': '5' });
    expect(terminationDue(deleted, seen, podOverrides(p, opts).terminationMs)).toBe(T0 + 5000);
    const slow = pod({ 'sim.ck.io/termination-seconds': '120' });
    expect(terminationDue(deleted, seen, podOverrides(slow, opts).terminationMs)).toBe(T0 + 30_000);
  });

  it('ignore-sigterm honours the whole grace period', () => {
    const p = pod({ 'sim.ck.io/ignore-sigterm': 'true' });
    expect(terminationDue(deleted, seen, podOverrides(p, opts).terminationMs)).toBe(T0 + 30_000);
    expect(terminationDue(deleted, seen, podOverrides(pod({}), opts).terminationMs)).toBe(T0 + 1000);
  });
});
