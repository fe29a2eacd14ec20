/**
 * The `ephemeralcontainers` subresource of pods (upstream EphemeralContainersREST, 1.25+): GET
 * answers the pod; PUT and PATCH (kubectl debug sends a strategic merge patch) change only
 * `spec.ephemeralContainers` (upstream podEphemeralContainersStrategy dropNonEphemeralContainerUpdates)
 * and are checked by ValidatePodEphemeralContainersUpdate: the pod's own rules (which include
 * validateEphemeralContainers), the pod annotation rules, no ephemeral containers on a static
 * pod, and existing ephemeral containers neither removed nor changed.
 */
import { MIRROR_POD_ANNOTATION } from '../../api/core/validation/pod-spec.js';
import type { ApiObject } from '../../api/object.js';
import { forbidden, type FieldError } from '../../api/validation/field-errors.js';
import type { SubresourceDefinition } from '../../registry/types.js';
import { mergeMetaForSubresource } from '../define.js';
import { cmpDiff, semanticEqual } from './pod-spec-compare.js';
import { list, podAnnotationUpdates } from './pod-update-rules.js';
import { validatePod } from './pod-validation.js';
import type { Pod } from './pods.schema.js';

/** Upstream ValidatePodEphemeralContainersUpdate beyond ValidateObjectMetaUpdate. */
export function validateEphemeralContainersUpdate(pod: Pod, old: Pod): FieldError[] {
  const errs = [
    ...validatePod(pod),
    ...podAnnotationUpdates(pod.metadata?.annotations ?? {}, old.metadata?.annotations ?? {}),
  ];
  if (old.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined)
    return [forbidden('', 'static pods do not support ephemeral containers')];
  const field = 'spec.ephemeralContainers';
  const byName = new Map(list(pod.spec?.ephemeralContainers).map((c) => [c?.name, c]));
  for (const prev of list(old.spec?.ephemeralContainers)) {
    const cur = byName.get(prev.name);
    if (!cur)
      errs.push(forbidden(field, `existing ephemeral containers ${JSON.stringify(prev.name)} may not be removed\n`));
    else if (!semanticEqual(cur, prev))
      errs.push(
        forbidden(
          field,
          `existing ephemeral containers ${JSON.stringify(prev.name)} may not be changed\n${cmpDiff('core.EphemeralContainer', prev, cur)}`,
        ),
      );
  }
  return errs;
}

export const ephemeralContainersSubresource: SubresourceDefinition<Pod> = {
  name: 'ephemeralcontainers',
  kind: 'Pod',
  verbs: ['get', 'patch', 'update'],
  merge: (requested: ApiObject, old: Pod): Pod => ({
    ...old,
    metadata: mergeMetaForSubresource(requested, old),
    spec: {
      ...old.spec,
      ephemeralContainers: (requested.spec as Pod['spec'])?.ephemeralContainers,
    } as Pod['spec'],
  }),
  validateUpdate: validateEphemeralContainersUpdate,
};
