/**
 * `exec` and `attach` sessions of a container on a simulated node (upstream kubelet
 * pkg/kubelet/cri/streaming/remotecommand: the runtime runs the command with the streams asked
 * for; a terminal merges stderr into stdout, ends lines with CRLF and echoes what is typed).
 * A container that is not running answers as the kubelet's GetExec/GetAttach do through the
 * API server's stream translator: `unable to upgrade connection: container not found ("c")`.
 */
import type { LocalSession, SessionIO, SessionStreams } from '../../../registry/connect-local.js';
import type { Pod } from '../pods.schema.js';
import { chooseRun, formatLine, type LogLine } from './container-log.js';
import { sleep } from './log-stream.js';
import { execCommand, type ShellContext } from './shell.js';

/** How often an attached session re-reads the pod, ms. */
export const ATTACH_POLL_MS = 500;
/** The longest an attach stays open, ms. */
export const MAX_ATTACH_MS = 60 * 60_000;

/** The id of the running container named `container`, if it runs. */
export function runningContainerId(pod: Pod, container: string): string | undefined {
  const all = [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? []),
    ...(pod.status?.ephemeralContainerStatuses ?? []),
  ];
  const s = all.find((c) => c.name === container);
  return s?.state?.running ? (s.containerID ?? '') : undefined;
}

const notFound = (container: string) => ({
  error: `unable to upgrade connection: container not found (${JSON.stringify(container)})`,
});

/**
 * The IO a terminal gives a process: stderr to stdout, `\n` written as `\r\n`, input echoed
 * and its `\r` read as `\n` (a pty's onlcr, icrnl and echo).
 */
export function terminalIO(io: SessionIO): SessionIO {
  const out = (data: string | Uint8Array) =>
    io.stdout((typeof data === 'string' ? data : new TextDecoder().decode(data)).replace(/\r?\n/g, '\r\n'));
  async function* stdin() {
    for await (const chunk of io.stdin) {
      const text = new TextDecoder().decode(chunk).replace(/\r\n?/g, '\n');
      out(text);
      yield new TextEncoder().encode(text);
    }
  }
  return { stdin: stdin(), stdout: out, stderr: out, signal: io.signal };
}

/** An exec session of `command` in `container` of `pod`, with the shell context `ctx`. */
export function execSession(
  pod: Pod,
  container: string,
  command: readonly string[],
  streams: SessionStreams,
  ctx: ShellContext,
): LocalSession {
  return {
    kind: 'session',
    streams,
    async run(io) {
      if (runningContainerId(pod, container) === undefined) return notFound(container);
      const code = await execCommand(command, ctx, streams.tty ? terminalIO(io) : io);
      return { exitCode: code, command };
    },
  };
}

/**
 * An attach session to `container` of `pod`: what the container writes (its log, without
 * timestamps) goes to stdout, stdin is taken and dropped, and the session ends when the run
 * ends, the pod is gone, the client goes away or {@link MAX_ATTACH_MS} passes.
 */
export function attachSession(
  pod: Pod,
  container: string,
  streams: SessionStreams,
  reload: () => Promise<Pod>,
  now: () => number,
  pollMs = ATTACH_POLL_MS,
): LocalSession {
  return {
    kind: 'session',
    streams,
    async run(rawIO) {
      const id = runningContainerId(pod, container);
      if (id === undefined) return notFound(container);
      const io = streams.tty ? terminalIO(rawIO) : rawIO;
      void (async () => {
        for await (const chunk of io.stdin) void chunk; // the container reads it
      })();
      let written = 0;
      const until = now() + MAX_ATTACH_MS;
      let current: Pod = pod;
      while (!io.signal.aborted && now() < until) {
        let lines: readonly LogLine[];
        try {
          lines = chooseRun(current, container, false, now()).lines;
        } catch {
          lines = [];
        }
        for (const line of lines.slice(written)) io.stdout(formatLine(line, { timestamps: false }));
        written = Math.max(written, lines.length);
        if (runningContainerId(current, container) !== id) break;
        await sleep(pollMs, io.signal);
        try {
          current = await reload();
        } catch {
          break;
        }
      }
      return { exitCode: 0 };
    },
  };
}
