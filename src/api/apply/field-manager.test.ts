// The field manager chain, from k8s.io/apimachinery pkg/util/managedfields tests (fieldmanager_test,
// managedfieldsupdater_test, capmanagers_test, skipnonapplied_test, stripmeta, lastapplied*) and
// what kube-apiserver writes for core/v1 objects.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { patchMetaOf } from '../core/patch-meta.js';
import { podSchema } from '../../resources/pods/pods.schema.js';
import { serviceSchema } from '../../resources/services/services.schema.js';
import { recordApply, recordUpdate, type ApplyResult, type WriteContext } from './field-manager.js';
import { FieldSet } from './field-set.js';
import { fieldsV1Text, fromFieldsV1 } from './fields-v1.js';
import { LAST_APPLIED_ANNOTATION } from './last-applied.js';
import type { ManagedFieldsEntry } from './managed-fields.js';
import { makePath } from './path.js';
import type { JsonMap } from './value.js';

const pod = patchMetaOf(podSchema);
const servicePatch = patchMetaOf(serviceSchema);
const y = (s: string) => parse(s) as JsonMap;
const T0 = new Date('2024-05-01T10:00:00.123Z');
const T1 = new Date('2024-05-01T11:00:00Z');
const podCtx: WriteContext = { apiVersion: 'v1', kind: 'Pod', now: T0, ignored: FieldSet.of(makePath('status')) };
const cmCtx: WriteContext = { apiVersion: 'v1', kind: 'ConfigMap', now: T0 };
const text = (e: ManagedFieldsEntry) => fieldsV1Text(fromFieldsV1(e.fieldsV1));
const summary = (entries: readonly ManagedFieldsEntry[]) =>
  entries.map((e) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}: ${text(e)}`);

const entriesOf = (obj: JsonMap) => (obj.metadata as JsonMap).managedFields as unknown as ManagedFieldsEntry[];

function applied(r: ApplyResult) {
  if (r.status !== 'applied') throw new Error(`expected applied, got ${JSON.stringify(r)}`);
  return r;
}

const nginxPod = y(`
apiVersion: v1
kind: Pod
metadata: {name: nginx, namespace: default, uid: u1, resourceVersion: "5", creationTimestamp: "2024-05-01T09:00:00Z", labels: {run: nginx}}
spec:
  containers:
  - {name: nginx, image: nginx, ports: [{containerPort: 80, protocol: TCP}], resources: {}}
  dnsPolicy: ClusterFirst
  restartPolicy: Always
