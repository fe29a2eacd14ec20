/**
 * kwok's `Stage` resources (kwok.x-k8s.io/v1alpha1, pkg/apis/v1alpha1/stage_types.go) for the
 * pods of the simulated nodes: when Stage documents are configured, they replace the built-in
 * stages. A pod matching a Stage's selector moves, after the Stage's delay, to its `next`:
 * finalizers changed, an Event recorded, `status` changed by `statusTemplate`, the pod deleted.
 * The write changes the pod, and the Stage matching it then is the next one.
 *
 * Supported: `resourceRef` kind Pod (apiGroup v1); `selector` matchLabels, matchAnnotations,
 * matchExpressions (In, NotIn, Exists, DoesNotExist) whose keys are jq paths (`.status.phase`,
 * `.metadata.annotations["x"]`, `.metadata.ownerReferences.[].kind`); `weight`; `delay`
 * durationMilliseconds, durationFrom, jitterDurationMilliseconds, jitterDurationFrom;
 * `next` statusTemplate, delete, finalizers (add, remove, empty), event. Not supported: Go
 * templates in statusTemplate (it is YAML applied as a JSON merge patch on `status`), other
 * resources than Pod, and kwok's newer fields (patches, immediateNextStage, statusSubresource).
 */
import { z } from 'zod';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { parseGoDuration } from './duration.js';

const requirement = z
  .object({
    key: z.string().regex(/^\./, 'must be a jq path starting with "."'),
    operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
    values: z.array(z.string()).optional(),
  })
  .strict()
  .refine((r) => (r.operator === 'In' || r.operator === 'NotIn') === Boolean(r.values?.length), {
    message: 'values must be non-empty for In and NotIn, and absent for Exists and DoesNotExist',
  });
const expressionFrom = z.object({ expressionFrom: z.string().regex(/^\./, 'must be a jq path') }).strict();
const ms = z.number().int().nonnegative();

/** A kwok Stage document (the supported fields; see the file comment). */
export const stageSchema = z
  .object({
    apiVersion: z.literal('kwok.x-k8s.io/v1alpha1'),
    kind: z.literal('Stage'),
    metadata: z.object({ name: z.string().min(1) }).passthrough(),
    spec: z
      .object({
        resourceRef: z
          .object({
            apiGroup: z.literal('v1', { message: 'only Pod stages (apiGroup v1) are supported' }).default('v1'),
            kind: z.literal('Pod', { message: 'only Pod stages are supported' }),
          })
          .strict(),
        selector: z
          .object({
            matchLabels: z.record(z.string(), z.string()).optional(),
            matchAnnotations: z.record(z.string(), z.string()).optional(),
            matchExpressions: z.array(requirement).optional(),
          })
          .strict()
          .optional(),
        weight: z.number().int().nonnegative().default(0),
        delay: z
          .object({
            durationMilliseconds: ms.optional(),
            durationFrom: expressionFrom.optional(),
            jitterDurationMilliseconds: ms.optional(),
            jitterDurationFrom: expressionFrom.optional(),
          })
          .strict()
          .optional(),
        next: z
          .object({
            statusTemplate: z
              .string()
              .refine((t) => !t.includes('{{'), {
                message: 'Go templates are not supported: give the status as YAML (applied as a JSON merge patch)',
              })
              .optional(),
            delete: z.boolean().optional(),
            finalizers: z
              .object({
                add: z.array(z.object({ value: z.string() })).optional(),
                remove: z.array(z.object({ value: z.string() })).optional(),
                empty: z.boolean().optional(),
              })
              .strict()
              .optional(),
            event: z
              .object({ type: z.enum(['Normal', 'Warning']), reason: z.string(), message: z.string() })
              .strict()
              .optional(),
          })
          .strict(),
      })
      .strict(),
  })
  .strict();

/** A parsed Stage, its statusTemplate decoded (`status`: the merge patch on the pod's status). */
export type PodStage = z.infer<typeof stageSchema> & { readonly status?: Readonly<Record<string, unknown>> };

/**
 * The values a jq path yields on `obj` (the subset kwok's stages use: `.a.b`, `.a["k"]`,
 * `.a[0]`, `.a[]` / `.a.[]` iterating an array or object). Missing fields yield null.
 */
