/**
 * The param objects a binding evaluates its policy with (upstream k8s.io/apiserver
 * pkg/admission/plugin/policy/generic/policy_dispatcher.go CollectParams): none to find (no
 * paramKind or no paramRef) is one evaluation with `params` null; `paramRef.name` reads one
 * object, `paramRef.selector` lists them (one evaluation each), in `paramRef.namespace`, else
 * the request's namespace for a namespaced param kind. No object found is no evaluation, or an
 * error under `parameterNotFoundAction: Deny`. Params are read from the watch cache, as upstream
 * reads them from an informer.
 */
import { labelSelectorOf, matchesLabels } from '../../api/label-selector.js';
import { deepCopy, type ApiObject } from '../../api/object.js';
import { errorMessage } from '../../api/error-message.js';
import { ApiError } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ParamRef, PolicySpec } from './types.js';

/** Thrown with upstream's message when the params cannot be collected (a binding's configuration error). */
export class ParamError extends Error {}

/** The store serving a policy's paramKind (undefined: the kind is not served). */
export type ParamStore = GenericStore | undefined;

/** Upstream's v1.ParamKind String(), as its messages print it. */
function paramKindString(kind: NonNullable<PolicySpec['paramKind']>): string {
  return `&ParamKind{APIVersion:${kind.apiVersion ?? ''},Kind:${kind.kind ?? ''},}`;
}

/** `obj` with the paramKind's apiVersion and kind when it has none (upstream wrappedParam). */
function withTypeMeta(obj: ApiObject, kind: NonNullable<PolicySpec['paramKind']>): ApiObject {
  if (obj.apiVersion && obj.kind) return obj;
  return { ...obj, apiVersion: kind.apiVersion ?? '', kind: kind.kind ?? '' };
}

/**
 * The params of one binding for a request in `namespace` ('' for a cluster-scoped object): a
 * list whose entries are each one evaluation (null: evaluate with `params` null). Throws
 * ParamError with upstream's messages.
 */
export async function collectParams(
  paramKind: PolicySpec['paramKind'],
  store: ParamStore,
  paramRef: ParamRef | null | undefined,
  namespace: string,
): Promise<(ApiObject | null)[]> {
  if (!paramKind || !paramRef) return [null];
  if (!store) throw new ParamError(`paramKind kind \`${paramKindString(paramKind)}\` not known`);
  const namespaced = store.def.namespaced;
  let paramsNamespace = '';
  if (namespaced) {
    paramsNamespace = paramRef.namespace || namespace;
    if (!paramsNamespace)
      throw new ParamError('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (paramRef.namespace)
    throw new ParamError('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');

  let params: ApiObject[];
  if (paramRef.name) {
    if (paramRef.selector) throw new ParamError('paramRef.name and paramRef.selector are mutually exclusive');
    params = await getOne(store, paramsNamespace, paramRef.name);
  } else if (paramRef.selector) {
    let selector;
    try {
      selector = labelSelectorOf(paramRef.selector);
    } catch (err) {
      throw new ParamError(errorMessage(err));
    }
    const list = await store.list(paramsNamespace, { predicate: buildPredicate(store.def), resourceVersion: '0' });
    params = list.items.filter((o) => matchesLabels(selector, o.metadata.labels ?? {}));
  } else throw new ParamError('one of name or selector must be provided');

  if (!params.length && paramRef.parameterNotFoundAction === 'Deny')
    throw new ParamError('no params found for policy binding with `Deny` parameterNotFoundAction');
  return params.map((p) => withTypeMeta(deepCopy(p), paramKind));
}

/** The named param, none when it does not exist. */
async function getOne(store: GenericStore, namespace: string, name: string): Promise<ApiObject[]> {
  try {
    return [await store.get(namespace, name, '0')];
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return [];
    throw err;
  }
}
