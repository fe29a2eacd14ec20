/**
 * Every field of every kind round-trips create (and /status) -> get; invalid objects give 422
 * with upstream causes; unknown fields follow fieldValidation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_TABLE } from '../../src/resources/table.js';
import { fullObject } from '../fixtures/full-objects.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();

// The full pod names this service account; ServiceAccount admission needs it to exist.
beforeAll(async () => {
  await srv.api('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'value' } });
});

const stored = RESOURCE_TABLE.filter((d) => !d.group && d.plural !== 'bindings');
const collection = (plural: string, namespaced: boolean) =>
  namespaced ? `/api/v1/namespaces/default/${plural}` : `/api/v1/${plural}`;

describe.each(stored.map((d) => [d.plural, d] as const))('%s with every field', (plural, def) => {
  it('round-trips create (and /status) -> get', async () => {
    const fixture = fullObject(def);
    const path = collection(plural, def.namespaced);
    const created = await srv.api('POST', `${path}?fieldValidation=Strict`, fixture);
    expect(created.status, created.text).toBe(201);
    if (fixture.status && def.subresources.some((s) => s.name === 'status')) {
      const res = await srv.api('PUT', `${path}/full/status`, { ...created.body, status: fixture.status });
      expect(res.status, res.text).toBe(200);
    }
    const got = (await srv.api('GET', `${path}/full`)).body;
    // DefaultTolerationSeconds admission appends its two tolerations (tested on their own).
    if (got.spec?.tolerations)
      got.spec.tolerations = got.spec.tolerations.filter((t: any) => !String(t.key).startsWith('node.kubernetes.io/'));
    for (const [key, value] of Object.entries(fixture)) {
      if (key === 'metadata') continue;
      expect(got[key], key).toEqual(value);
    }
    expect(got.metadata).toMatchObject(fixture.metadata);
  });
});

describe('invalid objects', () => {
  const ns = '/api/v1/namespaces/default';
  const pod = (spec: object) => ({
    metadata: { name: 'bad-pod' },
    spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
  });
  const cases: [string, string, unknown, { field: string; reason: string; message?: RegExp }][] = [
    [
      'pod image of the wrong type',
      `${ns}/pods`,
      pod({ containers: [{ name: 'c', image: 5 }] }),
      { field: 'spec.containers[0].image', reason: 'FieldValueInvalid' },
    ],
    [
      'pod without containers',
      `${ns}/pods`,
      { metadata: { name: 'bad-pod' }, spec: {} },
      { field: 'spec.containers', reason: 'FieldValueRequired', message: /^Required value$/ },
    ],
    [
      'pod restartPolicy',
      `${ns}/pods`,
      pod({ restartPolicy: 'Sometimes' }),
      {
        field: 'spec.restartPolicy',
        reason: 'FieldValueNotSupported',
        message: /^Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"$/,
      },
    ],
    [
      'container port protocol',
      `${ns}/pods`,
      pod({ containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, protocol: 'ICMP' }] }] }),
      { field: 'spec.containers[0].ports[0].protocol', reason: 'FieldValueInvalid' },
    ],
    [
      'quantity',
      `${ns}/pods`,
      pod({ containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: 'lots' } } }] }),
      { field: 'spec.containers[0].resources.limits.cpu', reason: 'FieldValueInvalid' },
    ],
    [
      'rc replicas as a string',
      `${ns}/replicationcontrollers`,
      { metadata: { name: 'bad' }, spec: { replicas: 'two' } },
      { field: 'spec.replicas', reason: 'FieldValueInvalid' },
    ],
    [
      'service type',
      `${ns}/services`,
      { metadata: { name: 'bad' }, spec: { type: 'Magic', ports: [{ port: 80 }] } },
      { field: 'spec.type', reason: 'FieldValueNotSupported' },
    ],
    [
      'service port missing',
      `${ns}/services`,
      { metadata: { name: 'bad' }, spec: { ports: [{ name: 'x' }] } },
      { field: 'spec.ports[0].port', reason: 'FieldValueRequired' },
    ],
    [
      'configmap data value',
      `${ns}/configmaps`,
      { metadata: { name: 'bad' }, data: { k: 1 } },
      { field: 'data.k', reason: 'FieldValueInvalid' },
    ],
    [
      'event time',
      `${ns}/events`,
      { metadata: { name: 'bad' }, firstTimestamp: 'yesterday' },
      { field: 'firstTimestamp', reason: 'FieldValueInvalid', message: /RFC 3339/ },
    ],
    [
      'pv access mode',
      '/api/v1/persistentvolumes',
      { metadata: { name: 'bad' }, spec: { accessModes: ['Sometimes'] } },
      { field: 'spec.accessModes[0]', reason: 'FieldValueNotSupported' },
    ],
    [
      'pvc selector',
      `${ns}/persistentvolumeclaims`,
      { metadata: { name: 'bad' }, spec: { selector: { matchLabels: 'x' } } },
      { field: 'spec.selector.matchLabels', reason: 'FieldValueInvalid' },
    ],
    [
      'node taint without key',
      '/api/v1/nodes',
      { metadata: { name: 'bad' }, spec: { taints: [{ effect: 'NoSchedule' }] } },
      { field: 'spec.taints[0].key', reason: 'FieldValueRequired' },
    ],
    [
      'namespace name',
      '/api/v1/namespaces',
      { metadata: { name: 'Bad.Name' } },
      { field: 'metadata.name', reason: 'FieldValueInvalid', message: /RFC 1123 label/ },
    ],
    [
      'label value',
      `${ns}/serviceaccounts`,
      { metadata: { name: 'bad', labels: { a: 'not valid!' } } },
      { field: 'metadata.labels', reason: 'FieldValueInvalid' },
    ],
    [
      'scc priority',
      '/api/v1/securitycontextconstraints',
      { metadata: { name: 'bad' }, priority: 'high' },
      { field: 'priority', reason: 'FieldValueInvalid' },
    ],
    [
      'limit range type missing',
      `${ns}/limitranges`,
      { metadata: { name: 'bad' }, spec: { limits: [{ max: { cpu: '1' } }] } },
      { field: 'spec.limits[0].type', reason: 'FieldValueRequired' },
    ],
    [
      'quota hard',
      `${ns}/resourcequotas`,
      { metadata: { name: 'bad' }, spec: { hard: { pods: 'many' } } },
      { field: 'spec.hard.pods', reason: 'FieldValueInvalid' },
    ],
    [
      'endpoints address ip',
      `${ns}/endpoints`,
      { metadata: { name: 'bad' }, subsets: [{ addresses: [{ hostname: 'h' }] }] },
      { field: 'subsets[0].addresses[0].ip', reason: 'FieldValueRequired' },
    ],
    [
      'pod template volume',
      `${ns}/podtemplates`,
      {
        metadata: { name: 'bad' },
        template: { spec: { containers: [{ name: 'c' }], volumes: [{ name: 'v', nfs: { server: 's' } }] } },
      },
      { field: 'template.spec.volumes[0].nfs.path', reason: 'FieldValueRequired' },
    ],
  ];
  it.each(cases)('%s', async (_name, path, body, cause) => {
    const res = await srv.api('POST', path, body);
    expect(res.status, res.text).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    const found = res.body.details.causes.find((c: any) => c.field === cause.field);
    expect(found, JSON.stringify(res.body.details.causes)).toMatchObject({ reason: cause.reason });
    if (cause.message) expect(found.message).toMatch(cause.message);
    expect(res.body.message).toContain(cause.field);
  });
});

describe('fieldValidation', () => {
  const path = '/api/v1/namespaces/default/configmaps';
  const body = (name: string) => ({ metadata: { name, bogus: 1 }, data: { k: 'v' }, extra: { deep: true } });

  it('Strict rejects unknown fields with 400 naming each (upstream transformDecodeError wording)', async () => {
    const res = await srv.api('POST', `${path}?fieldValidation=Strict`, body('strict'));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.bogus", unknown field "extra"',
    );
  });

  it('Warn (the default) drops them with Warning headers; Ignore drops them silently', async () => {
    const warn = await srv.api('POST', path, body('warned'));
    expect(warn.status).toBe(201);
    expect(warn.headers.warning).toEqual([
      '299 - "unknown field \\"metadata.bogus\\""',
      '299 - "unknown field \\"extra\\""',
    ]);
    expect(warn.body.extra).toBeUndefined();
    const ignore = await srv.api('POST', `${path}?fieldValidation=Ignore`, body('ignored'));
    expect(ignore.status).toBe(201);
    expect(ignore.headers.warning).toBeUndefined();
    expect((await srv.api('GET', `${path}/ignored`)).body.extra).toBeUndefined();
    const bad = await srv.api('POST', `${path}?fieldValidation=Loose`, body('x'));
    expect(bad.status).toBe(400);
  });
});

describe('immutable fields', () => {
  const ns = '/api/v1/namespaces/default';
  const merge = { 'content-type': 'application/merge-patch+json' };

  it('freezes a bound claim except resources.requests, and a volume source', async () => {
    // Upstream: the spec is frozen from creation on (volumeName may be set once); a bound claim may grow.
    await srv.api('POST', `${ns}/persistentvolumeclaims`, {
      metadata: { name: 'claim' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'fast' },
    });
    expect(
      (await srv.api('PATCH', `${ns}/persistentvolumeclaims/claim`, { spec: { volumeName: 'pv-1' } }, merge)).status,
    ).toBe(200);
    expect(
      (await srv.api('PATCH', `${ns}/persistentvolumeclaims/claim/status`, { status: { phase: 'Bound' } }, merge))
        .status,
    ).toBe(200);
    expect(
      (
        await srv.api(
          'PATCH',
          `${ns}/persistentvolumeclaims/claim`,
          { spec: { resources: { requests: { storage: '2Gi' } } } },
          merge,
        )
      ).status,
    ).toBe(200);
    const frozen = await srv.api(
      'PATCH',
      `${ns}/persistentvolumeclaims/claim`,
      { spec: { storageClassName: 'slow' } },
      merge,
    );
    expect(frozen.status).toBe(422);
    // Upstream 1.33 wording, followed by a diff of the two specs.
    expect(frozen.body.details.causes[0].message).toMatch(
      /^Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims\n/,
    );
    await srv.api('POST', '/api/v1/persistentvolumes', {
      metadata: { name: 'imm-pv' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/a' } },
    });
    expect(
      (await srv.api('PATCH', '/api/v1/persistentvolumes/imm-pv', { spec: { capacity: { storage: '2Gi' } } }, merge))
        .status,
    ).toBe(200);
    const source = await srv.api(
      'PATCH',
      '/api/v1/persistentvolumes/imm-pv',
      { spec: { hostPath: { path: '/b' } } },
      merge,
    );
    expect(source.status).toBe(422);
  });

  it('keeps metadata.uid, creationTimestamp and name immutable', async () => {
    const cm = await srv.api('POST', `${ns}/configmaps`, { metadata: { name: 'meta-imm' } });
    const res = await srv.api('PUT', `${ns}/configmaps/meta-imm`, {
      ...cm.body,
      metadata: { ...cm.body.metadata, uid: 'other', creationTimestamp: '2001-01-01T00:00:00Z' },
    });
    expect(res.status).toBe(422);
    expect(res.body.details.causes.map((c: any) => c.field)).toEqual(['metadata.uid', 'metadata.creationTimestamp']);
  });
});