status: {phase: Pending}
`);

describe('recordUpdate (fieldmanager.go Update chain)', () => {
  it('records a create as kube-apiserver does: metadata stripped, status reset, "." only for new maps and items', () => {
    const r = recordUpdate(null, nginxPod, 'kubectl-run', undefined, pod, podCtx);
    expect(r.managedFields).toHaveLength(1);
    expect(r.managedFields[0]).toMatchObject({
      manager: 'kubectl-run',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2024-05-01T10:00:00Z',
      fieldsType: 'FieldsV1',
    });
    expect(Object.keys(r.managedFields[0])).toEqual([
      'manager',
      'operation',
      'apiVersion',
      'time',
      'fieldsType',
      'fieldsV1',
    ]);
    expect(text(r.managedFields[0])).toBe(
      '{"f:metadata":{"f:labels":{".":{},"f:run":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},"f:resources":{}}},"f:dnsPolicy":{},"f:restartPolicy":{}}}',
    );
    expect((r.object.metadata as JsonMap).managedFields).toEqual(r.managedFields);
  });

  it('gives changed fields to the updater and takes them from appliers (TestUpdateApplyConflict, updater_claims_field)', () => {
    const cm = y('{apiVersion: v1, kind: ConfigMap, metadata: {name: c, uid: u}, data: {a: "1", b: "2"}}');
    const a = applied(recordApply(null, cm, 'helm', undefined, undefined, cmCtx));
    const changed = y('{apiVersion: v1, kind: ConfigMap, metadata: {name: c, uid: u}, data: {a: "1", b: "3", c: "4"}}');
    const r = recordUpdate(a.object, changed, 'kubectl-edit', a.managedFields, undefined, { ...cmCtx, now: T1 });
    expect(summary(r.managedFields)).toEqual([
      'helm/Apply: {"f:data":{"f:a":{}}}',
      'kubectl-edit/Update: {"f:data":{"f:b":{},"f:c":{}}}',
    ]);
    expect(r.managedFields[1].time).toBe('2024-05-01T11:00:00Z');
  });

  it('keeps the stored entries when the request omits managedFields, uses decodable ones it sends, and resets on [] or [{}]', () => {
    const first = recordUpdate(
      null,
      y('{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: "1"}}'),
      'one',
      undefined,
      undefined,
      cmCtx,
    );
    const live = first.object;
    const next = (_meta: JsonMap) =>
      y(`{apiVersion: v1, kind: ConfigMap, data: {a: "1", b: "2"}}`) as Record<string, unknown> & {
        metadata?: JsonMap;
      } & JsonMap;
    const withMeta = (extra: object) => ({ ...next({}), metadata: { name: 'c', ...extra } }) as JsonMap;
    // Absent: stored entries kept, the writer added.
    expect(
      summary(recordUpdate(live, withMeta({}), 'two', first.managedFields, undefined, cmCtx).managedFields),
    ).toEqual(['one/Update: {"f:data":{".":{},"f:a":{}}}', 'two/Update: {"f:data":{"f:b":{}}}']);
    // Reset: an empty list or one empty entry clears them, and an untracked object stays untracked (skipnonapplied).
    for (const reset of [[], [{}]]) {
      const r = recordUpdate(live, withMeta({ managedFields: reset }), 'two', first.managedFields, undefined, cmCtx);
      expect(r.managedFields).toEqual([]);
      expect(r.object.metadata).toEqual({ name: 'c' });
    }
    // Different, decodable entries replace the stored ones.
    const own: ManagedFieldsEntry[] = [
      {
        manager: 'x',
        operation: 'Update',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {} } },
      },
    ];
    expect(
      summary(
        recordUpdate(live, withMeta({ managedFields: own }), 'two', first.managedFields, undefined, cmCtx)
          .managedFields,
      ),
    ).toEqual(['x/Update: {"f:data":{"f:a":{}}}', 'two/Update: {"f:data":{"f:b":{}}}']);
    // Undecodable entries (no fieldsType) count as absent.
    const bad = [{ manager: 'x', operation: 'Update', apiVersion: 'v1' }];
    expect(
      recordUpdate(
        live,
        withMeta({ managedFields: bad }),
        'two',
        first.managedFields,
        undefined,
        cmCtx,
      ).managedFields.map((e) => e.manager),
    ).toEqual(['one', 'two']);
  });

  it('does not track an existing object that has no managers (TestNoUpdateBeforeFirstApply), but tracks creates', () => {
    const cm = y('{apiVersion: v1, kind: ConfigMap, metadata: {name: c, uid: u}, data: {a: "1"}}');
    expect(recordUpdate(cm, { ...cm, data: { a: '2' } }, 'm', undefined, undefined, cmCtx).managedFields).toEqual([]);
    expect(recordUpdate(null, cm, 'm', undefined, undefined, cmCtx).managedFields).toHaveLength(1);
  });

  it('never records metadata identity fields (TestApplyStripsFields)', () => {
    const obj = y(
      '{apiVersion: v1, kind: ConfigMap, metadata: {name: b, namespace: b, uid: b, generation: 0, resourceVersion: b, creationTimestamp: "2024-01-01T00:00:00Z"}}',
    );
    expect(recordUpdate(null, obj, 'm', undefined, undefined, cmCtx).managedFields).toEqual([]);
  });

  it('changes the time only when the write changed something the manager now owns (managedfieldsupdater_test)', () => {
    const cm = y('{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: "1"}}');
    const first = recordUpdate(null, cm, 'm', undefined, undefined, cmCtx);
    const same = recordUpdate(first.object, cm, 'm', first.managedFields, undefined, { ...cmCtx, now: T1 });
    expect(same.managedFields[0].time).toBe('2024-05-01T10:00:00Z');
    const other = recordUpdate(first.object, { ...cm, data: { a: '1', b: '2' } }, 'n', first.managedFields, undefined, {
      ...cmCtx,
      now: T1,
    });
    expect(other.managedFields.map((e) => [e.manager, e.time])).toEqual([
      ['m', '2024-05-01T10:00:00Z'],
      ['n', '2024-05-01T11:00:00Z'],
    ]);
  });

  it('records subresource writes with `subresource` and keeps the stored entries even when the body sends others', () => {
    const live = recordUpdate(null, nginxPod, 'creator', undefined, pod, podCtx).object;
    const body = {
      ...live,
      metadata: { ...(live.metadata as JsonMap), managedFields: [] },
      status: { phase: 'Running' },
    } as JsonMap;
    const r = recordUpdate(live, body, 'kubelet', entriesOf(live), pod, {
      ...podCtx,
      subresource: 'status',
      ignored: FieldSet.of(makePath('spec')),
    });
    expect(summary(r.managedFields).slice(1)).toEqual(['kubelet/Update/status: {"f:status":{"f:phase":{}}}']);
    expect(r.managedFields[0].manager).toBe('creator');
    expect(Object.keys(r.managedFields[1])).toEqual([
      'manager',
      'operation',
      'apiVersion',
      'time',
      'fieldsType',
      'fieldsV1',
      'subresource',
    ]);
  });

  it('keeps at most 10 Update managers, merging the oldest into ancient-changes (capmanagers_test)', () => {
    let obj: JsonMap = y('{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}');
    let entries: ManagedFieldsEntry[] | undefined;
    for (let i = 1; i <= 12; i++) {
      const next = { ...obj, data: { ...((obj.data as JsonMap) ?? {}), [`k${i}`]: 'v' } } as JsonMap;
      const r = recordUpdate(i === 1 ? null : obj, next, `m${i}`, entries, undefined, {
        ...cmCtx,
        now: new Date(Date.UTC(2024, 0, 1, i)),
      });
      obj = r.object;
      entries = r.managedFields;
    }
    expect(entries!.map((e) => e.manager)).toEqual([
      'ancient-changes',
      ...Array.from({ length: 9 }, (_, i) => `m${i + 4}`),
    ]);
    expect(text(entries![0])).toBe('{"f:data":{".":{},"f:k1":{},"f:k2":{},"f:k3":{}}}');
    expect(entries![0].time).toBe('2024-01-01T03:00:00Z');
  });

  it.each([
    [
      'one version, no ancient changes',
      [
        ['m1', 'v1', 1, 'a'],
        ['m2', 'v1', 2, 'b'],
        ['m3', 'v1', 3, 'c'],
        ['m4', 'v1', 4, 'd'],
      ],
      [
        ['ancient-changes', 'v1', 2, 'ab'],
        ['m3', 'v1', 3, 'c'],
        ['m4', 'v1', 4, 'd'],
      ],
    ],
    [
      'one version, one ancient changes',
      [
        ['ancient-changes', 'v1', 2, 'ab'],
        ['m3', 'v1', 3, 'c'],
        ['m4', 'v1', 4, 'd'],
        ['m5', 'v1', 5, 'e'],
      ],
      [
        ['ancient-changes', 'v1', 3, 'abc'],
        ['m4', 'v1', 4, 'd'],
        ['m5', 'v1', 5, 'e'],
      ],
    ],
    [
      'two versions',
      [
        ['m1', 'v1', 1, 'a'],
        ['m2', 'v2', 2, 'b'],
        ['m3', 'v1', 3, 'c'],
        ['m4', 'v1', 4, 'd'],
        ['m5', 'v1', 5, 'e'],
      ],
      [
        ['m2', 'v2', 2, 'b'],
        ['ancient-changes', 'v1', 4, 'acd'],
        ['m5', 'v1', 5, 'e'],
      ],
    ],
  ] as const)('caps with max 3: %s (TestCapUpdateManagers)', (_n, input, want) => {
    const entry = ([m, v, h, fields]: readonly [string, string, number, string]): ManagedFieldsEntry => ({
      manager: m,
      operation: 'Update',
      apiVersion: v,
      time: new Date(Date.UTC(2024, 0, 1, h)).toISOString().replace('.000', ''),
      fieldsType: 'FieldsV1',
      fieldsV1: Object.fromEntries([...fields].map((f) => [`f:${f}`, {}])),
    });
    const obj = y('{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}');
    const r = recordUpdate(
      obj,
      { ...obj, metadata: { name: 'c', managedFields: input.map(entry) } } as unknown as JsonMap,
      'noop',
      undefined,
      undefined,
      { ...cmCtx, maxUpdateManagers: 3 },
    );
    expect(r.managedFields).toEqual(want.map(entry));
  });
});

describe('apply (fieldmanager.go Apply chain)', () => {
  const svcCtx: WriteContext = { apiVersion: 'v1', kind: 'Service', now: T0 };
  const svc = y(`
