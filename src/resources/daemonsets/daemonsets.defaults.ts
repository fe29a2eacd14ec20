/**
 * DaemonSet defaults per served version (upstream pkg/apis/apps/v1/defaults.go and
 * v1beta2/defaults.go SetDefaults_DaemonSet: RollingUpdate with maxUnavailable 1 and maxSurge 0;
 * pkg/apis/extensions/v1beta1/defaults.go: OnDelete, and the selector and the object's labels
 * from the template's labels), the conversions between extensions/v1beta1's
 * spec.templateGeneration and apps/v1's annotation (pkg/apis/apps/v1/conversion.go
 * Convert_apps_DaemonSet_To_v1_DaemonSet and back), and the template generation rules of
 * upstream's strategy (pkg/registry/apps/daemonset/strategy.go).
 */
import { isDeepStrictEqual } from 'node:util';
import { defaultPodSpec } from '../../api/core/pod-spec-defaults.js';
import type { ApiObject } from '../../api/object.js';
import { badRequest } from '../../errors/api-error.js';
import { TEMPLATE_GENERATION_ANNOTATION, type DaemonSet, type DaemonSetExtensions } from './daemonsets.schema.js';

/** apps/v1 and apps/v1beta2 SetDefaults_DaemonSet. */
export function defaultDaemonSetV1(obj: DaemonSet): void {
  const spec = (obj.spec ??= {});
  const strategy = (spec.updateStrategy ??= {});
  strategy.type ||= 'RollingUpdate';
  defaultRest(obj);
}

/** extensions/v1beta1 SetDefaults_DaemonSet. */
export function defaultDaemonSetExtensions(obj: DaemonSetExtensions): void {
  const spec = (obj.spec ??= {});
  const labels = spec.template?.metadata?.labels;
  if (labels !== undefined && labels !== null) {
    spec.selector ??= { matchLabels: { ...labels } };
    if (!Object.keys(obj.metadata.labels ?? {}).length) obj.metadata.labels = { ...labels };
  }
  const strategy = (spec.updateStrategy ??= {});
  strategy.type ||= 'OnDelete';
  defaultRest(obj);
}

/** What every version defaults once the strategy type is set. */
function defaultRest(obj: DaemonSet | DaemonSetExtensions): void {
  const spec = (obj.spec ??= {});
  const strategy = spec.updateStrategy ?? {};
  if (strategy.type === 'RollingUpdate') {
    const rolling = (strategy.rollingUpdate ??= {});
    rolling.maxUnavailable ??= 1;
    rolling.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  defaultPodSpec(spec.template?.spec);
}

/**
 * The template generation an apps/v1 object carries in its annotation, as upstream's
 * conversion reads it (absent = 0). Throws ApiError 400 on a value strconv.ParseInt refuses.
 */
export function templateGenerationOf(obj: ApiObject): number {
  const value = obj.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  if (value === undefined) return 0;
  if (!/^[+-]?\d+$/.test(value)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  return Number(value);
}

/** `obj` with its template generation in the annotation (new metadata; `obj`'s own is left alone). */
function withTemplateGeneration<T extends ApiObject>(obj: T, generation: number): T {
  const annotations = { ...obj.metadata.annotations, [TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
  return { ...obj, metadata: { ...obj.metadata, annotations } };
}

/** Create (upstream PrepareForCreate): the template generation is at least 1. */
export function prepareTemplateGenerationForCreate(obj: DaemonSet): void {
  obj.metadata = withTemplateGeneration(obj, Math.max(1, templateGenerationOf(obj))).metadata;
}

/** Update (upstream PrepareForUpdate): the stored generation, +1 when the template changed. */
export function prepareTemplateGenerationForUpdate(obj: DaemonSet, old: DaemonSet): void {
  const changed = !isDeepStrictEqual(obj.spec?.template ?? null, old.spec?.template ?? null);
  const generation = templateGenerationOf(old) + (changed ? 1 : 0);
  obj.metadata = withTemplateGeneration(obj, generation).metadata;
}

/** extensions/v1beta1 -> apps/v1: spec.templateGeneration into the annotation (always written, as upstream). */
export function extensionsToStorage(obj: DaemonSetExtensions): DaemonSet {
  const { templateGeneration, ...spec } = obj.spec ?? {};
  const out = withTemplateGeneration({ ...obj, apiVersion: 'apps/v1' }, templateGeneration ?? 0);
  return obj.spec === undefined ? out : { ...out, spec };
}

/** apps/v1 -> extensions/v1beta1: the annotation back into spec.templateGeneration (0 omitted). */
export function extensionsFromStorage(obj: DaemonSet): DaemonSetExtensions {
  const value = obj.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  const out: DaemonSetExtensions = { ...obj, apiVersion: 'extensions/v1beta1' };
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return out;
  const { [TEMPLATE_GENERATION_ANNOTATION]: _moved, ...annotations } = obj.metadata.annotations ?? {};
  const metadata = { ...obj.metadata };
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  else delete metadata.annotations;
  const generation = Number(value);
  return { ...out, metadata, spec: { ...obj.spec, ...(generation ? { templateGeneration: generation } : {}) } };
}
