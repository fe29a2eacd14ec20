/**
 * Reads the V8 CPU profiles (`--cpu-prof`, `.cpuprofile` JSON) a bench server wrote and prints,
 * for each labelled time window, where the main thread's time went: self time per function and
 * per file, the top PROFILE_TOP (15) of each (PROFILE_INCLUSIVE=1: also the time each function
 * is on the stack). A profile's sample times are CLOCK_MONOTONIC
 * microseconds (V8's TimeTicks on Linux), the clock `process.hrtime` reads in the bench, so a
 * window taken there selects the samples taken inside it. Used by bench/profile-ops.ts;
 * `npx tsx bench/profile-summary.ts <dir>` summarizes a run's directory again (its windows.json),
 * `npx tsx bench/profile-summary.ts <file.cpuprofile>` a whole profile.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The file in a profile directory that holds the bench's windows (`Window[]` as JSON). */
export const WINDOWS_FILE = 'windows.json';

/** A labelled span of CLOCK_MONOTONIC time, in microseconds. */
export interface Window {
  readonly label: string;
  readonly fromUs: number;
  readonly toUs: number;
}

interface ProfileNode {
  readonly id: number;
  readonly children?: number[];
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  readonly nodes: ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: number[];
  readonly timeDeltas: number[];
}

const TOP = Number(process.env.PROFILE_TOP ?? 15);
const INCLUSIVE = process.env.PROFILE_INCLUSIVE === '1';

/** A source URL shortened to the package or the path under the repository. */
function shortFile(url: string): string {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const dist = url.indexOf('/dist/');
  if (dist >= 0) return url.slice(dist + 1);
  return url.replace(/^file:\/\//, '');
}

/** Self time per function and per file, and the total time each function is on the stack, of the samples in [fromUs, toUs). */
function selfTimes(profile: Profile, fromUs: number, toUs: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nameOf = (n: ProfileNode) => {
    const { functionName, url, lineNumber } = n.callFrame;
    return `${functionName || '(anonymous)'} ${url ? `${shortFile(url)}:${lineNumber + 1}` : ''}`.trim();
  };
  // Each sample counts as one sampling interval (the median gap between samples): a longer gap
  // is time the thread was not running (descheduled on a busy machine), not time in that function.
  const interval = [...profile.timeDeltas].sort((a, b) => a - b)[profile.timeDeltas.length >> 1] ?? 0;
  const fns = new Map<string, number>();
  const files = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let t = profile.startTime;
  for (let k = 0; k < profile.samples.length; k++) {
    t += profile.timeDeltas[k]!;
    if (t < fromUs || t >= toUs) continue;
    const node = byId.get(profile.samples[k]!)!;
    if (node.callFrame.functionName === '(idle)') continue;
    const fn = nameOf(node);
    const file = shortFile(node.callFrame.url);
    fns.set(fn, (fns.get(fn) ?? 0) + interval);
    files.set(file, (files.get(file) ?? 0) + interval);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const name = nameOf(byId.get(id)!);
      if (!seen.has(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + interval);
      seen.add(name);
    }
    total += interval;
  }
  return { fns, files, inclusive, total };
}

function printTop(title: string, m: Map<string, number>, total: number): void {
  console.log(`  ${title}`);
  for (const [name, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(
      `    ${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`,
    );
}

/** Print, for each label of `windows`, the top self-time functions and files of the profiles in `dir`. */
export async function summarizeProfiles(dir: string, windows: readonly Window[]): Promise<void> {
  const profiles: Profile[] = [];
  for (const f of (await readdir(dir)).filter((n) => n.endsWith('.cpuprofile')))
    profiles.push(JSON.parse(await readFile(join(dir, f), 'utf8')));
  const labels = [...new Set(windows.map((w) => w.label))];
  for (const label of labels) {
    const fns = new Map<string, number>();
    const files = new Map<string, number>();
    const inclusive = new Map<string, number>();
    let total = 0;
    for (const w of windows.filter((x) => x.label === label))
      for (const p of profiles) {
        if (p.endTime < w.fromUs || p.startTime > w.toUs) continue;
        const s = selfTimes(p, w.fromUs, w.toUs);
        for (const [k, v] of s.fns) fns.set(k, (fns.get(k) ?? 0) + v);
        for (const [k, v] of s.files) files.set(k, (files.get(k) ?? 0) + v);
        for (const [k, v] of s.inclusive) inclusive.set(k, (inclusive.get(k) ?? 0) + v);
        total += s.total;
      }
    console.log(`\n## ${label}: ${(total / 1000).toFixed(0)} ms of main-thread time sampled (idle left out)`);
    printTop('self time by function', fns, total);
    printTop('self time by file', files, total);
    if (INCLUSIVE) printTop('total time by function (on the stack)', inclusive, total);
  }
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2]) {
  const arg = process.argv[2];
  if (arg.endsWith('.cpuprofile')) {
    const p: Profile = JSON.parse(await readFile(arg, 'utf8'));
    const s = selfTimes(p, -Infinity, Infinity);
    printTop('self time by function', s.fns, s.total);
    printTop('self time by file', s.files, s.total);
    if (INCLUSIVE) printTop('total time by function (on the stack)', s.inclusive, s.total);
  } else {
    await summarizeProfiles(arg, JSON.parse(await readFile(join(arg, WINDOWS_FILE), 'utf8')));
  }
}