apiVersion: v1
kind: Service
metadata: {name: web, labels: {app: web}}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
`);

  it('creates: the applier owns what it sent, keyed as upstream (ports by port and default protocol, atomic selector)', () => {
    const r = applied(recordApply(null, svc, 'helm', undefined, servicePatch, svcCtx));
    expect(r.changed).toBe(true);
    expect(summary(r.managedFields)).toEqual([
      'helm/Apply: {"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:ports":{"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:targetPort":{}}},"f:selector":{}}}',
    ]);
    expect(Object.keys(r.managedFields[0])).toEqual([
      'manager',
      'operation',
      'apiVersion',
      'time',
      'fieldsType',
      'fieldsV1',
    ]);
    expect(r.object).toMatchObject({
      metadata: { name: 'web', managedFields: r.managedFields },
      spec: { ports: [{ port: 80, targetPort: 8080 }] },
    });
    expect((r.object.metadata as JsonMap).creationTimestamp).toBeUndefined();
  });

  it('conflicts with an updater that owns a field it would change; force takes the field over', () => {
    const created = recordUpdate(
      null,
      { ...svc, metadata: { name: 'web', uid: 'u' } } as JsonMap,
      'kubectl-create',
      undefined,
      servicePatch,
      svcCtx,
    );
    const config = y(
      '{apiVersion: v1, kind: Service, metadata: {name: web}, spec: {ports: [{port: 80, targetPort: 9090}]}}',
    );
    const r = recordApply(created.object, config, 'helm', created.managedFields, servicePatch, svcCtx);
    expect(r).toMatchObject({ status: 'conflict' });
    if (r.status !== 'conflict') return;
    expect(r.conflicts.map((c) => [c.manager, c.operation, c.apiVersion, c.field])).toEqual([
      ['kubectl-create', 'Update', 'v1', '.spec.ports[port=80,protocol="TCP"].targetPort'],
    ]);
    const forced = applied(
      recordApply(created.object, config, 'helm', created.managedFields, servicePatch, {
        ...svcCtx,
        force: true,
        now: T1,
      }),
    );
    expect(summary(forced.managedFields)).toEqual([
      'helm/Apply: {"f:spec":{"f:ports":{"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:targetPort":{}}}}}',
      'kubectl-create/Update: {"f:spec":{"f:ports":{".":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{}}},"f:selector":{}}}',
    ]);
    expect(forced.object.spec).toMatchObject({ ports: [{ port: 80, targetPort: 9090 }], selector: { app: 'web' } });
  });

  it('shares fields applied with equal values, and removes fields no applier keeps (labels, env items, finalizers)', () => {
    const ctx = { ...podCtx, kind: 'Pod' };
    const base = `apiVersion: v1
