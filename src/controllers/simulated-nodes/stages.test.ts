/** kwok Stage documents: parsing from the config file, selectors, delays, weights, merge patch. */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { parseSimulatedNodesConfig, SimulatedNodesConfigError } from './config-file.js';
import {
  chooseStage,
  evaluatePath,
  mergePatch,
  modifyFinalizers,
  stageDelayMs,
  stageMatches,
  type PodStage,
} from './stages.js';

/** kwok's default pod-delete stage (kustomize/stage/pod/fast/pod-delete.yaml), verbatim in shape. */
const POD_DELETE = `
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-delete
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'Exists'
  next:
    finalizers:
      empty: true
    delete: true
`;

const POD_COMPLETE = `
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata: { name: pod-complete }
spec:
  resourceRef: { kind: Pod }
  selector:
    matchLabels: { app: batch }
    matchAnnotations: { finish: "yes" }
    matchExpressions:
    - { key: '.metadata.deletionTimestamp', operator: DoesNotExist }
    - { key: '.status.phase', operator: In, values: [Running] }
    - { key: '.metadata.ownerReferences.[].kind', operator: In, values: [Job] }
  delay:
    durationMilliseconds: 1000
    durationFrom: { expressionFrom: '.metadata.annotations["complete-after"]' }
  next:
    event: { type: Normal, reason: Completed, message: done }
    statusTemplate: |
      phase: Succeeded
      podIP: null
`;

function stagesOf(text: string): PodStage[] {
  return [...(parseSimulatedNodesConfig(text, 'stages.yaml').stages ?? [])];
}

function pod(over: { labels?: object; annotations?: object; status?: object; owner?: string; deleted?: boolean }): Pod {
  return {
    metadata: {
      name: 'p',
      namespace: 'ns',
      labels: over.labels,
      annotations: over.annotations,
      ...(over.owner ? { ownerReferences: [{ apiVersion: 'batch/v1', kind: over.owner, name: 'j', uid: 'u' }] } : {}),
      ...(over.deleted ? { deletionTimestamp: '2026-01-01T00:00:30Z' } : {}),
    },
    spec: { containers: [{ name: 'a', image: 'x' }] },
    status: over.status,
  } as unknown as Pod;
}

describe('Stage documents in the config file', () => {
  it('reads options and Stages from one file, the statusTemplate as a merge patch', () => {
    const opts = parseSimulatedNodesConfig(`podStartMs: 100\n---${POD_DELETE}---${POD_COMPLETE}`);
    expect(opts.podStartMs).toBe(100);
    expect(opts.stages?.map((s) => s.metadata.name)).toEqual(['pod-delete', 'pod-complete']);
    expect(opts.stages?.[1]?.status).toEqual({ phase: 'Succeeded', podIP: null });
    expect(opts.stages?.[1]?.spec.resourceRef.apiGroup).toBe('v1');
  });

  it.each([
    [POD_DELETE.replace('kind: Pod', 'kind: Node'), /resourceRef.kind: only Pod stages are supported/],
    [POD_COMPLETE.replace('phase: Succeeded', 'phase: {{ .x }}'), /Go templates are not supported/],
    [POD_DELETE.replace("operator: 'Exists'", "operator: 'Exists'\n      values: [x]"), /values must be/],
    [POD_DELETE.replace('delete: true', 'delete: true\n    patches: []'), /Unrecognized key.*patches/],
    [POD_COMPLETE.replace('phase: Succeeded\n      podIP: null', '- a'), /statusTemplate: not a YAML mapping/],
  ])('refuses what is not supported, naming the document (%#)', (text, message) => {
    expect(() => parseSimulatedNodesConfig(text, 'stages.yaml')).toThrow(SimulatedNodesConfigError);
    expect(() => parseSimulatedNodesConfig(text, 'stages.yaml')).toThrow(message);
  });
});

describe('evaluatePath', () => {
  const obj = { a: { b: 1, 'x.y': 'z' }, list: [{ k: 'A' }, { k: 'B' }] };
  it.each([
    ['.a.b', [1]],
    ['.a["x.y"]', ['z']],
    ['.list.[].k', ['A', 'B']],
    ['.list[].k', ['A', 'B']],
    ['.list[1].k', ['B']],
    ['.missing.deeper', [null]],
  ])('%s', (path, values) => expect(evaluatePath(obj, path)).toEqual(values));
});

