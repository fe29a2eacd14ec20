/**
 * Pod updates as upstream 1.33 ValidatePodUpdate: through PUT and every patch type, only
 * container images, activeDeadlineSeconds (set, then lowered), added tolerations, removed
 * scheduling gates and a negative terminationGracePeriodSeconds set to 1 change (the full rule
 * list is tested in validation-pods-update.test.ts);
 * metadata (labels, annotations) changes freely; anything else is 422 with upstream's message
 * on `spec`. The status subresource keeps finished containers finished.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const pods = '/api/v1/namespaces/default/pods';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const JSON_PATCH = { 'content-type': 'application/json-patch+json' };
const SMP = { 'content-type': 'application/strategic-merge-patch+json' };
const FORBIDDEN =
  'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n  core.PodSpec{\n';

async function createPod(name: string, spec: Record<string, unknown> = {}) {
  const res = await srv.api('POST', pods, {
    metadata: { name, labels: { app: 'a' } },
    spec: {
      containers: [
        { name: 'c', image: 'nginx:1.25', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1' } } },
      ],
      ...spec,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Expect a 422 whose one cause is `field: message…`. */
function expectInvalid(res: { status: number; body: any; text: string }, name: string, field: string, message: string) {
  expect(res.status, res.text).toBe(422);
  expect(res.body).toMatchObject({ kind: 'Status', reason: 'Invalid', details: { name, kind: 'Pod' } });
  expect(res.body.message.startsWith(`Pod "${name}" is invalid: ${field}: ${message}`), res.body.message).toBe(true);
  expect(res.body.details.causes).toHaveLength(1);
  expect(res.body.details.causes[0].field).toBe(field);
}

