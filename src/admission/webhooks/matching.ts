/**
 * Whether a webhook is called for a request, and with which resource and kind (upstream
 * k8s.io/apiserver pkg/admission/plugin/webhook/generic/webhook.go ShouldCallHook): the
 * namespaceSelector and objectSelector (their errors reported only when a rule matches), the
 * rules against the request's resource, then, under matchPolicy Equivalent, against the
 * resources served over the same storage (the first rule matching any of them wins, and the
 * webhook is called with that resource's version), then the matchConditions.
 */
import { ApiError, forbidden, internalError } from '../../errors/api-error.js';
import { errorMessage } from '../../api/error-message.js';
import type { ResourceDefinition } from '../../registry/types.js';
import type { MatchConditionEvaluator } from './match-conditions.js';
import { admissionRequest } from './review.js';
import { ruleMatches } from './rules.js';
import { namespaceSelectorMatches, objectSelectorMatches, type NamespaceLabels } from './selectors.js';
import type { AdmissionRequest, RegisteredWebhook, WebhookInvocation } from './types.js';
import { equivalentRows } from './versions.js';

const NO_OBJECTS = { object: null, oldObject: null };

/** What matching reads beside the request. */
export interface MatchDeps {
  readonly namespaceLabels: NamespaceLabels;
  /** Every row served (for matchPolicy Equivalent). */
  readonly rows: () => readonly ResourceDefinition[];
  readonly conditions: MatchConditionEvaluator;
}

/** Run `f`, keeping an ApiError (others as 500) to report later. */
async function settle<T>(f: () => T | Promise<T>): Promise<{ value?: T; error?: ApiError }> {
  try {
    return { value: await f() };
  } catch (err) {
    return { error: err instanceof ApiError ? err : internalError(errorMessage(err)) };
  }
}

/**
 * The invocation of `hook` for `req`, or null when it is not called. Throws ApiError: a
 * selector's error (404 for a missing namespace, 500) when a rule matched, 403 when the match
 * conditions fail to evaluate.
 */
export async function shouldCallHook(
  hook: RegisteredWebhook,
  req: AdmissionRequest,
  deps: MatchDeps,
): Promise<WebhookInvocation | null> {
  const w = hook.webhook;
  const ns = await settle(() => namespaceSelectorMatches(w.namespaceSelector, req, deps.namespaceLabels));
  if (!ns.error && !ns.value) return null;
  const obj = await settle(() => objectSelectorMatches(w.objectSelector, req));
  if (!obj.error && !obj.value) return null;

  const rules = w.rules ?? [];
  let invocation: WebhookInvocation | null = rules.some((r) => ruleMatches(r, req))
    ? { hook, def: req.def, resource: req.resource, kind: req.kind, subresource: req.subresource }
    : null;
  if (!invocation && (w.matchPolicy ?? 'Equivalent') === 'Equivalent') {
    const equivalents = equivalentRows(deps.rows(), req.def, req.subresource);
    outer: for (const rule of rules) {
      for (const def of equivalents) {
        const resource = { group: def.group, version: def.version, resource: def.plural };
        if (ruleMatches(rule, { ...req, resource })) {
          const kind = { group: def.group, version: def.version, kind: def.kind };
          invocation = { hook, def, resource, kind, subresource: req.subresource };
          break outer;
        }
      }
    }
  }
  if (!invocation) return null;
  if (ns.error) throw ns.error;
  if (obj.error) throw obj.error;
  if ((w.matchConditions ?? []).length && deps.conditions.evaluates) {
    const { object: _o, oldObject: _old, ...request } = admissionRequest('', invocation, req, NO_OBJECTS);
    const result = deps.conditions.evaluate(w, {
      object: req.object,
      oldObject: req.oldObject,
      request,
      user: req.attrs.user,
      requestResource: {
        group: req.resource.group,
        resource: req.resource.resource,
        subresource: req.subresource,
        namespace: req.namespace,
        name: req.name,
      },
    });
    if ('error' in result) throw forbidden(req.resource.resource, req.name, result.error, req.resource.group);
    if (!result.matches) return null;
  }
  return invocation;
}