describe('stageMatches', () => {
  const [del, complete] = stagesOf(`${POD_DELETE}---${POD_COMPLETE}`) as [PodStage, PodStage];
  const running = {
    labels: { app: 'batch' },
    annotations: { finish: 'yes' },
    status: { phase: 'Running' },
    owner: 'Job',
  };

  it('ANDs labels, annotations and expressions', () => {
    expect(stageMatches(complete, pod(running))).toBe(true);
    expect(stageMatches(complete, pod({ ...running, labels: { app: 'web' } }))).toBe(false);
    expect(stageMatches(complete, pod({ ...running, annotations: {} }))).toBe(false);
    expect(stageMatches(complete, pod({ ...running, status: { phase: 'Pending' } }))).toBe(false);
    expect(stageMatches(complete, pod({ ...running, owner: 'ReplicaSet' }))).toBe(false);
    expect(stageMatches(complete, pod({ ...running, deleted: true }))).toBe(false);
  });

  it('Exists / DoesNotExist on a field', () => {
    expect(stageMatches(del, pod({ deleted: true }))).toBe(true);
    expect(stageMatches(del, pod({}))).toBe(false);
  });
});

describe('stageDelayMs', () => {
  const [complete] = stagesOf(POD_COMPLETE) as [PodStage];
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('takes durationFrom (a Go duration or a time) over durationMilliseconds', () => {
    expect(stageDelayMs(complete, pod({}), now)).toBe(1000);
    expect(stageDelayMs(complete, pod({ annotations: { 'complete-after': '2.5s' } }), now)).toBe(2500);
    expect(stageDelayMs(complete, pod({ annotations: { 'complete-after': '2026-01-01T00:00:10Z' } }), now)).toBe(
      10_000,
    );
  });

  it('adds a uniform jitter up to jitterDurationMilliseconds, or takes a jitter below the duration', () => {
    const jittery = {
      ...complete,
      spec: { ...complete.spec, delay: { durationMilliseconds: 100, jitterDurationMilliseconds: 300 } },
    };
    expect(stageDelayMs(jittery, pod({}), now, () => 0)).toBe(100);
    expect(stageDelayMs(jittery, pod({}), now, () => 0.5)).toBe(200);
    const below = {
      ...complete,
      spec: { ...complete.spec, delay: { durationMilliseconds: 300, jitterDurationMilliseconds: 100 } },
    };
    expect(stageDelayMs(below, pod({}), now, () => 0.5)).toBe(100);
  });
});

describe('chooseStage', () => {
  const [a, b] = stagesOf(`${POD_DELETE}---${POD_COMPLETE}`) as [PodStage, PodStage];
  const weighted = (s: PodStage, weight: number) => ({ ...s, spec: { ...s.spec, weight } });
  it('picks by weight, uniformly when all weigh 0, nothing from none', () => {
    expect(chooseStage([weighted(a, 1), weighted(b, 3)], () => 0.2)?.metadata.name).toBe('pod-delete');
    expect(chooseStage([weighted(a, 1), weighted(b, 3)], () => 0.3)?.metadata.name).toBe('pod-complete');
    expect(chooseStage([a, b], () => 0.6)?.metadata.name).toBe('pod-complete');
    expect(chooseStage([], () => 0)).toBeUndefined();
  });
});

describe('mergePatch', () => {
  it('merges objects, replaces arrays and scalars, removes on null', () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 }, e: [1] }, { a: null, b: { c: 9 }, e: [2, 3] })).toEqual({
      b: { c: 9, d: 3 },
      e: [2, 3],
    });
  });
});

/** Stage of the given spec parts, as kwok's tests build them (resourceRef Pod, next empty). */
function stageWith(spec: Partial<PodStage['spec']>): PodStage {
  return {
    apiVersion: 'kwok.x-k8s.io/v1alpha1',
    kind: 'Stage',
    metadata: { name: 's' },
    spec: { resourceRef: { apiGroup: 'v1', kind: 'Pod' }, weight: 0, next: {}, ...spec },
  };
}

