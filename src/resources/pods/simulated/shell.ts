/**
 * The commands a simulated container answers to `exec`, as a shell in a small Linux image
 * (busybox) would: echo, printf, hostname, env, printenv, cat (of /etc/hostname, /etc/hosts,
 * /etc/resolv.conf, or stdin), true, false, sleep, pwd, whoami, id, date, `sh -c "<list>"`
 * (with `;`, `&&`, `||`, `exit N`), and `sh` reading commands from stdin. Any other program is
 * not found: the container runtime's `OCI runtime exec failed: ... executable file not found in
 * $PATH: unknown` and exit code 126 (inside `sh`: `sh: x: not found`, 127).
 */
import type { SessionIO } from '../../../registry/connect-local.js';
import { ShellSyntaxError, expandWords, parseList } from './shell-words.js';

/** What a container's commands see: its host name, environment, files, user and the clock. */
export interface ShellContext {
  readonly hostname: string;
  /** The environment in order (`HOSTNAME`, `PATH`, the container's, the service variables). */
  readonly env: readonly (readonly [string, string])[];
  /** The files `cat` can read, by absolute path. */
  readonly files: Readonly<Record<string, string>>;
  /** The user id the container runs as (0 = root). */
  readonly uid: number;
  /** The prompt an interactive `sh` writes before each line (with a terminal), else none. */
  readonly prompt?: string;
  now(): Date;
}

/** The longest `sleep` honoured, seconds: a simulated container never keeps a session longer. */
export const MAX_SLEEP_SECONDS = 30;

const SHELLS = new Set(['sh', 'bash', 'ash']);
const BIN_DIRS = ['/bin/', '/usr/bin/', '/sbin/', '/usr/sbin/', '/usr/local/bin/'];

/** The runtime's answer to a program that is not in the image (containerd + runc). */
export function notFoundMessage(program: string): string {
  return `OCI runtime exec failed: exec failed: unable to start container process: exec: ${JSON.stringify(program)}: executable file not found in $PATH: unknown\r\n`;
}

/** The program a path names when it is one of ours (`/bin/echo` -> `echo`), else the path. */
function program(name: string): string {
  for (const dir of BIN_DIRS)
    if (name.startsWith(dir) && !name.slice(dir.length).includes('/')) return name.slice(dir.length);
  return name;
}

/**
 * Run `argv` in the container as the runtime starts it (no shell around it): the exit code.
 * Output goes to `io`; a program that is not known writes the runtime's message to stderr and
 * exits 126.
 */
export async function execCommand(argv: readonly string[], ctx: ShellContext, io: SessionIO): Promise<number> {
  const name = program(argv[0] ?? '');
  if (!isKnown(name)) {
    io.stderr(notFoundMessage(argv[0] ?? ''));
    return 126;
  }
  const result = await runProgram(name, argv.slice(1), ctx, io, { shell: false });
  return result.code;
}

/** Whether the image has program `name`. */
function isKnown(name: string): boolean {
  return SHELLS.has(name) || name in PROGRAMS;
}

/** A program's exit code, and whether it asked the shell to exit (`exit`). */
interface Outcome {
  readonly code: number;
  readonly exit?: boolean;
}

type Program = (args: readonly string[], ctx: ShellContext, io: SessionIO) => Promise<number> | number;

const line = (io: SessionIO, text: string) => io.stdout(`${text}\n`);

/** The programs of the image (busybox applets), by name. */
const PROGRAMS: Record<string, Program> = {
  echo: (args, _ctx, io) => {
    const noNewline = args[0] === '-n';
    const words = noNewline ? args.slice(1) : args;
    io.stdout(words.join(' ') + (noNewline ? '' : '\n'));
    return 0;
  },
  printf: (args, _ctx, io) => {
    if (!args.length) {
      io.stderr('printf: usage: printf FORMAT [ARGUMENT]...\n');
      return 1;
    }
    io.stdout(printf(args[0], args.slice(1)));
    return 0;
  },
  hostname: (_args, ctx, io) => (line(io, ctx.hostname), 0),
  env: (_args, ctx, io) => {
    for (const [k, v] of ctx.env) line(io, `${k}=${v}`);
    return 0;
  },
  printenv: (args, ctx, io) => {
    if (!args.length) return PROGRAMS.env(args, ctx, io);
    let code = 0;
    for (const name of args) {
      const found = ctx.env.find(([k]) => k === name);
      if (found) line(io, found[1]);
      else code = 1;
    }
    return code;
  },
  cat: async (args, ctx, io) => {
    if (!args.length || (args.length === 1 && args[0] === '-')) {
      for await (const chunk of io.stdin) io.stdout(chunk);
      return 0;
    }
    let code = 0;
    for (const file of args) {
      const text = ctx.files[file];
      if (text !== undefined) io.stdout(text);
      else {
        io.stderr(`cat: can't open '${file}': No such file or directory\n`);
        code = 1;
      }
    }
    return code;
  },
  true: () => 0,
  false: () => 1,
  sleep: async (args, _ctx, io) => {
    const seconds = Number.parseFloat(args[0] ?? '');
    if (!args.length || !Number.isFinite(seconds) || seconds < 0) {
      io.stderr(`sleep: invalid number '${args[0] ?? ''}'\n`);
      return 1;
    }
    await delay(Math.min(seconds, MAX_SLEEP_SECONDS) * 1000, io.signal);
    return 0;
  },
  pwd: (_args, _ctx, io) => (line(io, '/'), 0),
  whoami: (_args, ctx, io) => {
    if (ctx.uid === 0) return (line(io, 'root'), 0);
    io.stderr(`whoami: unknown uid ${ctx.uid}\n`);
    return 1;
  },
  id: (_args, ctx, io) => {
    line(io, ctx.uid === 0 ? 'uid=0(root) gid=0(root) groups=0(root),10(wheel)' : `uid=${ctx.uid} gid=0(root)`);
    return 0;
  },
  date: (_args, ctx, io) => (line(io, busyboxDate(ctx.now())), 0),
};