describe('pod updates outside the allowed fields', () => {
  it('PUT changing restartPolicy is 422 Forbidden on spec, with upstream’s message and a diff', async () => {
    const pod = await createPod('pu-put');
    const res = await srv.api('PUT', `${pods}/pu-put`, { ...pod, spec: { ...pod.spec, restartPolicy: 'Never' } });
    expectInvalid(res, 'pu-put', 'spec', 'Forbidden: pod updates may not change fields other than');
    expect(res.body.message).toContain(FORBIDDEN);
    expect(res.body.details.causes[0]).toMatchObject({
      reason: 'FieldValueForbidden',
      message: expect.stringContaining('\n- \tRestartPolicy: "Always",\n+ \tRestartPolicy: "Never",\n'),
    });
    expect((await srv.api('GET', `${pods}/pu-put`)).body.spec.restartPolicy).toBe('Always');
  });

  it('a merge patch of a container port, a JSON patch adding an env var and a strategic patch of resources are refused', async () => {
    await createPod('pu-patch');
    const attempts = [
      [{ spec: { containers: [{ name: 'c', image: 'nginx:1.25', ports: [{ containerPort: 81 }] }] } }, MERGE],
      [[{ op: 'add', path: '/spec/containers/0/env', value: [{ name: 'A', value: '1' }] }], JSON_PATCH],
      [{ spec: { containers: [{ name: 'c', resources: { limits: { cpu: '2' } } }] } }, SMP],
      [{ spec: { nodeSelector: { disk: 'ssd' } } }, SMP],
    ] as const;
    for (const [body, headers] of attempts) {
      const res = await srv.api('PATCH', `${pods}/pu-patch`, body, headers);
      expectInvalid(res, 'pu-patch', 'spec', 'Forbidden: pod updates may not change fields other than');
      expect(res.body.message).toContain(FORBIDDEN);
    }
    const live = (await srv.api('GET', `${pods}/pu-patch`)).body;
    expect(live.spec.containers[0]).toMatchObject({
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      resources: { limits: { cpu: '1' } },
    });
    expect(live.spec.containers[0].env).toBeUndefined();
  });

  it('containers cannot be added or removed', async () => {
    await createPod('pu-containers');
    const res = await srv.api(
      'PATCH',
      `${pods}/pu-containers`,
      { spec: { containers: [{ name: 'd', image: 'busybox' }] } },
      SMP,
    );
    expectInvalid(res, 'pu-containers', 'spec.containers', 'Forbidden: pod updates may not add or remove containers');
  });

  it('activeDeadlineSeconds may be set and lowered, not raised, removed or made non-positive', async () => {
    await createPod('pu-deadline');
    const set = (v: number | null) =>
      srv.api('PATCH', `${pods}/pu-deadline`, { spec: { activeDeadlineSeconds: v } }, MERGE);
    expect((await set(300)).status).toBe(200);
    expect((await set(200)).body.spec.activeDeadlineSeconds).toBe(200);
    expectInvalid(
      await set(400),
      'pu-deadline',
      'spec.activeDeadlineSeconds',
      'Invalid value: 400: must be less than or equal to previous value',
    );
    expectInvalid(
      await set(null),
      'pu-deadline',
      'spec.activeDeadlineSeconds',
      'Invalid value: "null": must not update from a positive integer to nil value',
    );
    expectInvalid(
      await set(0),
      'pu-deadline',
      'spec.activeDeadlineSeconds',
      'Invalid value: 0: must be between 1 and 2147483647, inclusive',
    );
    expect((await srv.api('GET', `${pods}/pu-deadline`)).body.spec.activeDeadlineSeconds).toBe(200);
    const created = await srv.api('POST', pods, {
      metadata: { name: 'pu-deadline-0' },
      spec: { activeDeadlineSeconds: 0, containers: [{ name: 'c', image: 'x' }] },
    });
    expectInvalid(
      created,
      'pu-deadline-0',
      'spec.activeDeadlineSeconds',
      'Invalid value: 0: must be between 1 and 2147483647, inclusive',
    );
  });

  it('tolerations may be added and their tolerationSeconds changed; existing ones may not be removed or changed', async () => {
    const first = { key: 'k', operator: 'Equal', value: 'v', effect: 'NoExecute', tolerationSeconds: 60 };
    await createPod('pu-tolerations', { tolerations: [first] });
    const second = { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' };
    const put = (tolerations: unknown[]) =>
      srv.api('PATCH', `${pods}/pu-tolerations`, { spec: { tolerations } }, MERGE);
    const added = await put([{ ...first, tolerationSeconds: 30 }, second]);
    expect(added.status, added.text).toBe(200);
    // DefaultTolerationSeconds admission adds its two tolerations back to the list sent.
    expect(added.body.spec.tolerations.slice(0, 2)).toEqual([{ ...first, tolerationSeconds: 30 }, second]);
    expect(added.body.spec.tolerations.slice(2).map((t: any) => t.key)).toEqual([
      'node.kubernetes.io/not-ready',
      'node.kubernetes.io/unreachable',
    ]);
    const message = 'Forbidden: existing toleration can not be modified except its tolerationSeconds';
    expectInvalid(await put([second]), 'pu-tolerations', 'spec.tolerations', message);
    expectInvalid(await put([{ ...first, value: 'w' }, second]), 'pu-tolerations', 'spec.tolerations', message);
  });

  it('the mirror-pod annotation cannot be added', async () => {
    // On a node: upstream ValidatePod also requires spec.nodeName beside the mirror annotation.
    await createPod('pu-mirror', { nodeName: 'node-1' });
    const res = await srv.api(
      'PATCH',
      `${pods}/pu-mirror`,
      { metadata: { annotations: { 'kubernetes.io/config.mirror': 'x' } } },
      MERGE,
    );
    expectInvalid(
      res,
      'pu-mirror',
      'metadata.annotations[kubernetes.io/config.mirror]',
      'Forbidden: may not add mirror pod annotation',
    );
  });
});

describe('allowed pod updates', () => {
  it('images change through a strategic patch, a JSON patch and PUT; labels and annotations change freely', async () => {
    const pod = await createPod('pu-allowed');
    const smp = await srv.api(
      'PATCH',
      `${pods}/pu-allowed`,
      { spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
      SMP,
    );
    expect(smp.status, smp.text).toBe(200);
    const jp = await srv.api(
      'PATCH',
      `${pods}/pu-allowed`,
      [{ op: 'replace', path: '/spec/containers/0/image', value: 'nginx:1.28' }],
      JSON_PATCH,
    );
    expect(jp.body.spec.containers[0].image).toBe('nginx:1.28');
    const labels = await srv.api(
      'PATCH',
      `${pods}/pu-allowed`,
      { metadata: { labels: { tier: 'web' }, annotations: { note: 'n' } } },
      MERGE,
    );
    expect(labels.body.metadata).toMatchObject({ labels: { app: 'a', tier: 'web' }, annotations: { note: 'n' } });
    // A PUT of the object as first created, without server defaults and with an equal quantity
    // written differently, changing only the image: the same spec for upstream's comparison.
    // The service account admission set at create must be sent (upstream sets it on create only).
    const put = await srv.api('PUT', `${pods}/pu-allowed`, {
      metadata: { name: 'pu-allowed', labels: { app: 'b' } },
      spec: {
        serviceAccountName: 'default',
        containers: [
          { name: 'c', image: 'nginx:1.29', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1000m' } } },
        ],
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.spec.containers[0].image).toBe('nginx:1.29');
    expect(put.body.metadata.labels).toEqual({ app: 'b' });
    expect(pod.spec.containers[0].image).toBe('nginx:1.25');
  });
});

describe('pod status updates', () => {
  it('ignore the spec in the body and keep a finished container of a Never pod finished', async () => {
    const pod = await createPod('pu-status', { restartPolicy: 'Never' });
    const status = (state: Record<string, unknown>) => ({
      phase: 'Running',
      containerStatuses: [{ name: 'c', image: 'nginx:1.25', imageID: '', ready: false, restartCount: 0, state }],
    });
    const done = await srv.api('PUT', `${pods}/pu-status/status`, {
      ...pod,
      spec: { ...pod.spec, restartPolicy: 'Always' },
      status: status({ terminated: { exitCode: 0 } }),
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body.spec.restartPolicy).toBe('Never');
    const back = await srv.api('PATCH', `${pods}/pu-status/status`, { status: status({ running: {} }) }, MERGE);
    expectInvalid(
      back,
      'pu-status',
      'status.containerStatuses[0].state',
      'Forbidden: may not be transitioned to non-terminated state',
    );
  });
});