describe('kwok pkg/utils/lifecycle lifecycle_test.go TestStageMatch', () => {
  const labelled = (labels?: object, annotations?: object, extra: object = {}) =>
    ({ ...pod({ labels, annotations }), ...extra }) as Pod;
  it.each([
    ['Test MatchLabels', { matchLabels: { a: 'b', c: 'd' } }, labelled({ a: 'b', c: 'd' }), true],
    ['Test MatchLabels with incorrect labels', { matchLabels: { a: 'b', c: 'd' } }, labelled({ a: 'b' }), false],
    ['Test MatchAnnotations', { matchAnnotations: { a: 'b', c: 'd' } }, labelled(undefined, { a: 'b', c: 'd' }), true],
    [
      'Test MatchAnnotations with incorrect annotations',
      { matchAnnotations: { a: 'b', c: 'd' } },
      labelled(undefined, { a: 'b', c: 'e' }),
      false,
    ],
    [
      'Test MatchExpressions',
      {
        matchExpressions: [
          { key: '.test', operator: 'In' as const, values: ['b', 'c'] },
          { key: '.test', operator: 'NotIn' as const, values: ['b', 'f'] },
        ],
      },
      labelled(),
      false,
    ],
    [
      'Test MatchExpressions on a value (ours)',
      {
        matchExpressions: [
          { key: '.test', operator: 'In' as const, values: ['b', 'c'] },
          { key: '.test', operator: 'NotIn' as const, values: ['b', 'f'] },
        ],
      },
      labelled(undefined, undefined, { test: 'c' }),
      true,
    ],
  ])('%s', (_name, selector, p, expected) => {
    expect(stageMatches(stageWith({ selector }), p)).toBe(expected);
  });
});

describe('kwok lifecycle_test.go TestStageDelay and value_duration_from_test.go (jq cases)', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    ['Duration is not nil and jitterDuration is nil', { durationMilliseconds: 9 }, [9, 9]],
    [
      'Duration is not nil and jitterDuration is not nil',
      { durationMilliseconds: 9, jitterDurationMilliseconds: 4 },
      [4, 4],
    ],
    ['Duration is nil and jitterDuration is not nil', { jitterDurationMilliseconds: 4 }, [0, 3.96]],
    ['Duration is nil and jitterDuration is also nil', undefined, [0, 0]],
  ])('%s', (_name, delay, [low, high]) => {
    const stage = stageWith({ delay });
    expect(stageDelayMs(stage, pod({}), now, () => 0)).toBe(low);
    expect(stageDelayMs(stage, pod({}), now, () => 0.99)).toBeCloseTo(high!);
  });

  it.each([
    ['no value, no expression', {}, pod({}), 0],
    ['a value of 0', { durationMilliseconds: 0 }, pod({}), 0],
    [
      '.metadata.deletionTimestamp a second from now',
      { durationMilliseconds: 1, durationFrom: { expressionFrom: '.metadata.deletionTimestamp' } },
      { ...pod({}), metadata: { deletionTimestamp: '2026-01-01T00:00:01Z' } } as Pod,
      1000,
    ],
    [
      '.metadata.annotations["custom-duration"] of 7s',
      { durationFrom: { expressionFrom: '.metadata.annotations["custom-duration"]' } },
      pod({ annotations: { 'custom-duration': '7s' } }),
      7000,
    ],
  ])('durationFrom: %s', (_name, delay, p, expected) => {
    expect(stageDelayMs(stageWith({ delay }), p, now)).toBe(expected);
  });
});

describe('kwok finalizers_test.go (the resulting finalizers)', () => {
  const items = (...v: string[]) => v.map((value) => ({ value }));
  it.each([
    ['add to none', [], { add: items('a') }, ['a']],
    ['add one present and one new', ['a'], { add: items('a', 'b') }, ['a', 'b']],
    ['remove from none', [], { remove: items('a') }, []],
    ['remove two of three', ['a', 'b', 'c'], { remove: items('a', 'c') }, ['b']],
    ['empty none', [], { empty: true }, []],
    ['empty one', ['a'], { empty: true }, []],
    ['empty and add', ['a'], { empty: true, add: items('b') }, ['b']],
    ['empty none and add', [], { empty: true, add: items('b') }, ['b']],
  ])('%s', (_name, current, fin, expected) => {
    expect(modifyFinalizers(current, fin)).toEqual(expected);
  });
});
