import { describe, expect, it } from 'vitest';
import { containersReadyCondition, podInitializedCondition, podReadyCondition, type SpecView } from './conditions.js';

const containers = (...names: string[]) => names.map((name) => ({ name, image: 'x' }));
const status = (name: string, ready: boolean, extra: object = {}) =>
  ({ name, ready, image: 'x', imageID: '', restartCount: 0, ...extra }) as never;
const readyCondition = (ok: boolean, reason?: string, message?: string) => ({
  type: 'Ready',
  status: ok ? 'True' : 'False',
  ...(reason ? { reason } : {}),
  ...(message ? { message } : {}),
});

// Upstream pkg/kubelet/status/generate_test.go TestGeneratePodReadyCondition, case by case.
describe('podReadyCondition (upstream TestGeneratePodReadyCondition)', () => {
  const cases: [string, SpecView | undefined, never[] | undefined, string, object][] = [
    ['no spec, no statuses', undefined, undefined, 'Running', readyCondition(false, 'UnknownContainerStatuses')],
    ['no containers', {}, [], 'Running', readyCondition(true)],
    [
      'a container without status',
      { containers: containers('1234') },
      [],
      'Running',
      readyCondition(false, 'ContainersNotReady', 'containers with unknown status: [1234]'),
    ],
    [
      'all ready',
      { containers: containers('1234', '5678') },
      [status('1234', true), status('5678', true)],
      'Running',
      readyCondition(true),
    ],
    [
      'one without status',
      { containers: containers('1234', '5678') },
      [status('1234', true)],
      'Running',
      readyCondition(false, 'ContainersNotReady', 'containers with unknown status: [5678]'),
    ],
    [
      'one unready',
      { containers: containers('1234', '5678') },
      [status('1234', true), status('5678', false)],
      'Running',
      readyCondition(false, 'ContainersNotReady', 'containers with unready status: [5678]'),
    ],
    [
      'succeeded',
      { containers: containers('1234') },
      [status('1234', false)],
      'Succeeded',
      readyCondition(false, 'PodCompleted'),
    ],
  ];
  it.each(cases)('%s', (_name, spec, statuses, phase, expected) => {
    expect(podReadyCondition(spec, [], statuses, phase)).toEqual(expected);
  });
});

describe('containersReadyCondition and podInitializedCondition (generate.go)', () => {
  it('counts sidecars among the containers to be ready and reports a failed pod PodFailed', () => {
    const spec = {
      initContainers: [{ name: 'proxy', image: 'x', restartPolicy: 'Always' }],
      containers: containers('app'),
    };
    expect(containersReadyCondition(spec, [status('app', true)], 'Running')).toEqual({
      type: 'ContainersReady',
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unknown status: [proxy]',
    });
    expect(containersReadyCondition(spec, [status('app', true)], 'Failed')).toMatchObject({ reason: 'PodFailed' });
  });

  it('is Initialized once the init containers completed, or once a regular container started', () => {
    const spec = { initContainers: containers('i1', 'i2'), containers: containers('app') };
    expect(podInitializedCondition(spec, undefined, 'Pending')).toMatchObject({ reason: 'UnknownContainerStatuses' });
    expect(podInitializedCondition(spec, [status('i1', true)], 'Pending')).toEqual({
      type: 'Initialized',
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with unknown status: [i2]',
    });
    expect(podInitializedCondition(spec, [status('i1', true), status('i2', true)], 'Pending').status).toBe('True');
    const restarting = [status('i1', false), status('i2', false), status('app', false, { state: { running: {} } })];
    expect(podInitializedCondition(spec, restarting, 'Running').status).toBe('True');
    expect(podInitializedCondition(spec, [status('i1', true), status('i2', true)], 'Succeeded')).toMatchObject({
      reason: 'PodCompleted',
    });
  });
});
