/**
 * exec and attach sessions of a simulated container: refused as the kubelet refuses a container
 * that does not run, a terminal's CRLF and echo, attach following the container's output until
 * it exits.
 */
import { describe, expect, it } from 'vitest';
import type { SessionIO, SessionStreams } from '../../../registry/connect-local.js';
import type { Pod } from '../pods.schema.js';
import { containerContext } from './container-env.js';
import { attachSession, execSession } from './session.js';

const START = '2026-11-28T11:00:00Z';
const podIn = (state: object) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', annotations: { 'sim.ck.io/log': 'hello' } },
    spec: { containers: [{ name: 'c', image: 'img' }] },
    status: {
      containerStatuses: [
        { name: 'c', image: 'img', imageID: '', restartCount: 0, ready: true, containerID: 'x://1', state },
      ],
    },
  }) as unknown as Pod;
const running = podIn({ running: { startedAt: START } });
const ended = podIn({ terminated: { containerID: 'x://1', exitCode: 0, startedAt: START, finishedAt: START } });
const streams = (tty: boolean): SessionStreams => ({ stdin: true, stdout: true, stderr: !tty, tty });

function io(input: string[]) {
  const out = { stdout: '', stderr: '' };
  async function* stdin() {
    for (const chunk of input) yield new TextEncoder().encode(chunk);
  }
  const text = (d: string | Uint8Array) => (typeof d === 'string' ? d : new TextDecoder().decode(d));
  const sessionIO: SessionIO = {
    stdin: stdin(),
    stdout: (d) => (out.stdout += text(d)),
    stderr: (d) => (out.stderr += text(d)),
    signal: new AbortController().signal,
  };
  return { out, sessionIO };
}

describe('exec', () => {
  const ctx = (pod: Pod, tty: boolean) => containerContext(pod, 'c', '10.96.0.1', { tty, now: () => new Date() });

  it('refuses a container that does not run: container not found', async () => {
    const { sessionIO } = io([]);
    const result = await execSession(ended, 'c', ['echo'], streams(false), ctx(ended, false)).run(sessionIO);
    expect(result).toEqual({ error: 'unable to upgrade connection: container not found ("c")' });
  });

  it('runs an interactive shell on a terminal: prompt, echo, CRLF', async () => {
    const { out, sessionIO } = io(['echo hi\r', 'exit 2\r']);
    const result = await execSession(running, 'c', ['sh'], streams(true), ctx(running, true)).run(sessionIO);
    expect(result).toEqual({ exitCode: 2, command: ['sh'] });
    expect(out.stdout).toBe('/ # echo hi\r\nhi\r\n/ # exit 2\r\n');
  });
});

describe('attach', () => {
  it('writes what the container writes and ends with it', async () => {
    const states = [running, ended];
    const { out, sessionIO } = io([]);
    const session = attachSession(running, 'c', streams(false), async () => states.shift() ?? ended, Date.now, 1);
    expect(await session.run(sessionIO)).toEqual({ exitCode: 0 });
    expect(out.stdout).toBe('hello\n');
  });

  it('refuses a container that does not run', async () => {
    const { sessionIO } = io([]);
    const session = attachSession(ended, 'c', streams(false), async () => ended, Date.now, 1);
    expect(await session.run(sessionIO)).toEqual({ error: 'unable to upgrade connection: container not found ("c")' });
  });
});
