/**
 * kubectl 1.33 and 1.27 against an in-process server, as a user drives Deployments: `create
 * deployment` (1.33 sends protobuf), `scale` (the scale subresource, found through discovery as
 * autoscaling/v1 Scale), `set image` (a strategic merge patch of the template's containers),
 * `get -o wide` (the Table's columns), `get all` (the `all` category), `explain
 * deployment.spec.strategy` (OpenAPI v3 for 1.33, v2 in protobuf for 1.27) and `rollout undo`
 * refused for lack of history (no controller has made ReplicaSets).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { useTestServer, writeKubeconfig } from '../helpers/in-process.js';

const srv = useTestServer();
const KUBECTLS = ['1.33', '1.27'].map((v) => [v, `/usr/lib/google-cloud-sdk/bin/kubectl.${v}`] as const);

let config: string;
beforeAll(async () => {
  config = await writeKubeconfig(srv, 'apps');
});

describe.each(KUBECTLS)('kubectl %s', (version, bin) => {
  const kubectl = async (...args: string[]) => {
    const res = await run(bin, [`--kubeconfig=${config}`, ...args]);
    expect(res.code, `kubectl ${args.join(' ')}: ${res.stderr}`).toBe(0);
    return res.stdout;
  };
  const name = `web-${version.replace('.', '')}`;
  const item = `/apis/apps/v1/namespaces/default/deployments/${name}`;

  it('creates a deployment with create deployment', async () => {
    expect(await kubectl('create', 'deployment', name, '--image=nginx')).toBe(`deployment.apps/${name} created\n`);
    const obj = (await srv.api('GET', item)).body;
    expect(obj).toMatchObject({
      metadata: { labels: { app: name }, generation: 1 },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: name } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } },
      },
    });
  });

  // /apis lists apps before extensions (as today's servers, which no longer serve extensions),
  // so kubectl maps a bare `deployment` to apps/v1.
  const done = (what: string) => new RegExp(`^deployment\\.apps/${name} ${what}\n$`);

  it('scales it with scale deployment', async () => {
    expect(await kubectl('scale', 'deployment', name, '--replicas=3')).toMatch(done('scaled'));
    expect((await srv.api('GET', item)).body).toMatchObject({ spec: { replicas: 3 }, metadata: { generation: 2 } });
    expect(await kubectl('scale', 'deployment.apps', name, '--replicas=4')).toBe(`deployment.apps/${name} scaled\n`);
    expect((await srv.api('GET', item)).body).toMatchObject({ spec: { replicas: 4 }, metadata: { generation: 3 } });
  });

  it('changes its image with set image', async () => {
    expect(await kubectl('set', 'image', `deployment/${name}`, 'nginx=nginx:2')).toMatch(done('image updated'));
    let obj = (await srv.api('GET', item)).body;
    expect(obj.spec.template.spec.containers).toEqual([expect.objectContaining({ name: 'nginx', image: 'nginx:2' })]);
    expect(obj.metadata.generation).toBe(4);
    expect(await kubectl('set', 'image', `deployment.apps/${name}`, 'nginx=nginx:3')).toBe(
      `deployment.apps/${name} image updated\n`,
    );
    obj = (await srv.api('GET', item)).body;
    expect(obj.spec.template.spec.containers).toEqual([expect.objectContaining({ name: 'nginx', image: 'nginx:3' })]);
    expect(obj.metadata.generation).toBe(5);
  });

  it('lists it with get deploy -o wide, and under get all', async () => {
    const wide = (await kubectl('get', 'deploy', name, '-o', 'wide')).split('\n');
    expect(wide[0]!.split(/\s+/)).toEqual([
      'NAME',
      'READY',
      'UP-TO-DATE',
      'AVAILABLE',
      'AGE',
      'CONTAINERS',
      'IMAGES',
      'SELECTOR',
    ]);
    const row = wide[1]!.split(/\s+/);
    expect([...row.slice(0, 4), ...row.slice(5)]).toEqual([name, '0/4', '0', '0', 'nginx', 'nginx:3', `app=${name}`]);
    expect(await kubectl('get', 'all', '-o', 'name')).toContain(`deployment.apps/${name}`);
  });

  it('explains deployment.spec.strategy', async () => {
    const text = await kubectl('explain', 'deployment.spec.strategy');
    expect(text).toMatch(/KIND:\s+Deployment/);
    expect(text).toContain('The deployment strategy to use to replace existing pods with new ones.');
    expect(text).toMatch(/rollingUpdate\s+<Object>/);
    expect(text).toMatch(/type\s+<string>/);
    const v1 = await kubectl('explain', 'deployment.spec.strategy.rollingUpdate.maxSurge', '--api-version=apps/v1');
    expect(v1).toMatch(/VERSION:\s+(apps\/)?v1\n/);
    expect(v1).toContain('The maximum number of pods that can be scheduled above the desired number of');
    expect(v1).toContain('Defaults to 25%.');
    const ext = await kubectl('explain', 'deployment.spec.revisionHistoryLimit', '--api-version=extensions/v1beta1');
    expect(ext).toMatch(/VERSION:\s+(extensions\/)?v1beta1\n/);
    expect(ext).toContain('2147483647');
  });

  it('lists replicasets with get rs -o wide', async () => {
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: `${name}-rs` },
      spec: {
        selector: { matchLabels: { app: `${name}-rs` } },
        template: {
          metadata: { labels: { app: `${name}-rs` } },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    };
    expect((await srv.api('POST', '/apis/apps/v1/namespaces/default/replicasets', rs)).status).toBe(201);
    const wide = (await kubectl('get', 'rs', `${name}-rs`, '-o', 'wide')).split('\n');
    expect(wide[0]!.split(/\s+/)).toEqual([
      'NAME',
      'DESIRED',
      'CURRENT',
      'READY',
      'AGE',
      'CONTAINERS',
      'IMAGES',
      'SELECTOR',
    ]);
    const row = wide[1]!.split(/\s+/);
    expect([...row.slice(0, 4), ...row.slice(5)]).toEqual([
      `${name}-rs`,
      '1',
      '0',
      '0',
      'c',
      'busybox',
      `app=${name}-rs`,
    ]);
  });
});
