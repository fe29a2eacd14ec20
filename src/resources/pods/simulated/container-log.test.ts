/**
 * The log of a simulated container: the run chosen and the kubelet's errors (upstream
 * pkg/kubelet/kubelet_pods_test.go TestValidateContainerLogStatus, ported case by case), and
 * PodLogOptions applied as ReadLogs does (tail before since, timestamps, limitBytes).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../errors/api-error.js';
import type { Pod } from '../pods.schema.js';
import { chooseRun, formatLine, limit, rfc3339Nano, selectLines, type LogOptions } from './container-log.js';

type Status = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];
const NOW = Date.parse('2026-11-28T12:00:00Z');

function pod(statuses: Partial<Status>[], annotations: Record<string, string> = {}, readinessDelay?: number): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'podName', namespace: 'ns', annotations },
    spec: {
      containers: [
        {
          name: 'x',
          image: 'nginx',
          ...(readinessDelay !== undefined ? { readinessProbe: { initialDelaySeconds: readinessDelay } } : {}),
        },
      ],
    },
    status: {
      containerStatuses: statuses.map((s) => ({
        name: 'x',
        image: 'nginx',
        imageID: '',
        ready: false,
        restartCount: 0,
        ...s,
      })),
    },
  } as Pod;
}

const errorOf = (fn: () => unknown): ApiError | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return err as ApiError;
  }
};

describe('chooseRun (upstream TestValidateContainerLogStatus)', () => {
  const id = 'docker://fakeid';
  const cases: [string, Partial<Status>, boolean, boolean][] = [
    [
      'running with a terminated last state',
      { state: { running: {} }, lastState: { terminated: { containerID: id, exitCode: 0 } } },
      true,
      true,
    ],
    ['running', { state: { running: {} } }, true, false],
    ['terminated without id', { state: { terminated: { exitCode: 0 } } }, false, false],
    ['terminated with id', { state: { terminated: { containerID: id, exitCode: 0 } } }, true, false],
    [
      'terminated, last terminated, no ids',
      { state: { terminated: { exitCode: 0 } }, lastState: { terminated: { exitCode: 0 } } },
      false,
      false,
    ],
    [
      'terminated without id, last terminated with id',
      { state: { terminated: { exitCode: 0 } }, lastState: { terminated: { containerID: id, exitCode: 0 } } },
      true,
      true,
    ],
    ['waiting', { state: { waiting: {} } }, false, false],
    ['waiting on ErrImagePull', { state: { waiting: { reason: 'ErrImagePull' } } }, false, false],
    ['waiting on ErrImagePullBackOff', { state: { waiting: { reason: 'ErrImagePullBackOff' } } }, false, false],
  ];
  it.each(cases)('%s', (_name, status, success, previousSuccess) => {
    const p = pod([status]);
    expect(errorOf(() => chooseRun(p, 'x', false, NOW)) === undefined).toBe(success);
    expect(errorOf(() => chooseRun(p, 'x', true, NOW)) === undefined).toBe(previousSuccess);
    expect(errorOf(() => chooseRun(p, 'blah', false, NOW))?.message).toBe(
      'container "blah" in pod "podName" is not available',
    );
  });

  it("answers with the kubelet's messages, as 400", () => {
    const waiting = errorOf(() =>
      chooseRun(pod([{ state: { waiting: { reason: 'ContainerCreating' } } }]), 'x', false, NOW),
    );
    expect(waiting?.code).toBe(400);
    expect(waiting?.message).toBe('container "x" in pod "podName" is waiting to start: ContainerCreating');
    expect(
      errorOf(() => chooseRun(pod([{ state: { waiting: { reason: 'ErrImagePull' } } }]), 'x', false, NOW))?.message,
    ).toBe(`container "x" in pod "podName" is waiting to start: image can't be pulled`);
    expect(errorOf(() => chooseRun(pod([{ state: { running: {} } }]), 'x', true, NOW))?.message).toBe(
      'previous terminated container "x" in pod "podName" not found',
    );
  });
});

describe('what a simulated container writes', () => {
  const started = '2026-11-28T11:00:00Z';
  it('writes start and ready lines while it runs, and the exit with its code once ended', () => {
    const running = chooseRun(pod([{ state: { running: { startedAt: started } }, ready: true }]), 'x', false, NOW);
    expect(running.running).toBe(true);
    expect(running.lines.map((l) => l.text)).toEqual(['Starting x (image nginx)', 'x is ready']);
    const ended = chooseRun(
      pod([
        {
          state: {
            terminated: { containerID: 'c://1', exitCode: 3, startedAt: started, finishedAt: '2026-11-28T11:00:05Z' },
          },
        },
      ]),
      'x',
      false,
      NOW,
    );
    expect(ended.running).toBe(false);
    expect(ended.lines.map((l) => [rfc3339Nano(l.ms), l.text])).toEqual([
      ['2026-11-28T11:00:00Z', 'Starting x (image nginx)'],
      ['2026-11-28T11:00:00.001Z', 'x is ready'],
      ['2026-11-28T11:00:05Z', 'x exited with code 3'],
    ]);
  });

  it('is not ready before its readinessProbe delay has passed', () => {
    const p = pod([{ state: { running: { startedAt: '2026-11-28T11:59:50Z' } } }], {}, 30);
    expect(chooseRun(p, 'x', false, NOW).lines.map((l) => l.text)).toEqual(['Starting x (image nginx)']);
  });

  it('writes the text of sim.ck.io/log (or sim.ck.io/log.<container>), the previous run from lastState', () => {
    const p = pod(
      [
        {
          state: { running: { startedAt: started } },
          lastState: {
            terminated: { containerID: 'c://0', exitCode: 1, startedAt: '2026-11-28T10:00:00Z', finishedAt: started },
          },
        },
      ],
      { 'sim.ck.io/log': 'a\nb\n', 'sim.ck.io/log.other': 'not mine' },
    );
    expect(chooseRun(p, 'x', false, NOW).lines.map((l) => l.text)).toEqual(['a', 'b']);
    const previous = chooseRun(p, 'x', true, NOW);
    expect(previous.containerID).toBe('c://0');
    expect(rfc3339Nano(previous.lines[0].ms)).toBe('2026-11-28T10:00:00Z');
    const own = pod([{ state: { running: { startedAt: started } } }], {
      'sim.ck.io/log': 'all',
      'sim.ck.io/log.x': 'mine',
    });
    expect(chooseRun(own, 'x', false, NOW).lines.map((l) => l.text)).toEqual(['mine']);
  });
});

describe('PodLogOptions (kubelet ReadLogs)', () => {
  const run = {
    containerID: 'c://1',
    running: true,
    lines: [0, 1, 2, 3].map((i) => ({ ms: NOW - 10_000 + i * 2000, text: `line ${i}` })),
  };
  const opts = (o: Partial<LogOptions>): LogOptions => ({ previous: false, timestamps: false, follow: false, ...o });
  const texts = (o: Partial<LogOptions>) => selectLines(run, opts(o), NOW).map((l) => l.text);

  it('keeps the last tailLines, then drops lines before since', () => {
    expect(texts({})).toEqual(['line 0', 'line 1', 'line 2', 'line 3']);
    expect(texts({ tailLines: 2 })).toEqual(['line 2', 'line 3']);
    expect(texts({ tailLines: 0 })).toEqual([]);
    expect(texts({ sinceSeconds: 5 })).toEqual(['line 3']);
    expect(texts({ sinceTime: new Date(NOW - 8000).toISOString() })).toEqual(['line 1', 'line 2', 'line 3']);
    expect(texts({ tailLines: 3, sinceSeconds: 7 })).toEqual(['line 2', 'line 3']);
  });

  it('prefixes RFC3339Nano timestamps and cuts at limitBytes', () => {
    expect(formatLine({ ms: Date.parse('2026-11-28T12:00:00.120Z'), text: 'hi' }, { timestamps: true })).toBe(
      '2026-11-28T12:00:00.12Z hi\n',
    );
    expect(formatLine({ ms: NOW, text: 'hi' }, { timestamps: false })).toBe('hi\n');
    expect(limit('hello\n', 3)).toEqual({ text: 'hel', left: 0 });
    expect(limit('hello\n', 10)).toEqual({ text: 'hello\n', left: 4 });
    expect(limit('hello\n', undefined)).toEqual({ text: 'hello\n', left: undefined });
  });
});
