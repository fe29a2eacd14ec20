/**
 * pods/log, exec, attach and portforward of a pod on a simulated node, answered by the server
 * itself (src/resources/pods/simulated): kubectl 1.33 (`logs` with --tail, --timestamps,
 * --limit-bytes, -f and --previous, also of a container in CrashLoopBackOff; `exec` over
 * WebSocket v5: output, exit codes, stdin, a container that does not run; `attach`), the
 * Python client's stream() (v4) and the JavaScript client's Exec, the authorization of a
 * WebSocket upgrade before it is taken, a SPDY upgrade refused with a Status, and port-forward
 * refused at once.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { Exec, KubeConfig, type V1Status } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN, useTestServer, writeKubeconfig } from '../helpers/in-process.js';
import { run } from '../helpers/run.js';

const srv = useTestServer({ simulatedNodes: 1 });
const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const PODS = '/api/v1/namespaces/default/pods';
let kubeconfig = '';
const kubectl = (args: string[], input?: string) =>
  run(KUBECTL, [`--kubeconfig=${kubeconfig}`, ...args], { input, timeoutMs: 20_000 });

async function runningPod(name: string, annotations: Record<string, string> = {}, restartPolicy = 'Always') {
  const body = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, annotations },
    spec: {
      restartPolicy,
      containers: [{ name: 'app', image: 'busybox:1.36', env: [{ name: 'GREETING', value: 'hello there' }] }],
    },
  };
  const created = await srv.api('POST', PODS, body);
  expect(created.status, created.text).toBe(201);
  for (let i = 0; i < 100; i++) {
    const pod = (await srv.api('GET', `${PODS}/${name}`)).body;
    if (pod.status?.containerStatuses?.[0]?.state?.running) return pod;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`pod ${name} did not start`);
}

beforeAll(async () => {
  kubeconfig = await writeKubeconfig(srv, 'sim-connect');
  await runningPod('web', { 'sim.ck.io/log': 'listening on :8080\nGET / 200\nGET /healthz 200\n' });
  await runningPod('plain');
}, 30_000);

describe('kubectl logs', () => {
  it('prints the log, the last lines with --tail, timestamps with --timestamps', async () => {
    const all = await kubectl(['logs', 'web']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toBe('listening on :8080\nGET / 200\nGET /healthz 200\n');
    const tail = await kubectl(['logs', 'web', '--tail=2']);
    expect(tail.stdout).toBe('GET / 200\nGET /healthz 200\n');
    const stamped = await kubectl(['logs', 'web', '--timestamps', '--tail=1']);
    expect(stamped.stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z GET \/healthz 200\n$/);
    const limited = await kubectl(['logs', 'web', '--limit-bytes=9']);
    expect(limited.stdout).toBe('listening');
  });

  it('writes the lifecycle of a container without a log annotation', async () => {
    const res = await kubectl(['logs', 'plain', '-c', 'app']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('Starting app (image busybox:1.36)\napp is ready\n');
  });

  it('follows with -f until the container exits', async () => {
    await runningPod('short', { 'sim.ck.io/run-seconds': '1', 'sim.ck.io/exit-code': '3' }, 'Never');
    const started = Date.now();
    const res = await kubectl(['logs', '-f', 'short']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('Starting app (image busybox:1.36)\napp is ready\napp exited with code 3\n');
    expect(Date.now() - started).toBeGreaterThan(500);
  });

  it('refuses --previous before a restart with the kubelet message', async () => {
    const res = await kubectl(['logs', 'web', '--previous']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('previous terminated container "app" in pod "web" not found');
  });
});

describe('kubectl exec', () => {
  it('runs echo, and a shell list with the container environment', async () => {
    const hi = await kubectl(['exec', 'web', '--', 'echo', 'hi']);
    expect(hi.code, hi.stderr).toBe(0);
    expect(hi.stdout).toBe('hi\n');
    const sh = await kubectl([
      'exec',
      'web',
      '--',
      'sh',
      '-c',
      'echo "$GREETING" && hostname; false || cat /etc/hostname',
    ]);
    expect(sh.code, sh.stderr).toBe(0);
    expect(sh.stdout).toBe('hello there\nweb\nweb\n');
  });

  it('reports a failing command with its exit code, an unknown one with 126', async () => {
    const failed = await kubectl(['exec', 'web', '--', 'false']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('command terminated with exit code 1');
    const unknown = await kubectl(['exec', 'web', '--', 'nosuchcommand']);
    expect(unknown.code).toBe(126);
    expect(unknown.stderr).toContain('exec: "nosuchcommand": executable file not found in $PATH: unknown');
  });

  it('passes stdin to cat with -i', async () => {
    const res = await kubectl(['exec', '-i', 'web', '--', 'cat'], 'one\ntwo\n');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('one\ntwo\n');
  });
});

describe('a container in CrashLoopBackOff', () => {
  it('shows its last run with and without --previous, and refuses exec', async () => {
    await runningPod('crashing', {
      'sim.ck.io/run-seconds': '0.5',
      'sim.ck.io/exit-code': '2',
      'sim.ck.io/log': 'boom',
    });
    for (let i = 0; i < 50; i++) {
      const pod = (await srv.api('GET', `${PODS}/crashing`)).body;
      if (pod.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const previous = await kubectl(['logs', 'crashing', '--previous']);
    expect(previous.code, previous.stderr).toBe(0);
    expect(previous.stdout).toBe('boom\n');
    expect((await kubectl(['logs', 'crashing'])).stdout).toBe('boom\n');
    const exec = await kubectl(['exec', 'crashing', '--', 'true']);
    expect(exec.code).not.toBe(0);
    expect(exec.stderr).toContain('Internal error occurred: unable to upgrade connection: container not found ("app")');
  });
});

describe('kubectl attach', () => {
  it('shows what the container writes until it exits', async () => {
    await runningPod('attached', { 'sim.ck.io/run-seconds': '1', 'sim.ck.io/log': 'working\n' }, 'Never');
    const res = await kubectl(['attach', 'attached']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('working\n');
  });
});

describe('other clients and protocols', () => {
  it("answers the Python client's stream() (v4.channel.k8s.io)", async () => {
    const ca = join(srv.dir, 'py-ca.crt');
    await writeFile(ca, srv.running.caPem ?? '');
    const script = [
      'import sys',
      'from kubernetes import client',
      'from kubernetes.stream import stream',
      'c = client.Configuration()',
      'c.host, c.ssl_ca_cert = sys.argv[1], sys.argv[2]',
      "c.api_key = {'authorization': 'Bearer ' + sys.argv[3]}",
      'api = client.CoreV1Api(client.ApiClient(c))',
      "print(stream(api.connect_get_namespaced_pod_exec, 'web', 'default', command=['sh', '-c', 'echo out; echo $HOSTNAME'], stderr=True, stdin=False, stdout=True, tty=False), end='')",
      "r = stream(api.connect_get_namespaced_pod_exec, 'web', 'default', command=['false'], stderr=True, stdin=False, stdout=True, tty=False, _preload_content=False)",
      'r.run_forever(timeout=10)',
      "print('rc', r.returncode)",
    ].join('\n');
    const res = await run('/usr/bin/python3', ['-c', script, srv.url, ca, TEST_TOKEN], { timeoutMs: 20_000 });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('out\nweb\nrc 1\n');
  });

  it("answers the JavaScript client's Exec", async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    const status = await new Promise<V1Status>((resolve, reject) => {
      new Exec(kc)
        .exec(
          'default',
          'web',
          'app',
          ['printenv', 'GREETING'],
          out,
          new Writable({ write: (_c, _e, cb) => cb() }),
          null,
          false,
          resolve,
        )
        .catch(reject);
    });
    expect(status.status).toBe('Success');
    expect(text).toBe('hello there\n');
  });

  it('refuses a SPDY upgrade with a Status, and port-forward at once', async () => {
    const answer = await rawUpgrade(`${PODS}/web/exec?command=true&stdout=true`, 'POST', TEST_TOKEN, [
      'Upgrade: SPDY/3.1',
      'X-Stream-Protocol-Version: v4.channel.k8s.io',
    ]);
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toContain('upgrade to SPDY/3.1 is not supported here');
    const spdy = await run(KUBECTL, [`--kubeconfig=${kubeconfig}`, 'exec', 'web', '--', 'true'], {
      env: { KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false' },
      timeoutMs: 20_000,
    });
    expect(spdy.code).not.toBe(0);
    expect(spdy.stderr).toContain('Error from server (BadRequest): unable to upgrade connection: upgrade to SPDY/3.1');
    const pf = await kubectl(['port-forward', 'pod/web', '18080:8080']);
    expect(pf.code).not.toBe(0);
    expect(pf.stderr).toContain('runs on simulated node');
  });

  it('authorizes a WebSocket exec as `get` on pods/exec before upgrading it', async () => {
    const ws = [
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Protocol: v5.channel.k8s.io',
    ];
    const path = `${PODS}/web/exec?command=true&stdout=true`;
    expect(await rawUpgrade(path, 'GET', 'other-token', ws)).toMatch(
      /^HTTP\/1\.1 403[^]*"pods \\"web\\" is forbidden: User \\"bob\\" cannot get resource \\"pods\/exec\\"/,
    );
    expect(await rawUpgrade(path, 'GET', 'no-such-token', ws)).toMatch(/^HTTP\/1\.1 401/);
    expect(await rawUpgrade(path, 'GET', TEST_TOKEN, ws)).toMatch(/^HTTP\/1\.1 101/);
  });
});

/** Send an upgrade request over TLS (HTTP/1.1); resolves with what the server answers until it closes (or 2 s). */
async function rawUpgrade(path: string, method: string, token: string, headers: string[]): Promise<string> {
  const url = new URL(srv.url);
  const socket = tlsConnect({
    host: url.hostname,
    port: Number(url.port),
    ca: srv.running.caPem,
    ALPNProtocols: ['http/1.1'],
  });
  await new Promise((r) => socket.once('secureConnect', r));
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${url.host}`,
    `Authorization: Bearer ${token}`,
    'Connection: Upgrade',
    ...headers,
  ];
  socket.write(`${head.join('\r\n')}\r\n${method === 'POST' ? 'Content-Length: 0\r\n' : ''}\r\n`);
  let answer = '';
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 2000);
    socket.on('data', (d: Buffer) => {
      answer += d.toString('latin1');
      if (answer.startsWith('HTTP/1.1 101') && answer.includes('\r\n\r\n')) resolve();
    });
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  socket.destroy();
  return answer;
}
