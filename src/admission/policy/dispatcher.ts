/**
 * The ValidatingAdmissionPolicies of one request (upstream k8s.io/apiserver
 * pkg/admission/plugin/policy/validating/dispatcher.go Dispatch): for each policy whose
 * matchConstraints select the request, each binding whose matchResources do, each param the
 * binding finds: evaluate the policy with the objects in the matched version. A failed
 * validation acts as the binding's validationActions say: Deny refuses the request, Warn adds a
 * `Warning`, Audit adds the `validation.policy.admission.k8s.io/validation_failure` audit
 * annotation. Audit annotations are published as `<policy>/<key>`. A policy or binding that
 * cannot be evaluated (misconfigured, params missing under Deny) refuses the request under
 * failurePolicy Fail. The first refusal decides the answer: `<resource> "<name>" is forbidden:
 * ValidatingAdmissionPolicy '<policy>' with binding '<binding>' denied request: <message>`
 * with the validation's reason and its code (Invalid 422 unless set).
 */
import type { CelAuthorizer } from '../../api/cel/admission/index.js';
import type { ApiObject } from '../../api/object.js';
import { errorMessage } from '../../api/error-message.js';
import type { StatusReason } from '../../api/status.js';
import { ApiError, forbidden } from '../../errors/api-error.js';
import type { AdmissionRequest } from '../webhooks/types.js';
import { toVersion } from '../webhooks/versions.js';
import { bindingMatches, definitionMatches, type PolicyMatch, type PolicyMatchDeps } from './matching.js';
import { collectParams } from './params.js';
import { celAuthorizer, celRequest, namespaceObject } from './request.js';
import type { PolicyHook } from './source.js';
import type { Policy, PolicyBinding, PolicyDecision, ValidateResult } from './types.js';
import { validatePolicy, type ValidateInput } from './validator.js';

/** What dispatching reads beside the request. */
export interface PolicyDispatchDeps extends PolicyMatchDeps {
  /** The namespace named (watch cache, then storage). Throws ApiError 404 when it does not exist. */
  readonly namespaceOf: (name: string) => Promise<ApiObject>;
  /** The authorizer the `authorizer` variable asks (undefined: not yet built; expressions using it fail). */
  readonly authorizer: () => CelAuthorizer | undefined;
}

/** A refusal with the policy and binding it came from. */
interface Denial extends PolicyDecision {
  readonly policy: Policy;
  readonly binding?: PolicyBinding;
}

/** upstream maxAuditAnnotationValueLength. */
const MAX_AUDIT_ANNOTATION_VALUE = 10 * 1024;
const VALIDATION_FAILURE_KEY = 'validation.policy.admission.k8s.io/validation_failure';

const nameOf = (o: ApiObject): string => o.metadata.name ?? '';

/** A decision's reason with its code (upstream reasonToCode; '' and others answer Invalid, 422). */
function statusOf(reason: string): { reason: StatusReason; code: number } {
  if (reason === 'Forbidden') return { reason, code: 403 };
  if (reason === 'Unauthorized') return { reason, code: 401 };
  if (reason === 'RequestEntityTooLarge') return { reason, code: 413 };
  return { reason: 'Invalid', code: 422 };
}

/** The answer to the first refusal (upstream: admission.NewForbidden with the decision's reason and code). */
function refusal(req: AdmissionRequest, d: Denial): ApiError {
  const message = d.binding
    ? `ValidatingAdmissionPolicy '${nameOf(d.policy)}' with binding '${nameOf(d.binding)}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${nameOf(d.policy)}' denied request: ${d.message}`;
  const obj = req.object ?? req.oldObject;
  const name = req.name || obj?.metadata.name || obj?.metadata.generateName || 'Unknown';
  const base = forbidden(req.resource.resource, name, message, req.resource.group);
  const { reason, code } = statusOf(d.reason);
  return new ApiError(code, reason, base.message, { ...base.details, causes: [{ message }] });
}

