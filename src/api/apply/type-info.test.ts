import { describe, expect, it } from 'vitest';
import type { PatchMeta } from '../core/patch-meta.js';
import { RESOURCE_TABLE } from '../../resources/table.js';
import { isNamedField, listInfo, listTypeProblems, openApiListTypes, ssaExtensions } from './type-info.js';

const kindMeta = (kind: string) => RESOURCE_TABLE.find((d) => d.kind === kind)!.patchMeta;
const byName: PatchMeta = { merge: { key: 'name' } };

describe('list types from patch metadata (kube-openapi schemaconv rules, k8s.io/api core/v1 tags)', () => {
  it.each<[string, PatchMeta | undefined, string, string[]]>([
    ['merged by key', byName, 'map', ['name']],
    ['merged as a set', { merge: {} }, 'set', []],
    ['not merged', {}, 'atomic', []],
    ['absent', undefined, 'atomic', []],
    [
      'explicit list-map keys',
      { merge: { key: 'port' }, listMapKeys: ['port', 'protocol'] },
      'map',
      ['port', 'protocol'],
    ],
    ['explicit atomic despite merge (PodStatus.hostIPs)', { merge: { key: 'ip' }, listType: 'atomic' }, 'atomic', []],
  ])('%s', (_n, meta, type, keys) => {
    expect(listInfo(meta).type).toBe(type);
    expect(listInfo(meta).keys).toEqual(keys);
  });

  it('struct fields versus free-form map keys', () => {
    expect(isNamedField(undefined, 'x')).toBe(true);
    expect(isNamedField({ fields: { a: {} } }, 'b')).toBe(true);
    expect(isNamedField({ items: {} }, 'b')).toBe(false);
    expect(isNamedField({ items: {}, fields: { b: {} } }, 'b')).toBe(true);
  });

  it('publishes OpenAPI extensions per node', () => {
    expect(ssaExtensions(byName, true)).toEqual({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
    expect(ssaExtensions({ merge: {} }, true)).toEqual({ 'x-kubernetes-list-type': 'set' });
    expect(ssaExtensions(undefined, true)).toEqual({});
    expect(ssaExtensions({ mapType: 'atomic' }, false)).toEqual({ 'x-kubernetes-map-type': 'atomic' });
  });

  it("publishes a pod's list types as today's k8s.io/api core/v1 tags say", () => {
    const types = openApiListTypes(kindMeta('Pod'));
    const map = (...keys: string[]) => ({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys });
    const atomic = { 'x-kubernetes-map-type': 'atomic' };
    expect(types).toMatchObject({
      'metadata.finalizers': { 'x-kubernetes-list-type': 'set' },
      'metadata.ownerReferences': map('uid'),
      'spec.containers': map('name'),
      'spec.containers[].ports': map('containerPort', 'protocol'),
      'spec.containers[].env': map('name'),
      'spec.containers[].env[].valueFrom.configMapKeyRef': atomic,
      'spec.containers[].env[].valueFrom.secretKeyRef': atomic,
      'spec.containers[].env[].valueFrom.fieldRef': atomic,
      'spec.containers[].volumeMounts': map('mountPath'),
      'spec.containers[].volumeDevices': map('devicePath'),
      'spec.initContainers[].ports': map('containerPort', 'protocol'),
      'spec.volumes': map('name'),
      'spec.imagePullSecrets': map('name'),
      'spec.imagePullSecrets[]': atomic,
      'spec.hostAliases': map('ip'),
      'spec.nodeSelector': atomic,
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution': atomic,
      'status.conditions': map('type'),
    });
  });

  it.each<[string, Record<string, object>]>([
    [
      'Service',
      {
        'spec.ports': { 'x-kubernetes-list-map-keys': ['port', 'protocol'] },
        'spec.selector': { 'x-kubernetes-map-type': 'atomic' },
      },
    ],
    [
      'ServiceAccount',
      { secrets: { 'x-kubernetes-list-map-keys': ['name'] }, 'secrets[]': { 'x-kubernetes-map-type': 'atomic' } },
    ],
    [
      'ReplicationController',
      {
        'spec.selector': { 'x-kubernetes-map-type': 'atomic' },
        'status.conditions': { 'x-kubernetes-list-map-keys': ['type'] },
      },
    ],
    ['Event', { involvedObject: { 'x-kubernetes-map-type': 'atomic' } }],
    ['Binding', { target: { 'x-kubernetes-map-type': 'atomic' } }],
    [
      'PersistentVolume',
      {
        'spec.rbd.secretRef': { 'x-kubernetes-map-type': 'atomic' },
      },
    ],
  ])('%s: the table row publishes upstream tags', (kind, want) => {
    expect(openApiListTypes(kindMeta(kind))).toMatchObject(want);
    expect(listTypeProblems(kindMeta(kind))).toEqual([]);
  });

  it.each(RESOURCE_TABLE.map((d) => [`${d.kind} ${d.group || 'core'}/${d.version}`, d.patchMeta] as const))(
    '%s: strategic-merge keys and SSA list-map keys agree on every list',
    (_kind, meta) => {
      expect(listTypeProblems(meta)).toEqual([]);
    },
  );

  it('reports disagreements', () => {
    const bad: PatchMeta = {
      fields: {
        a: { merge: { key: 'name' }, listMapKeys: ['id'] },
        b: { merge: {}, listType: 'map', listMapKeys: ['x'] },
        d: { listType: 'atomic', listMapKeys: ['x'] },
        e: { merge: { key: 'k' }, keyDefaults: { other: 1 } },
      },
    };
    expect(listTypeProblems(bad)).toEqual([
      'a: merge key name is not a list-map key',
      'b: merged as a set but list type map',
      'd: list-map keys on a atomic list',
      'e: default for other, not a key',
    ]);
  });
});
