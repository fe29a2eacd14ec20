/**
 * A simulated container's log as a stream (the kubelet's ReadLogs): the lines chosen by the
 * options at once, then, with `follow`, each new line of the same run as the pod's status shows
 * it, until the run ends, the pod is gone, the client goes away or {@link MAX_FOLLOW_MS} passes.
 */
import type { LocalStream } from '../../../registry/connect-local.js';
import type { Pod } from '../pods.schema.js';
import {
  chooseRun,
  formatLine,
  limit,
  selectLines,
  type ContainerRun,
  type LogLine,
  type LogOptions,
} from './container-log.js';

/** How often a followed log re-reads the pod, ms. */
export const FOLLOW_POLL_MS = 500;
/** The longest a followed log stays open, ms (a real one stays while the container runs). */
export const MAX_FOLLOW_MS = 60 * 60_000;

/** The run of `container` with id `containerID` in `pod` now, if the pod still shows it. */
function sameRun(pod: Pod, container: string, containerID: string, now: number): ContainerRun | undefined {
  for (const previous of [false, true]) {
    try {
      const run = chooseRun(pod, container, previous, now);
      if (run.containerID === containerID) return run;
    } catch {
      // That state has no log: look at the other.
    }
  }
  return undefined;
}

/**
 * The log stream of `container` under `opts`, from its run `run` (chosen from the pod);
 * `reload` reads the pod again (rejects once it is gone); `now` is the clock (ms).
 */
export function logStream(
  container: string,
  run: ContainerRun,
  opts: LogOptions,
  reload: () => Promise<Pod>,
  now: () => number,
  pollMs = FOLLOW_POLL_MS,
): LocalStream {
  return {
    kind: 'stream',
    contentType: 'text/plain',
    async *open(signal: AbortSignal) {
      let left = opts.limitBytes;
      const emit = function* (lines: readonly { ms: number; text: string }[]) {
        for (const line of lines) {
          const cut = limit(formatLine(line, opts), left);
          left = cut.left;
          if (cut.text) yield cut.text;
          if (left === 0) return;
        }
      };
      const first = selectLines(run, opts, now());
      yield* emit(first);
      if (!opts.follow || !run.running || left === 0) return;
      // Lines already read, by time and text (a later status may show the run's lines differently).
      const seen = new Set(run.lines.map(key));
      const until = now() + MAX_FOLLOW_MS;
      while (!signal.aborted && now() < until && left !== 0) {
        await sleep(pollMs, signal);
        if (signal.aborted) return;
        let fresh: Pod;
        try {
          fresh = await reload();
        } catch {
          return; // the pod is gone: its containers are too
        }
        const current = sameRun(fresh, container, run.containerID, now());
        if (!current) return;
        const added = current.lines.filter((l) => !seen.has(key(l)));
        for (const l of added) seen.add(key(l));
        yield* emit(added);
        if (!current.running) return;
      }
    },
  };
}

const key = (line: LogLine) => `${line.ms} ${line.text}`;

/** Resolve after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
