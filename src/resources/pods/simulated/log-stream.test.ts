/**
 * A followed log of a simulated container: the lines so far, then each new line of the same
 * run as the pod's status shows it, ending when the run ends, the pod is gone or the client
 * goes away; limitBytes ends it too.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../pods.schema.js';
import { chooseRun, type LogOptions } from './container-log.js';
import { logStream } from './log-stream.js';

const START = '2026-11-28T11:00:00Z';
const NOW = Date.parse('2026-11-28T12:00:00Z');
const statusOf = (state: object, ready: boolean) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns' },
    spec: { containers: [{ name: 'c', image: 'img', readinessProbe: { initialDelaySeconds: 7200 } }] },
    status: {
      containerStatuses: [
        { name: 'c', image: 'img', imageID: '', restartCount: 0, ready, containerID: 'x://1', state },
      ],
    },
  }) as unknown as Pod;
const running = statusOf({ running: { startedAt: START } }, false);
const ready = statusOf({ running: { startedAt: START } }, true);
const ended = statusOf(
  { terminated: { containerID: 'x://1', exitCode: 0, startedAt: START, finishedAt: START } },
  false,
);
const opts = (o: Partial<LogOptions> = {}): LogOptions => ({ previous: false, timestamps: false, follow: true, ...o });

async function read(stream: ReturnType<typeof logStream>, signal = new AbortController().signal) {
  let text = '';
  for await (const chunk of stream.open(signal)) text += chunk;
  return text;
}

describe('logStream', () => {
  it('follows the run until it ends', async () => {
    const states = [running, ready, ended];
    const stream = logStream(
      'c',
      chooseRun(running, 'c', false, NOW),
      opts(),
      async () => states.shift() ?? ended,
      () => NOW,
      1,
    );
    expect(await read(stream)).toBe('Starting c (image img)\nc is ready\nc exited with code 0\n');
  });

  it('ends when the pod is gone, or at once without follow', async () => {
    const gone = logStream(
      'c',
      chooseRun(running, 'c', false, NOW),
      opts(),
      () => Promise.reject(new Error('404')),
      () => NOW,
      1,
    );
    expect(await read(gone)).toBe('Starting c (image img)\n');
    const once = logStream(
      'c',
      chooseRun(running, 'c', false, NOW),
      opts({ follow: false }),
      async () => ended,
      () => NOW,
      1,
    );
    expect(await read(once)).toBe('Starting c (image img)\n');
  });

  it('stops at limitBytes and when the client goes away', async () => {
    const limited = logStream(
      'c',
      chooseRun(running, 'c', false, NOW),
      opts({ limitBytes: 5 }),
      async () => ready,
      () => NOW,
      1,
    );
    expect(await read(limited)).toBe('Start');
    const abort = new AbortController();
    const forever = logStream(
      'c',
      chooseRun(running, 'c', false, NOW),
      opts(),
      async () => running,
      () => NOW,
      5,
    );
    setTimeout(() => abort.abort(), 30);
    expect(await read(forever, abort.signal)).toBe('Starting c (image img)\n');
  });
});
