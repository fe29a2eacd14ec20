/**
 * A webhook's namespaceSelector and objectSelector (upstream k8s.io/apiserver
 * pkg/admission/plugin/webhook/predicates/namespace/matcher.go and object/matcher.go):
 * - namespaceSelector: a cluster-scoped object other than a Namespace always matches; a
 *   Namespace being created or updated is matched by its own labels, any other request by the
 *   labels of its namespace (read from the watch cache, then from storage when the cache does
 *   not have it yet; a namespace that does not exist answers its 404);
 * - objectSelector: matches when the new or the old object's labels match (an absent object
 *   never matches).
 * An empty selector matches everything; a selector that cannot be parsed is a 500.
 */
import {
  labelSelectorOf,
  matchesLabels,
  type LabelSelector,
  type LabelSelectorObject,
} from '../../api/label-selector.js';
import type { ApiObject } from '../../api/object.js';
import { errorMessage } from '../../api/error-message.js';
import { internalError } from '../../errors/api-error.js';
import type { AdmissionRequest } from './types.js';

/** Reads a namespace's labels; throws ApiError 404 when it does not exist. */
export type NamespaceLabels = (name: string) => Promise<Readonly<Record<string, string>>>;

/** The requirements of `selector`, or null when it selects everything. Throws ApiError 500 when invalid. */
function parsed(selector: LabelSelectorObject | null | undefined): LabelSelector | null {
  if (!selector) return null;
  try {
    const reqs = labelSelectorOf(selector);
    return reqs.length ? reqs : null;
  } catch (err) {
    throw internalError(errorMessage(err));
  }
}

/** Whether the namespaceSelector lets the webhook see `req`. Throws ApiError 404 (no namespace), 500. */
export async function namespaceSelectorMatches(
  selector: LabelSelectorObject | null | undefined,
  req: AdmissionRequest,
  labelsOf: NamespaceLabels,
): Promise<boolean> {
  const isNamespace = req.resource.group === '' && req.resource.resource === 'namespaces';
  if (!req.namespace && !isNamespace) return true;
  const reqs = parsed(selector);
  if (!reqs) return true;
  let labels: Readonly<Record<string, string>>;
  if (isNamespace && !req.subresource && (req.operation === 'CREATE' || req.operation === 'UPDATE'))
    labels = req.object?.metadata.labels ?? {};
  else labels = await labelsOf(isNamespace ? req.name : req.namespace);
  return matchesLabels(reqs, labels);
}

/** Whether the objectSelector lets the webhook see `req` (its new or old object). Throws ApiError 500. */
export function objectSelectorMatches(
  selector: LabelSelectorObject | null | undefined,
  req: AdmissionRequest,
): boolean {
  const reqs = parsed(selector);
  if (!reqs) return true;
  const matches = (obj: ApiObject | null) => obj !== null && matchesLabels(reqs, obj.metadata.labels ?? {});
  return matches(req.object) || matches(req.oldObject);
}
