/**
 * The commands of a simulated container: output, errors and exit codes as busybox and the
 * container runtime give them, `sh -c` lists, stdin for `cat` and an interactive `sh`, and the
 * environment and files the kubelet sets up (container-env.ts).
 */
import { describe, expect, it } from 'vitest';
import type { SessionIO } from '../../../registry/connect-local.js';
import type { Pod } from '../pods.schema.js';
import { containerContext } from './container-env.js';
import { busyboxDate, execCommand, printf } from './shell.js';
import { ShellSyntaxError, expandWords, parseList } from './shell-words.js';

const POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-0', namespace: 'shop' },
  spec: {
    subdomain: 'web',
    containers: [
      {
        name: 'app',
        image: 'busybox',
        env: [
          { name: 'MODE', value: 'fast' },
          { name: 'FROM', valueFrom: {} },
        ],
      },
    ],
  },
  status: { podIP: '10.64.0.7', podIPs: [{ ip: '10.64.0.7' }] },
} as unknown as Pod;

const ctx = containerContext(POD, 'app', '10.96.0.1', { tty: false, now: () => new Date('2026-11-08T09:05:03Z') });

async function exec(argv: string[], input: string[] = []) {
  let stdout = '';
  let stderr = '';
  async function* stdin() {
    for (const chunk of input) yield new TextEncoder().encode(chunk);
  }
  const decode = (d: string | Uint8Array) => (typeof d === 'string' ? d : new TextDecoder().decode(d));
  const io: SessionIO = {
    stdin: stdin(),
    stdout: (d) => (stdout += decode(d)),
    stderr: (d) => (stderr += decode(d)),
    signal: new AbortController().signal,
  };
  const code = await execCommand(argv, ctx, io);
  return { code, stdout, stderr };
}

describe('programs', () => {
  const cases: [string[], string, number][] = [
    [['echo', 'hi', 'there'], 'hi there\n', 0],
    [['/bin/echo', '-n', 'x'], 'x', 0],
    [['printf', '%s=%d\\n', 'a', '1', 'b', '2'], 'a=1\nb=2\n', 0],
    [['hostname'], 'web-0\n', 0],
    [['printenv', 'MODE'], 'fast\n', 0],
    [['printenv', 'FROM'], '', 1],
    [['cat', '/etc/hostname'], 'web-0\n', 0],
    [['true'], '', 0],
    [['false'], '', 1],
    [['pwd'], '/\n', 0],
    [['whoami'], 'root\n', 0],
    [['id'], 'uid=0(root) gid=0(root) groups=0(root),10(wheel)\n', 0],
    [['date'], 'Sun Nov  8 09:05:03 UTC 2026\n', 0],
    [['sleep', '0'], '', 0],
  ];
  it.each(cases)('%j', async (argv, stdout, code) => {
    const r = await exec(argv);
    expect([r.stdout, r.code]).toEqual([stdout, code]);
  });

  it('answers an unknown program as the runtime does: exit 126', async () => {
    const r = await exec(['curl', 'x']);
    expect(r.code).toBe(126);
    expect(r.stderr).toBe(
      'OCI runtime exec failed: exec failed: unable to start container process: exec: "curl": executable file not found in $PATH: unknown\r\n',
    );
  });

  it('reports a file that is not there as busybox cat does', async () => {
    const r = await exec(['cat', '/nope']);
    expect([r.code, r.stderr]).toEqual([1, "cat: can't open '/nope': No such file or directory\n"]);
  });

  it('prints the environment the kubelet sets up', async () => {
    const r = await exec(['env']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      'HOSTNAME=web-0',
      'MODE=fast',
    ]);
    expect(lines).toContain('KUBERNETES_SERVICE_HOST=10.96.0.1');
    expect(lines).toContain('KUBERNETES_PORT=tcp://10.96.0.1:443');
    expect(lines.some((l) => l.startsWith('FROM='))).toBe(false);
  });

  it('serves /etc/hosts and /etc/resolv.conf as the kubelet writes them', async () => {
    expect((await exec(['cat', '/etc/hosts'])).stdout).toContain(
      '10.64.0.7\tweb-0.web.shop.svc.cluster.local\tweb-0\n',
    );
    expect((await exec(['cat', '/etc/resolv.conf'])).stdout).toBe(
      'search shop.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
    );
  });

  it('echoes stdin with cat', async () => {
    expect((await exec(['cat'], ['a\n', 'b'])).stdout).toBe('a\nb');
  });
});

describe('sh', () => {
  const cases: [string, string, string, number][] = [
    ['echo $MODE && hostname', 'fast\nweb-0\n', '', 0],
    ['false; echo $?', '1\n', '', 0],
    ['false && echo no || echo yes', 'yes\n', '', 0],
    ['echo \'a  $MODE\' "b  $MODE" c\\ d', 'a  $MODE b  fast c d\n', '', 0],
    ['exit 3; echo never', '', '', 3],
    ['false; exit', '', '', 1],
    ['exit 258', '', '', 2],
    ['nosuch', '', 'sh: nosuch: not found\n', 127],
    ['echo a | cat', '', 'sh: syntax error: unsupported "|" in a simulated container\n', 2],
    ['echo "open', '', 'sh: syntax error: unterminated quoted string\n', 2],
  ];
  it.each(cases)('sh -c %j', async (script, stdout, stderr, code) => {
    const r = await exec(['sh', '-c', script]);
    expect(r).toEqual({ stdout, stderr, code });
  });

  it('reads commands from stdin until exit', async () => {
    const r = await exec(['sh'], ['echo one\n', 'false\nexit 4\necho never\n']);
    expect([r.stdout, r.code]).toEqual(['one\n', 4]);
  });
});

describe('shell words', () => {
  it('splits lists on ; && || and newlines', () => {
    expect(parseList('a 1; b && c || d\ne # note')).toEqual([
      { op: ';', raw: ['a', '1'] },
      { op: ';', raw: ['b'] },
      { op: '&&', raw: ['c'] },
      { op: '||', raw: ['d'] },
      { op: ';', raw: ['e'] },
    ]);
    expect(() => parseList('&& a')).toThrow(ShellSyntaxError);
    expect(() => parseList('a &&')).toThrow(ShellSyntaxError);
  });

  it('splits unquoted expansions into fields and drops empty ones', () => {
    const env: Record<string, string> = { A: 'x y', E: '' };
    expect(expandWords(['$A', '"$A"', '$E', '"$E"', '${A}z', '$'], (n) => env[n])).toEqual([
      'x',
      'y',
      'x y',
      '',
      'x',
      'yz',
      '$',
    ]);
  });

  it('formats printf and date as busybox', () => {
    expect(printf('%s-%%\\t', ['a'])).toBe('a-%\t');
    expect(busyboxDate(new Date('2026-01-31T23:59:59Z'))).toBe('Sat Jan 31 23:59:59 UTC 2026');
  });
});
