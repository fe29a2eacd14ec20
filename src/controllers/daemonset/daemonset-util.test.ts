/**
 * Upstream 1.33 pkg/controller/daemon/util/daemonset_util_test.go, ported: TestIsPodUpdated
 * (10 rows), TestCreatePodTemplate (2), TestReplaceDaemonSetPodNodeNameNodeAffinity (8),
 * TestGetTargetNodeName (4), and AddOrUpdateDaemonPodTolerations's rules (4), plus the
 * surge/unavailable counts.
 */
import { describe, expect, it } from 'vitest';
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import {
  addOrUpdateDaemonPodTolerations,
  allowsSurge,
  createPodTemplate,
  isPodUpdated,
  replaceDaemonSetPodNodeNameNodeAffinity,
  surgeCount,
  targetNodeName,
  unavailableCount,
} from './daemonset-util.js';

const pod = (labels?: Record<string, string>, spec: Record<string, unknown> = {}): Pod =>
  ({ metadata: { name: 'pod1', namespace: 'default', labels }, spec: { containers: [], ...spec } }) as Pod;

describe('IsPodUpdated (upstream TestIsPodUpdated)', () => {
  const gen = 12345;
  const bad = 12350;
  const hash = '55555';
  const labels = { 'pod-template-generation': String(gen), 'controller-revision-hash': hash };
  const labelsNoHash = { 'pod-template-generation': String(gen) };
  it.each([
    ['templateGeneration and hash both match', gen, labels, hash, true],
    ["templateGeneration matches, hash doesn't", gen, labels, hash + '123', true],
    ['templateGeneration matches, no hash label, has hash', gen, labelsNoHash, hash, true],
    ['templateGeneration matches, no hash label, no hash', gen, labelsNoHash, '', true],
    ['templateGeneration matches, has hash label, no hash', gen, labels, '', true],
    ["templateGeneration doesn't match, hash does", bad, labels, hash, true],
    ["templateGeneration and hash don't match", bad, labels, hash + '123', false],
    ['empty labels, no hash', gen, {}, '', false],
    ['empty labels', gen, {}, hash, false],
    ['no labels', gen, undefined, hash, false],
  ])('%s', (_name, generation, podLabels, h, want) => {
    expect(isPodUpdated(pod(podLabels), h, generation)).toBe(want);
  });
});

describe('CreatePodTemplate (upstream TestCreatePodTemplate)', () => {
  it.each([
    [1, '', false],
    [2, '3242341807', true],
  ])('generation %i hash %j', (generation, hash, expectUniqueLabel) => {
    const t = createPodTemplate({}, generation, hash);
    expect(t.metadata?.labels?.['pod-template-generation']).toBe(String(generation));
    if (expectUniqueLabel) expect(t.metadata?.labels?.['controller-revision-hash']).toBe(hash);
    else expect(t.metadata?.labels).not.toHaveProperty('controller-revision-hash');
  });

  it('adds the daemon tolerations and leaves the template alone', () => {
    const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [] } };
    const t = createPodTemplate(template as never, undefined, 'h');
    expect(t.spec?.tolerations).toHaveLength(6);
    expect(t.metadata?.labels).toEqual({ app: 'a', 'controller-revision-hash': 'h' });
    expect(template).toEqual({ metadata: { labels: { app: 'a' } }, spec: { containers: [] } });
  });
});

const byName = (values: string[], operator = 'In', key = 'metadata.name') => ({
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchFields: [{ key, operator, values }] }],
    },
  },
});
const hostnameExpr = { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['host_1'] }] };