export function evaluatePath(obj: unknown, path: string): unknown[] {
  const steps = path.match(/\.?\[\]|\.?\["(?:[^"\\]|\\.)*"\]|\.?\[\d+\]|\.[^.[\]]+/g) ?? [];
  if (steps.join('') !== path && path !== '.') throw new Error(`unsupported expression ${path}`);
  let values: unknown[] = [obj];
  for (const raw of steps) {
    const step = raw.startsWith('.') && raw !== '.' && raw[1] === '[' ? raw.slice(1) : raw;
    values = values.flatMap((v): unknown[] => {
      if (step === '[]') return Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : [];
      if (v === null || v === undefined || typeof v !== 'object') return [null];
      const key = step.startsWith('["')
        ? (JSON.parse(step.slice(1, -1)) as string)
        : step.startsWith('[')
          ? Number(step.slice(1, -1))
          : step.slice(1);
      return [(v as Record<string | number, unknown>)[key] ?? null];
    });
  }
  return values;
}

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** Whether `pod` matches `stage`'s selector (labels, annotations and expressions ANDed; none: every pod). */
export function stageMatches(stage: PodStage, pod: Pod): boolean {
  const sel = stage.spec.selector;
  if (!sel) return true;
  const labels = pod.metadata.labels ?? {};
  const annotations = pod.metadata.annotations ?? {};
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const [k, v] of Object.entries(sel.matchAnnotations ?? {})) if (annotations[k] !== v) return false;
  return (sel.matchExpressions ?? []).every((r) => {
    const found = evaluatePath(pod, r.key).filter((v) => v !== null && v !== undefined);
    switch (r.operator) {
      case 'Exists':
        return found.length > 0;
      case 'DoesNotExist':
        return found.length === 0;
      case 'In':
        return found.some((v) => r.values!.includes(text(v)));
      case 'NotIn':
        return !found.some((v) => r.values!.includes(text(v)));
    }
  });
}

/** One of `stages` by weight (a random one of those weighing most when all weigh 0), undefined for none. */
export function chooseStage(stages: readonly PodStage[], random = Math.random): PodStage | undefined {
  const total = stages.reduce((n, s) => n + s.spec.weight, 0);
  if (total === 0) return stages.length ? stages[Math.floor(random() * stages.length)] : undefined;
  let r = random() * total;
  for (const s of stages) if ((r -= s.spec.weight) < 0) return s;
  return stages[stages.length - 1];
}

/** Milliseconds of the first value `path` yields on `pod`: a Go duration string, or a time (minus now). */
function durationFrom(pod: Pod, path: string | undefined, nowMs: number): number | undefined {
  if (!path) return undefined;
  const v = evaluatePath(pod, path).find((x) => x !== null && x !== undefined);
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return undefined;
  const d = parseGoDuration(v);
  if (d !== undefined) return d;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - nowMs);
}

/**
 * How long after it matched `stage` applies to `pod` (ms), as kwok's Stage.Delay: durationFrom
 * when it yields a value, else durationMilliseconds (0); a jitter (jitterDurationFrom, else
 * jitterDurationMilliseconds) above it adds a uniformly random part of the difference, one at
 * or below it is the delay.
 */
export function stageDelayMs(stage: PodStage, pod: Pod, nowMs: number, random = Math.random): number {
  const d = stage.spec.delay;
  if (!d) return 0;
  const base = durationFrom(pod, d.durationFrom?.expressionFrom, nowMs) ?? d.durationMilliseconds ?? 0;
  const jitter = durationFrom(pod, d.jitterDurationFrom?.expressionFrom, nowMs) ?? d.jitterDurationMilliseconds;
  if (jitter === undefined) return base;
  return jitter <= base ? jitter : base + random() * (jitter - base);
}

/** The finalizers after `fin` (kwok's finalizersModify): emptied, then `remove`d, then `add`ed (once each). */
export function modifyFinalizers(
  current: readonly string[],
  fin: NonNullable<PodStage['spec']['next']['finalizers']>,
): string[] {
  const drop = new Set((fin.remove ?? []).map((f) => f.value));
  const kept = fin.empty ? [] : current.filter((f) => !drop.has(f));
  return [...new Set([...kept, ...(fin.add ?? []).map((f) => f.value)])];
}

/** `patch` applied to `target` as a JSON merge patch (RFC 7386): null removes, objects merge, the rest replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
