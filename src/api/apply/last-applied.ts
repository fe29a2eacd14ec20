/**
 * kubectl's client-side-apply annotation under server-side apply (k8s.io/apimachinery
 * `pkg/util/managedfields/internal` lastappliedmanager.go, lastappliedupdater.go,
 * lastapplied.go), for the field manager `kubectl` only:
 *
 * - upgrading from client-side apply: conflicts on fields that the last-applied annotation
 *   shows kubectl set (and that still hold those values) are not conflicts: the apply is
 *   forced when every conflict is such a field;
 * - keeping the annotation in sync: an object that carries the annotation gets the applied
 *   configuration written into it, unless the annotations would then exceed 256 KiB.
 */
import { compareObjects } from './compare.js';
import { FieldSet } from './field-set.js';
import { goJson } from './go-format.js';
import { typedProblems } from './list-items.js';
import { toFieldSet } from './to-field-set.js';
import type { TypeInfo } from './type-info.js';
import { isMap, type Json, type JsonMap } from '../json.js';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** The field manager whose applies read and write the annotation. */
export const KUBECTL_MANAGER = 'kubectl';
/** upstream TotalAnnotationSizeLimitB. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

function annotationsOf(obj: JsonMap): JsonMap | undefined {
  const meta = obj.metadata;
  return isMap(meta) && isMap(meta.annotations) ? meta.annotations : undefined;
}

/** The non-empty last-applied annotation of `obj`, if any. */
export function lastAppliedOf(obj: JsonMap): string | undefined {
  const v = annotationsOf(obj)?.[LAST_APPLIED_ANNOTATION];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/**
 * The fields kubectl's last client-side apply set that the live object still holds with the
 * same values, or undefined when there is no usable annotation (absent, not JSON, another
 * apiVersion, or not a valid typed object).
 */
export function allowedConflictsFromLastApplied(
  live: JsonMap,
  apiVersion: string,
  meta: TypeInfo,
): FieldSet | undefined {
  const text = lastAppliedOf(live);
  if (text === undefined) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isMap(last) || last.apiVersion !== apiVersion) return undefined;
  if (typedProblems(last, meta, false).length > 0) return undefined;
  const cmp = compareObjects(last, live, meta);
  return toFieldSet(last, meta).difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

/** The annotation value kubectl would write for `config`: its JSON without the annotation, and a newline. */
export function buildLastApplied(config: JsonMap): string {
  const meta = isMap(config.metadata) ? { ...config.metadata } : undefined;
  if (meta && isMap(meta.annotations)) {
    const annotations: Record<string, Json> = { ...meta.annotations };
    delete annotations[LAST_APPLIED_ANNOTATION];
    if (Object.keys(annotations).length > 0) meta.annotations = annotations;
    else delete meta.annotations;
  }
  return `${goJson(meta ? { ...config, metadata: meta } : config)}\n`;
}

/**
 * `obj` with its last-applied annotation replaced by `config`'s (when it has one), or with it
 * removed when the annotations would exceed the size limit (upstream SetLastApplied).
 */
export function syncLastApplied(obj: JsonMap, config: JsonMap): JsonMap {
  if (lastAppliedOf(obj) === undefined) return obj;
  const annotations: Record<string, Json> = {
    ...annotationsOf(obj)!,
    [LAST_APPLIED_ANNOTATION]: buildLastApplied(config),
  };
  const size = Object.entries(annotations).reduce(
    (n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(typeof v === 'string' ? v : ''),
    0,
  );
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) delete annotations[LAST_APPLIED_ANNOTATION];
  return { ...obj, metadata: { ...(isMap(obj.metadata) ? obj.metadata : {}), annotations } };
}