/** Evaluate `hooks` for `req`. Throws the refusal, or a namespace read's ApiError. */
export async function dispatchPolicies(
  hooks: readonly PolicyHook[],
  req: AdmissionRequest,
  deps: PolicyDispatchDeps,
): Promise<void> {
  const denied: Denial[] = [];
  const configError = (err: unknown, policy: Policy, binding?: PolicyBinding) => {
    const fp = policy.spec?.failurePolicy ?? 'Fail';
    if (fp === 'Ignore') return;
    const message =
      fp === 'Fail'
        ? `failed to configure ${binding ? 'binding' : 'policy'}: ${typeof err === 'string' ? err : errorMessage(err)}`
        : `unrecognized failure policy: '${fp}'`;
    denied.push({ action: 'deny', evaluation: 'error', message, reason: '', policy, binding });
  };
  const annotated = new Set<string>();
  const annotate = (key: string, value: string) => {
    if (annotated.has(key)) return; // upstream: an annotation may not be overwritten
    annotated.add(key);
    req.attrs.addAuditAnnotation?.(key, value);
  };

  for (const hook of hooks) {
    const policy = hook.policy;
    let match: PolicyMatch | null;
    try {
      match = await definitionMatches(policy.spec?.matchConstraints, req, deps);
    } catch (err) {
      configError(err, policy);
      continue;
    }
    if (!match) continue;
    if (hook.configurationError) {
      configError(hook.configurationError, policy);
      continue;
    }
    const annotations = new Map<string, string[]>();
    let versioned: { object: ApiObject | null; oldObject: ApiObject | null } | undefined;
    for (const binding of hook.bindings) {
      let params: (ApiObject | null)[];
      try {
        if (!(await bindingMatches(binding.spec?.matchResources, req, deps))) continue;
        params = await collectParams(policy.spec?.paramKind, hook.paramStore, binding.spec?.paramRef, req.namespace);
      } catch (err) {
        configError(err, policy, binding);
        continue;
      }
      if (!versioned && params.length) {
        try {
          versioned = {
            object: req.object && toVersion(match.def, req.object),
            oldObject: req.oldObject && toVersion(match.def, req.oldObject),
          };
        } catch (err) {
          configError(`failed to convert object version: ${errorMessage(err)}`, policy, binding);
          continue;
        }
      }
      const isNamespace = req.kind.group === '' && req.kind.version === 'v1' && req.kind.kind === 'Namespace';
      const namespaceName = isNamespace ? '' : req.namespace;
      const ns = namespaceName ? namespaceObject(await deps.namespaceOf(namespaceName)) : null;
      const authorizer = deps.authorizer();
      const base: Omit<ValidateInput, 'params'> = {
        object: versioned?.object ?? null,
        oldObject: versioned?.oldObject ?? null,
        namespaceObject: ns,
        request: celRequest(req, match.resource, match.kind),
        matchRequest: celRequest(req, req.resource, match.kind),
        authorizer: authorizer && celAuthorizer(authorizer, req),
      };
      const results = params.map((params) => validatePolicy(hook.compiled, { ...base, params }));
      for (const result of results) actOn(result, policy, binding, { denied, annotations, annotate, req });
    }
    for (const [key, values] of annotations) annotate(`${nameOf(policy)}/${key}`, values.join(', '));
  }
  if (denied.length) throw refusal(req, denied[0]!);
}

/** Where one evaluation's outcome goes. */
interface Sinks {
  readonly denied: Denial[];
  /** The policy's published audit annotations by key (distinct values in order). */
  readonly annotations: Map<string, string[]>;
  readonly annotate: (key: string, value: string) => void;
  readonly req: AdmissionRequest;
}

/** Act on one evaluation as the binding's validationActions say (upstream Dispatch's result loop). */
function actOn(result: ValidateResult, policy: Policy, binding: PolicyBinding, sinks: Sinks): void {
  const actions = binding.spec?.validationActions ?? [];
  result.decisions.forEach((decision, i) => {
    if (decision.action !== 'deny') return;
    for (const action of actions) {
      if (action === 'Deny') sinks.denied.push({ ...decision, policy, binding });
      else if (action === 'Audit') {
        const value = [
          {
            message: decision.message,
            policy: binding.spec?.policyName ?? '',
            binding: nameOf(binding),
            expressionIndex: i,
            validationActions: [...actions],
          },
        ];
        sinks.annotate(VALIDATION_FAILURE_KEY, JSON.stringify(value));
      } else if (action === 'Warn') {
        const text = `Validation failed for ValidatingAdmissionPolicy '${nameOf(policy)}' with binding '${nameOf(binding)}': ${decision.message}`;
        const warnings = sinks.req.attrs.warnings;
        if (warnings && !warnings.includes(text)) warnings.push(text);
      }
    }
  });
  for (const a of result.auditAnnotations) {
    if (a.action === 'publish') {
      const value = a.value.slice(0, MAX_AUDIT_ANNOTATION_VALUE);
      const values = sinks.annotations.get(a.key) ?? [];
      if (!values.includes(value)) sinks.annotations.set(a.key, [...values, value]);
    } else if (a.action === 'error')
      sinks.denied.push({ action: 'deny', evaluation: 'error', message: a.error, reason: '', policy, binding });
  }
}