kind: Pod
metadata: {name: p, labels: {a: "1", b: "2"}, finalizers: [x/y]}
spec: {containers: [{name: c, image: nginx, env: [{name: E1, value: "1"}, {name: E2, value: "2"}]}]}`;
    const one = applied(recordApply(null, y(base), 'one', undefined, pod, ctx));
    const two = applied(
      recordApply(
        one.object,
        y(`apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {a: "1"}}`),
        'two',
        one.managedFields,
        pod,
        ctx,
      ),
    );
    expect(two.changed).toBe(false);
    const smaller = y(`apiVersion: v1
kind: Pod
metadata: {name: p}
spec: {containers: [{name: c, image: nginx, env: [{name: E2, value: "2"}]}]}`);
    const three = applied(recordApply(two.object, smaller, 'one', two.managedFields, pod, ctx));
    expect(three.object.metadata).toMatchObject({ labels: { a: '1' } });
    expect((three.object.metadata as JsonMap).finalizers).toBeUndefined();
    expect(three.object.spec).toEqual({
      containers: [{ name: 'c', image: 'nginx', env: [{ name: 'E2', value: '2' }] }],
    });
  });

  it('records the live fields as before-first-apply when the object tracks no managers (TestUpdateBeforeFirstApply)', () => {
    const live = y('{apiVersion: v1, kind: ConfigMap, metadata: {name: c, uid: u}, data: {a: "1"}}');
    const r = recordApply(
      live,
      y('{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: "2"}}'),
      'helm',
      undefined,
      undefined,
      cmCtx,
    );
    expect(r).toMatchObject({
      status: 'conflict',
      conflicts: [{ manager: 'before-first-apply', operation: 'Update', field: '.data.a' }],
    });
    const ok = applied(
      recordApply(
        live,
        y('{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {b: "2"}}'),
        'helm',
        undefined,
        undefined,
        cmCtx,
      ),
    );
    expect(ok.managedFields.map((e) => e.manager)).toEqual(['helm', 'before-first-apply']);
  });

  it('keeps the time of a no-op apply (TestManagedFieldsApplyWithoutChangesDoesNotModifyTime)', () => {
    const cm = y('{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: "1"}}');
    const first = applied(recordApply(null, cm, 'helm', undefined, undefined, cmCtx));
    const again = applied(recordApply(first.object, cm, 'helm', first.managedFields, undefined, { ...cmCtx, now: T1 }));
    expect(again.changed).toBe(false);
    expect(again.managedFields).toEqual(first.managedFields);
    expect(again.object).toEqual(first.object);
  });

  it.each<[string, JsonMap, number, string]>([
    [
      'another kind',
      y('{apiVersion: v1, kind: Secret, metadata: {name: c}}'),
      400,
      'invalid object type: /v1, Kind=Secret',
    ],
    [
      'another version',
      y('{apiVersion: v2, kind: ConfigMap, metadata: {name: c}}'),
      400,
      'invalid object type: /v2, Kind=ConfigMap',
    ],
    ['no type', y('{metadata: {name: c}}'), 400, 'invalid object type: /, Kind='],
    [
      'managedFields in the configuration',
      y('{apiVersion: v1, kind: ConfigMap, metadata: {name: c, managedFields: []}}'),
      400,
      'metadata.managedFields must be nil',
    ],
  ])('rejects %s (TestVersionCheck, TestApplyFailsWithManagedFields)', (_n, config, code, message) => {
    expect(recordApply(null, config, 'm', undefined, undefined, cmCtx)).toEqual({ status: 'invalid', code, message });
  });

  it('rejects duplicate keys in the configuration and undecodable stored managedFields with upstream messages', () => {
    const config = y(
      '{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: ns}, spec: {containers: [{name: a}, {name: a}]}}',
    );
    expect(recordApply(null, config, 'm', undefined, pod, podCtx)).toEqual({
      status: 'invalid',
      code: 500,
      message:
        'failed to create typed patch object (ns/p; /v1, Kind=Pod): .spec.containers: duplicate entries for key [name="a"]',
    });
    const bad = recordApply(
      null,
      y('{apiVersion: v1, kind: ConfigMap}'),
      'm',
      [{ manager: 'x', operation: 'Bogus', apiVersion: 'v1' }],
      undefined,
      cmCtx,
    );
    expect(bad).toEqual({
      status: 'invalid',
      code: 500,
      message: 'failed to decode managed fields: operation must be `Apply` or `Update`',
    });
  });
});

describe('kubectl and the last-applied annotation (lastappliedmanager_test, lastappliedupdater_test)', () => {
  const deployLike = (replicas: number, extra = '') =>
    y(
      `{apiVersion: v1, kind: ReplicationController, metadata: {name: r${extra}}, spec: {replicas: ${replicas}, selector: {app: a}}}`,
    );
  const rcCtx: WriteContext = { apiVersion: 'v1', kind: 'ReplicationController', now: T0 };
  const lastApplied = (obj: JsonMap) =>
    ((obj.metadata as JsonMap).annotations as JsonMap | undefined)?.[LAST_APPLIED_ANNOTATION];

  function clientSideApplied(replicas: number): JsonMap {
    const config = deployLike(replicas);
    const annotation = `${JSON.stringify(config)}\n`;
    const created = {
      ...config,
      metadata: { name: 'r', uid: 'u', annotations: { [LAST_APPLIED_ANNOTATION]: annotation } },
    } as JsonMap;
    return recordUpdate(null, created, 'kubectl-client-side-apply', undefined, undefined, rcCtx).object;
  }

  it('upgrades from client-side apply without conflicts on fields kubectl last applied, and updates the annotation', () => {
    const live = clientSideApplied(3);
    const entries = entriesOf(live);
    const other = recordApply(live, deployLike(5), 'helm', entries, undefined, rcCtx);
    expect(other).toMatchObject({
      status: 'conflict',
      conflicts: [{ manager: 'kubectl-client-side-apply', field: '.spec.replicas' }],
    });
    const r = applied(recordApply(live, deployLike(5), 'kubectl', entries, undefined, rcCtx));
    expect(r.object.spec).toMatchObject({ replicas: 5 });
    expect(lastApplied(r.object)).toBe(
      '{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"r"},"spec":{"replicas":5,"selector":{"app":"a"}}}\n',
    );
    expect(r.managedFields.map((e) => e.manager)).toContain('kubectl');
  });

  it('still conflicts on fields changed since the last client-side apply', () => {
    const live = clientSideApplied(3);
    const edited = recordUpdate(
      live,
      { ...live, spec: { replicas: 4, selector: { app: 'a' } } } as JsonMap,
      'kubectl-edit',
      entriesOf(live),
      undefined,
      rcCtx,
    );
    const r = recordApply(edited.object, deployLike(5), 'kubectl', edited.managedFields, undefined, rcCtx);
    expect(r).toMatchObject({ status: 'conflict', conflicts: [{ manager: 'kubectl-edit', field: '.spec.replicas' }] });
  });

  it('drops the annotation when it would push annotations over 256 KiB (TestLargeLastApplied)', () => {
    const live = clientSideApplied(3);
    const big = { ...deployLike(3), metadata: { name: 'r', annotations: { big: 'x'.repeat(200 * 1024) } } } as JsonMap;
    const r = applied(recordApply(live, big, 'kubectl', entriesOf(live), undefined, rcCtx));
    expect(lastApplied(r.object)).toBeUndefined();
    expect(((r.object.metadata as JsonMap).annotations as JsonMap).big).toHaveLength(200 * 1024);
  });

  it('leaves objects without the annotation alone, and other managers never touch it', () => {
    const r = applied(recordApply(null, deployLike(1), 'kubectl', undefined, undefined, rcCtx));
    expect(lastApplied(r.object)).toBeUndefined();
    const live = clientSideApplied(3);
    const h = recordApply(live, deployLike(3), 'helm', entriesOf(live), undefined, rcCtx);
    expect(lastApplied(applied(h).object)).toBe(lastApplied(live));
  });
});
