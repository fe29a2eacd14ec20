/**
 * The validating webhooks of one request (upstream k8s.io/apiserver
 * pkg/admission/plugin/webhook/validating/dispatcher.go): every matching webhook is found
 * first (a selector or match-condition error ends the request), then all are called in
 * parallel with the object as it will be stored; the request fails with the first error to
 * arrive: a refusal, a 400 for an unsupported dry run, or a 500 for a webhook that could not be
 * called under failurePolicy Fail. Under Ignore such a webhook is passed over (audit annotation
 * `failed-open.validating.webhook.admission.k8s.io/round_0_index_<i>`).
 */
import { ApiError } from '../../errors/api-error.js';
import { errorMessage } from '../../api/error-message.js';
import { internalError } from '../../errors/api-error.js';
import { CallingWebhookError } from './errors.js';
import { callWebhook } from './invoke.js';
import { shouldCallHook } from './matching.js';
import type { DispatchDeps } from './mutating.js';
import type { AdmissionRequest, RegisteredWebhook, WebhookInvocation } from './types.js';
import { toVersion } from './versions.js';

/** Call the validating webhooks `hooks` for `req`. Throws ApiError as described above. */
export async function dispatchValidating(
  hooks: readonly RegisteredWebhook[],
  req: AdmissionRequest,
  deps: DispatchDeps,
): Promise<void> {
  const relevant: WebhookInvocation[] = [];
  for (const hook of hooks) {
    const inv = await shouldCallHook(hook, req, deps);
    if (inv) relevant.push(inv);
  }
  if (!relevant.length) return;
  let first: ApiError | undefined;
  await Promise.all(
    relevant.map(async (inv, index) => {
      const err = await callOne(inv, req, deps, index);
      first ??= err;
    }),
  );
  if (first) throw first;
}

/** Call one webhook; the error it ends the request with, if any. */
async function callOne(
  inv: WebhookInvocation,
  req: AdmissionRequest,
  deps: DispatchDeps,
  index: number,
): Promise<ApiError | undefined> {
  const w = inv.hook.webhook;
  try {
    const objects = {
      object: req.object ? toVersion(inv.def, req.object) : null,
      oldObject: req.oldObject ? toVersion(inv.def, req.oldObject) : null,
    };
    await callWebhook(inv, req, objects, false, deps.resolve);
    return undefined;
  } catch (err) {
    if (err instanceof CallingWebhookError) {
      if (w.failurePolicy !== 'Ignore') return err.toApiError();
      deps.onFailOpen?.(w.name, err);
      req.attrs.addAuditAnnotation?.(`failed-open.validating.webhook.admission.k8s.io/round_0_index_${index}`, w.name);
      return undefined;
    }
    return err instanceof ApiError ? err : internalError(errorMessage(err));
  }
}
