/**
 * Cases 30–39 of docs/validation/pods-update.md: the pods/ephemeralcontainers subresource
 * (upstream 1.33 ValidatePodEphemeralContainersUpdate, validateEphemeralContainers) through
 * HTTP, and `kubectl debug` (1.33) adding an ephemeral container with a strategic merge patch.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { useTestServer, writeKubeconfig } from '../helpers/in-process.js';

const srv = useTestServer();
const pods = '/api/v1/namespaces/default/pods';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const SMP = { 'content-type': 'application/strategic-merge-patch+json' };
const C = { name: 'c', image: 'nginx' };
type Res = { status: number; body: any; text: string };

async function createPod(name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) {
  const res = await srv.api('POST', pods, { metadata: { name, ...metadata }, spec: { containers: [C], ...spec } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const patch = (name: string, body: unknown, sub = '', headers = MERGE) =>
  srv.api('PATCH', `${pods}/${name}${sub ? `/${sub}` : ''}`, body, headers);
const ephemeral = (name: string, list: unknown[]) =>
  patch(name, { spec: { ephemeralContainers: list } }, 'ephemeralcontainers', SMP);

/** A 422 with a cause at `field` whose message starts with `message`. */
function invalid(res: Res, field: string, message: string) {
  expect(res.status, res.text).toBe(422);
  const causes = res.body.details.causes.map((c: any) => `${c.field}: ${c.message}`);
  expect(
    causes.some((c: string) => c.startsWith(`${field}: ${message}`)),
    causes.join('\n'),
  ).toBe(true);
}
const ok = (res: Res) => expect(res.status, res.text).toBe(200);

describe('pods/ephemeralcontainers (ValidatePodEphemeralContainersUpdate)', () => {
  it('30. GET answers the pod; a write changes only spec.ephemeralContainers', async () => {
    await createPod('e30');
    ok(await srv.api('GET', `${pods}/e30/ephemeralcontainers`));
    const res = await patch(
      'e30',
      {
        metadata: { labels: { a: 'b' } },
        spec: {
          restartPolicy: 'Never',
          ephemeralContainers: [{ name: 'dbg', image: 'busybox', targetContainerName: 'c' }],
        },
      },
      'ephemeralcontainers',
      SMP,
    );
    ok(res);
    expect(res.body.spec.restartPolicy).toBe('Always');
    expect(res.body.metadata.labels).toBeUndefined();
    expect(res.body.spec.ephemeralContainers).toEqual([
      expect.objectContaining({ name: 'dbg', image: 'busybox', targetContainerName: 'c', imagePullPolicy: 'Always' }),
    ]);
  });
  it('31. existing ephemeral containers may not be removed', async () => {
    await createPod('e31');
    ok(await ephemeral('e31', [{ name: 'a', image: 'x' }]));
    const pod = (await srv.api('GET', `${pods}/e31`)).body;
    invalid(
      await srv.api('PUT', `${pods}/e31/ephemeralcontainers`, {
        ...pod,
        spec: { ...pod.spec, ephemeralContainers: [] },
      }),
      'spec.ephemeralContainers',
      'Forbidden: existing ephemeral containers "a" may not be removed\n',
    );
  });
  it('32. existing ephemeral containers may not be changed', async () => {
    await createPod('e32');
    ok(await ephemeral('e32', [{ name: 'a', image: 'x' }]));
    const res = await ephemeral('e32', [{ name: 'a', image: 'y' }]);
    invalid(
      res,
      'spec.ephemeralContainers',
      'Forbidden: existing ephemeral containers "a" may not be changed\n  core.EphemeralContainer{\n- \tImage: "x",\n+ \tImage: "y",',
    );
  });
  it('33. static (mirror) pods take no ephemeral containers', async () => {
    await createPod('e33', { nodeName: 'n1' }, { annotations: { 'kubernetes.io/config.mirror': 'x' } });
    const res = await ephemeral('e33', [{ name: 'a', image: 'x' }]);
    invalid(res, '', 'Forbidden: static pods do not support ephemeral containers');
    expect(res.body.details.causes).toHaveLength(1);
  });
  it('34. a name unique among containers, init containers and ephemeral containers', async () => {
    await createPod('e34');
    invalid(
      await ephemeral('e34', [{ name: 'c', image: 'x' }]),
      'spec.ephemeralContainers[0].name',
      'Invalid value: "c": must be unique among all containers, init containers and ephemeral containers',
    );
    const pod = (await srv.api('GET', `${pods}/e34`)).body;
    const dup = { name: 'a', image: 'x' };
    invalid(
      await srv.api('PUT', `${pods}/e34/ephemeralcontainers`, {
        ...pod,
        spec: { ...pod.spec, ephemeralContainers: [dup, dup] },
      }),
      'spec.ephemeralContainers[1].name',
      'Duplicate value: "a"',
    );
  });
  it('35. targetContainerName names an existing container', async () => {
    await createPod('e35');
    invalid(
      await ephemeral('e35', [{ name: 'a', image: 'x', targetContainerName: 'nope' }]),
      'spec.ephemeralContainers[0].targetContainerName',
      'Not found: "nope"',
    );
  });
  it('36. ports, resources, resizePolicy, restartPolicy, probes and lifecycle cannot be set', async () => {
    await createPod('e36');
    const res = await ephemeral('e36', [
      {
        name: 'a',
        image: 'x',
        ports: [{ containerPort: 80 }],
        resources: { limits: { cpu: '1' } },
        readinessProbe: { exec: { command: ['true'] } },
      },
    ]);
    for (const f of ['ports', 'resources', 'readinessProbe'])
      invalid(res, `spec.ephemeralContainers[0].${f}`, 'Forbidden: cannot be set for an Ephemeral Container');
  });
  it('37. volume mounts have no subPath or subPathExpr', async () => {
    await createPod('e37', { volumes: [{ name: 'v', emptyDir: {} }] });
    invalid(
      await ephemeral('e37', [{ name: 'a', image: 'x', volumeMounts: [{ name: 'v', mountPath: '/v', subPath: 's' }] }]),
      'spec.ephemeralContainers[0].volumeMounts[0].subPath',
      'Forbidden: cannot be set for an Ephemeral Container',
    );
  });
  it('38. the common container rules apply (name, image)', async () => {
    await createPod('e38');
    const res = await ephemeral('e38', [{ name: 'Bad_Name', image: ' x' }]);
    invalid(res, 'spec.ephemeralContainers[0].name', 'Invalid value: "Bad_Name"');
    invalid(
      res,
      'spec.ephemeralContainers[0].image',
      'Invalid value: " x": must not have leading or trailing whitespace',
    );
  });
});

describe('kubectl debug (1.33)', () => {
  let config: string;
  beforeAll(async () => {
    config = await writeKubeconfig(srv, 'debug');
  });
  it('39. adds an ephemeral container through a strategic merge patch of pods/ephemeralcontainers', async () => {
    await createPod('kd');
    const res = await run('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', [
      `--kubeconfig=${config}`,
      'debug',
      'kd',
      '-it=false',
      '--attach=false',
      '--image=busybox',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const pod = (await srv.api('GET', `${pods}/kd`)).body;
    expect(pod.spec.ephemeralContainers).toEqual([
      expect.objectContaining({ image: 'busybox', name: expect.stringMatching(/^debugger-/) }),
    ]);
  });
});