describe('ReplaceDaemonSetPodNodeNameNodeAffinity (upstream TestReplaceDaemonSetPodNodeNameNodeAffinity)', () => {
  const preferred = [{ weight: 1, preference: hostnameExpr }];
  it.each([
    ['nil affinity', undefined, byName(['host_1'])],
    [
      'a required hostname expression',
      { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [hostnameExpr] } } },
      byName(['host_1']),
    ],
    [
      'preferred terms are kept',
      { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: preferred } },
      {
        nodeAffinity: {
          ...byName(['host_1']).nodeAffinity,
          preferredDuringSchedulingIgnoredDuringExecution: preferred,
        },
      },
    ],
    ['two node names', byName(['host_1', 'host_2']), byName(['host_1'])],
    ['nil affinity again', null, byName(['host_1'])],
    [
      'an expression term and a field term',
      {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'hostname', operator: 'In', values: ['host_1'] }] },
              byName(['host_2']).nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0],
            ],
          },
        },
      },
      byName(['host_1']),
    ],
    ['NotIn another node', byName(['host_2'], 'NotIn'), byName(['host_1'])],
    ['another field key', byName(['bar'], 'In', 'metadata.foo'), byName(['host_1'])],
  ])('%s', (_name, affinity, expected) => {
    expect(replaceDaemonSetPodNodeNameNodeAffinity(affinity as never, 'host_1')).toEqual(expected);
  });
});

describe('GetTargetNodeName (upstream TestGetTargetNodeName)', () => {
  it('reads spec.nodeName', () => expect(targetNodeName(pod({}, { nodeName: 'node-1' }))).toBe('node-1'));
  it('reads the metadata.name field affinity', () =>
    expect(targetNodeName(pod({}, { affinity: byName(['node-1']) }))).toBe('node-1'));
  it('refuses two node names', () =>
    expect(() => targetNodeName(pod({}, { affinity: byName(['node-1', 'node-2']) }))).toThrow(
      "the matchFields value of 'metadata.name' is not unique for pod default/pod1",
    ));
  it('refuses a pod naming no node', () =>
    expect(() => targetNodeName(pod({}))).toThrow(
      'no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod default/pod1',
    ));
});

describe('AddOrUpdateDaemonPodTolerations', () => {
  const keys = (spec: object) =>
    addOrUpdateDaemonPodTolerations(spec as never).tolerations?.map((t) => `${t.key}:${t.effect}`);
  it('adds the six default tolerations, Exists, without tolerationSeconds', () => {
    const out = addOrUpdateDaemonPodTolerations({ containers: [] } as never).tolerations ?? [];
    expect(out.map((t) => `${t.key}:${t.effect}`)).toEqual([
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule',
      'node.kubernetes.io/pid-pressure:NoSchedule',
      'node.kubernetes.io/unschedulable:NoSchedule',
    ]);
    expect(out.every((t) => t.operator === 'Exists' && t.tolerationSeconds === undefined)).toBe(true);
  });
  it('adds network-unavailable for a hostNetwork pod', () =>
    expect(keys({ containers: [], hostNetwork: true })).toContain('node.kubernetes.io/network-unavailable:NoSchedule'));
  it('replaces a matching toleration that has tolerationSeconds', () => {
    const spec = {
      containers: [],
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    };
    const out = addOrUpdateDaemonPodTolerations(spec as never).tolerations ?? [];
    expect(out).toHaveLength(6);
    expect(out[0]).toEqual({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' });
    expect(spec.tolerations[0].tolerationSeconds).toBe(300);
  });
  it("keeps the pod's own tolerations first", () =>
    expect(
      keys({ containers: [], tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }] })?.[0],
    ).toBe('dedicated:NoSchedule'));
});

describe('SurgeCount, UnavailableCount, AllowsSurge', () => {
  const ds = (type: string, rollingUpdate?: object) =>
    ({ metadata: {}, spec: { updateStrategy: { type, rollingUpdate } } }) as DaemonSet;
  it('scales percentages up and is 0 for OnDelete', () => {
    expect(unavailableCount(ds('RollingUpdate', { maxUnavailable: '10%' }), 15)).toBe(2);
    expect(surgeCount(ds('RollingUpdate', { maxSurge: '50%' }), 3)).toBe(2);
    expect(surgeCount(ds('OnDelete', { maxSurge: 2 }), 3)).toBe(0);
    expect(unavailableCount(ds('OnDelete', { maxUnavailable: 2 }), 3)).toBe(0);
    expect(allowsSurge(ds('RollingUpdate', { maxSurge: 1 }))).toBe(true);
    expect(allowsSurge(ds('RollingUpdate', { maxSurge: 0, maxUnavailable: 1 }))).toBe(false);
  });
  it('refuses a string that is not a percentage', () =>
    expect(() => surgeCount(ds('RollingUpdate', { maxSurge: 'x' }), 3)).toThrow('not a percentage'));
});