/** Run one program (or a shell) with its arguments. */
async function runProgram(
  name: string,
  args: readonly string[],
  ctx: ShellContext,
  io: SessionIO,
  where: { shell: boolean },
): Promise<Outcome> {
  if (SHELLS.has(name)) return { code: await shell(args, ctx, io) };
  const fn = PROGRAMS[name];
  if (fn) return { code: await fn(args, ctx, io) };
  if (where.shell) {
    io.stderr(`sh: ${name}: not found\n`);
    return { code: 127 };
  }
  io.stderr(notFoundMessage(name));
  return { code: 126 };
}

/** `sh [-c script]`: run the script, or the lines of stdin until `exit` or its end. */
async function shell(args: readonly string[], ctx: ShellContext, io: SessionIO): Promise<number> {
  if (args[0] === '-c') {
    if (args.length < 2) {
      io.stderr('sh: -c requires an argument\n');
      return 2;
    }
    return (await script(args[1], ctx, io, 0)).code;
  }
  let status = 0;
  if (ctx.prompt) io.stdout(ctx.prompt);
  for await (const text of lines(io.stdin)) {
    const outcome = await script(text, ctx, io, status);
    status = outcome.code;
    if (outcome.exit || io.signal.aborted) break;
    if (ctx.prompt) io.stdout(ctx.prompt);
  }
  return status;
}

/** Run a list of commands; `status` is `$?` before it. */
async function script(text: string, ctx: ShellContext, io: SessionIO, status: number): Promise<Outcome> {
  let items;
  try {
    items = parseList(text);
  } catch (err) {
    if (!(err instanceof ShellSyntaxError)) throw err;
    io.stderr(`${err.message}\n`);
    return { code: 2 };
  }
  const env = new Map(ctx.env);
  const lookup = (name: string) => (name === '?' ? String(status) : env.get(name));
  for (const item of items) {
    if ((item.op === '&&' && status !== 0) || (item.op === '||' && status === 0)) continue;
    const words = expandWords(item.raw, lookup);
    if (!words.length) continue;
    if (words[0] === 'exit') return exitBuiltin(words[1], status, io);
    const outcome = await runProgram(program(words[0]), words.slice(1), ctx, io, { shell: true });
    status = outcome.code;
    if (outcome.exit || io.signal.aborted) return { code: status, exit: true };
  }
  return { code: status };
}

/** The `exit` builtin: the code given (modulo 256), else the last status; `illegal number` is 2. */
function exitBuiltin(arg: string | undefined, status: number, io: SessionIO): Outcome {
  if (arg === undefined) return { code: status, exit: true };
  if (!/^\d+$/.test(arg)) {
    io.stderr(`sh: exit: Illegal number: ${arg}\n`);
    return { code: 2, exit: true };
  }
  return { code: Number(arg) % 256, exit: true };
}

/** The lines of a byte stream (UTF-8), the last one even without a newline. */
async function* lines(input: AsyncIterable<Uint8Array>): AsyncIterable<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of input) {
    pending += decoder.decode(chunk, { stream: true });
    let at;
    while ((at = pending.search(/\r?\n|\r/)) >= 0) {
      const match = /\r?\n|\r/.exec(pending.slice(at))![0];
      yield pending.slice(0, at);
      pending = pending.slice(at + match.length);
    }
  }
  pending += decoder.decode();
  if (pending) yield pending;
}

/** busybox printf: `%s`, `%d`, `%i`, `%%` and `\n`, `\t`, `\\`; the format repeats while arguments remain. */
export function printf(format: string, args: readonly string[]): string {
  let out = '';
  let next = 0;
  do {
    const before = next;
    out += format.replace(/%([%sdi])|\\([ntr\\"])/g, (_m, conv: string | undefined, esc: string | undefined) => {
      if (esc) return { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"' }[esc] ?? esc;
      if (conv === '%') return '%';
      const arg = args[next++] ?? '';
      if (conv === 's') return arg;
      const n = Number.parseInt(arg || '0', 10);
      return String(Number.isNaN(n) ? 0 : n);
    });
    if (next === before) break;
  } while (next < args.length);
  return out;
}

/** `date` as busybox prints it in UTC (`%a %b %e %H:%M:%S %Z %Y`): `Sat Nov  7 18:40:00 UTC 2026`. */
export function busyboxDate(d: Date): string {
  const [weekday, day, month, year, time] = d.toUTCString().split(' ');
  return `${weekday.slice(0, 3)} ${month} ${String(Number(day)).padStart(2, ' ')} ${time} UTC ${year}`;
}

/** Resolve after `ms`, or at once when `signal` aborts. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
