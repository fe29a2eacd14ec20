/**
 * One call of one webhook (upstream mutating/dispatcher.go callAttrMutatingHook and
 * validating/dispatcher.go callHook, up to the response): the dry-run check of sideEffects,
 * the AdmissionReview, the HTTPS call within timeoutSeconds, the response's checks, its audit
 * annotations (`<webhook name>/<key>`) and warnings, and a refusal as the request's error.
 */
import { randomUUID } from 'node:crypto';
import type { ApiError } from '../../errors/api-error.js';
import { postJson, CallError } from './call.js';
import { CallingWebhookError, dryRunUnsupported, toStatusError } from './errors.js';
import {
  admissionRequest,
  admissionReview,
  reviewVersionFor,
  verifyAdmissionResponse,
  InvalidResponseError,
  type AdmissionResponse,
  type VersionedObjects,
} from './review.js';
import type { ServiceResolver } from './service-resolver.js';
import { callTarget } from './target.js';
import type { AdmissionRequest, WebhookInvocation } from './types.js';

/** The v1 default and upstream's bound of timeoutSeconds. */
const DEFAULT_TIMEOUT_SECONDS = 10;

/**
 * Call `inv`'s webhook for `req` with the objects in the invocation's version. Resolves with the
 * response of a webhook that allowed the request (its warnings and audit annotations already
 * recorded on the request). Throws CallingWebhookError (the failure policy decides), or
 * ApiError: the webhook's refusal (ToStatusErr), 400 when it does not support dry run.
 */
export async function callWebhook(
  inv: WebhookInvocation,
  req: AdmissionRequest,
  objects: VersionedObjects,
  mutating: boolean,
  resolve: ServiceResolver,
): Promise<AdmissionResponse> {
  const w = inv.hook.webhook;
  if (req.attrs.dryRun) {
    if (!w.sideEffects) throw new CallingWebhookError(w.name, 'Webhook SideEffects is nil');
    if (w.sideEffects !== 'None' && w.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(w.name);
  }
  const version = reviewVersionFor(w);
  if (!version)
    throw new CallingWebhookError(
      w.name,
      'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
    );
  const uid = randomUUID();
  const body = JSON.stringify(admissionReview(version, admissionRequest(uid, inv, req, objects)));
  const timeoutSeconds = Math.min(Math.max(w.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS, 1), 30);
  let answer: Record<string, unknown>;
  try {
    answer = await postJson(await callTarget(w, timeoutSeconds, resolve), body, timeoutSeconds * 1000);
  } catch (err) {
    if (err instanceof CallError) throw new CallingWebhookError(w.name, `failed to call webhook: ${err.message}`);
    throw err;
  }
  let res: AdmissionResponse;
  try {
    res = verifyAdmissionResponse(version, uid, mutating, answer);
  } catch (err) {
    if (err instanceof InvalidResponseError)
      throw new CallingWebhookError(w.name, `received invalid webhook response: ${err.message}`);
    throw err;
  }
  for (const [k, v] of Object.entries(res.auditAnnotations)) req.attrs.addAuditAnnotation?.(`${w.name}/${k}`, v);
  const warnings = req.attrs.warnings;
  // Upstream's recorder keeps one of each text per request (an update's retries call again).
  if (warnings) for (const text of res.warnings) if (text && !warnings.includes(text)) warnings.push(text);
  if (!res.allowed) throw refusal(w.name, res.result);
  return res;
}

/** A refusal as the request's error. */
function refusal(name: string, result: unknown): ApiError {
  return toStatusError(name, result);
}
