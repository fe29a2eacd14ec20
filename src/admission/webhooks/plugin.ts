/**
 * The MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins as one store's hooks
 * (upstream k8s.io/apiserver pkg/admission/plugin/webhook/{mutating,validating}/plugin.go and
 * generic/webhook.go Dispatch): mutating webhooks in the `mutate` step (CREATE, UPDATE; on
 * DELETE with no object, as upstream's delete handler admits), validating webhooks after the
 * kind's validation (`beforeCreate`, `beforeUpdate`) and on delete with the stored object as
 * oldObject (`beforeDelete`). Requests for the admission configuration kinds are exempt; a
 * request arriving before the configurations were read waits for them (up to 10 s, then 403
 * `not yet ready to handle request`).
 */
import type { ApiObject } from '../../api/object.js';
import { ApiError, forbidden } from '../../errors/api-error.js';
import type { AdmissionAttributes, AdmissionOperation, StoreHooks } from '../../registry/hooks.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { dispatchMutating, type DispatchDeps } from './mutating.js';
import { isExemptKind } from './rules.js';
import type { AdmissionRequest, WebhookSource } from './types.js';
import { dispatchValidating } from './validating.js';

/** A webhook source that may still be reading its configurations. */
export interface ReadyWebhookSource extends WebhookSource {
  /** Resolves true once the configurations were read (false after waiting too long, or when the read failed). */
  ready(): Promise<boolean>;
  /** Why the first read of the configurations failed, if it did and has not succeeded since. */
  failureOfFirstRead?(): unknown;
}

/** The request `attrs` describe on `def`'s store, with its objects. */
export function requestOf(
  def: ResourceDefinition,
  operation: AdmissionOperation,
  object: ApiObject | null,
  oldObject: ApiObject | null,
  attrs: AdmissionAttributes,
): AdmissionRequest {
  const meta = (object ?? oldObject)?.metadata;
  return {
    operation,
    def,
    resource: attrs.resource ?? { group: def.group, version: def.version, resource: def.plural },
    kind: attrs.kind ?? { group: def.group, version: def.version, kind: def.kind },
    subresource: attrs.subresource ?? '',
    namespace: attrs.namespace ?? meta?.namespace ?? '',
    name: attrs.name ?? meta?.name ?? '',
    object,
    oldObject,
    attrs,
  };
}

/** The webhook plugins as hooks of the store serving `def`. */
export function webhookAdmission(def: ResourceDefinition, source: ReadyWebhookSource, deps: DispatchDeps): StoreHooks {
  /** The webhooks to consult, once the configurations are known; none for an exempt request. */
  const hooksFor = async (req: AdmissionRequest, mutating: boolean) => {
    if (isExemptKind(req.kind)) return [];
    if (!(await source.ready())) {
      const failure = source.failureOfFirstRead?.();
      if (failure instanceof ApiError) throw failure;
      throw forbidden(req.resource.resource, req.name, 'not yet ready to handle request', req.resource.group);
    }
    return mutating ? source.mutating() : source.validating();
  };
  const mutate = async (req: AdmissionRequest) => {
    const hooks = await hooksFor(req, true);
    if (hooks.length) await dispatchMutating(hooks, req, deps);
  };
  const validate = async (req: AdmissionRequest) => {
    const hooks = await hooksFor(req, false);
    if (hooks.length) await dispatchValidating(hooks, req, deps);
  };
  return {
    mutate: (obj, old, attrs) => mutate(requestOf(def, old ? 'UPDATE' : 'CREATE', obj, old, attrs)),
    beforeCreate: (obj, attrs) => validate(requestOf(def, 'CREATE', obj, null, attrs)),
    beforeUpdate: (obj, old, attrs) => validate(requestOf(def, 'UPDATE', obj, old, attrs)),
    beforeDelete: async (obj, attrs) => {
      const named = { ...attrs, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' };
      await mutate(requestOf(def, 'DELETE', null, null, named));
      await validate(requestOf(def, 'DELETE', null, obj, attrs));
    },
  };
}
