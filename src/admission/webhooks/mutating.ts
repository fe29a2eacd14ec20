/**
 * The mutating webhooks of one request (upstream k8s.io/apiserver
 * pkg/admission/plugin/webhook/mutating/dispatcher.go, with admission/reinvocation.go): each
 * matching webhook in order, sequentially, gets the object as changed by those before it; a
 * JSON patch it returns is applied to the object in its version, decoded, defaulted and stored
 * back. When a webhook changes the object, the earlier ones with reinvocationPolicy IfNeeded
 * are called once more, in a second round, after all the others (a webhook is never called for
 * the first time in that round). failurePolicy Ignore passes over a webhook that could not be
 * called (audit annotation `failed-open.mutation.webhook.admission.k8s.io/round_<r>_index_<i>`);
 * Fail answers 500. A refusal always ends the request.
 */
import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { errorMessage } from '../../api/error-message.js';
import { isDeepStrictEqual } from 'node:util';
import { internalError } from '../../errors/api-error.js';
import { CallingWebhookError } from './errors.js';
import { callWebhook } from './invoke.js';
import { shouldCallHook, type MatchDeps } from './matching.js';
import type { AdmissionResponse } from './review.js';
import type { ApiObject } from '../../api/object.js';
import type { ServiceResolver } from './service-resolver.js';
import type { AdmissionRequest, RegisteredWebhook, WebhookInvocation } from './types.js';
import { fromVersion, replaceContents, toVersion } from './versions.js';

/** What the dispatchers need beside the request. */
export interface DispatchDeps extends MatchDeps {
  readonly resolve: ServiceResolver;
  /** Logs a webhook that failed open. */
  readonly onFailOpen?: (webhook: string, err: CallingWebhookError) => void;
}

/**
 * Call the mutating webhooks `hooks` for `req`, changing `req.object` in place. Throws
 * ApiError: a refusal, 500 for a failed call under failurePolicy Fail or a patch that cannot be
 * applied, 400 for a dry run a webhook does not support.
 */
export async function dispatchMutating(
  hooks: readonly RegisteredWebhook[],
  req: AdmissionRequest,
  deps: DispatchDeps,
): Promise<void> {
  const previouslyInvoked = new Set<string>();
  const reinvoke = new Set<string>();
  for (const round of [0, 1]) {
    if (round === 1 && reinvoke.size === 0) return;
    for (const [index, hook] of hooks.entries()) {
      const inv = await shouldCallHook(hook, req, deps);
      if (!inv || (round === 1 && !reinvoke.has(hook.uid))) continue;
      const changed = await callOne(inv, req, deps, round, index);
      if (changed) {
        for (const uid of previouslyInvoked) reinvoke.add(uid);
        previouslyInvoked.clear();
      }
      if (hook.webhook.reinvocationPolicy === 'IfNeeded') previouslyInvoked.add(hook.uid);
    }
  }
}

/** Call one webhook and apply its patch; whether it changed the object. */
async function callOne(
  inv: WebhookInvocation,
  req: AdmissionRequest,
  deps: DispatchDeps,
  round: number,
  index: number,
): Promise<boolean> {
  const name = inv.hook.webhook.name;
  const before = req.object ? toVersion(inv.def, req.object) : null;
  let changed: boolean;
  try {
    const oldObject = req.oldObject ? toVersion(inv.def, req.oldObject) : null;
    const res = await callWebhook(inv, req, { object: before, oldObject }, true, deps.resolve);
    changed = applyPatch(inv, req, before, res);
  } catch (err) {
    if (!(err instanceof CallingWebhookError)) throw err;
    if (inv.hook.webhook.failurePolicy !== 'Ignore') throw err.toApiError();
    deps.onFailOpen?.(name, err);
    req.attrs.addAuditAnnotation?.(`failed-open.mutation.webhook.admission.k8s.io/round_${round}_index_${index}`, name);
    return false;
  }
  req.attrs.addAuditAnnotation?.(
    `mutation.webhook.admission.k8s.io/round_${round}_index_${index}`,
    JSON.stringify({ configuration: inv.hook.configurationName, webhook: name, mutated: changed }),
  );
  return changed;
}

/**
 * Apply a response's JSON patch to the request's object; whether it changed. Throws
 * CallingWebhookError (an undecodable patch, an unsupported patch type: the failure policy
 * decides) or ApiError 500 (a patch of no object, a patch that does not apply).
 */
function applyPatch(
  inv: WebhookInvocation,
  req: AdmissionRequest,
  before: ApiObject | null,
  res: AdmissionResponse,
): boolean {
  const name = inv.hook.webhook.name;
  if (!res.patch) return false;
  let ops: unknown;
  try {
    ops = JSON.parse(res.patch);
    if (!Array.isArray(ops)) throw new Error('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  } catch (err) {
    throw new CallingWebhookError(name, `received undecodable patch in webhook response: ${errorMessage(err)}`);
  }
  if (ops.length === 0) return false;
  if (!req.object || !before)
    throw internalError(
      `admission webhook ${JSON.stringify(name)} attempted to modify the object, which is not supported for this operation`,
    );
  if (res.patchType !== 'JSONPatch')
    throw new CallingWebhookError(name, `unsupported patch type ${JSON.stringify(res.patchType)}`);
  let patched: unknown;
  try {
    patched = fastJsonPatch.applyPatch(before, ops as Operation[], true, false).newDocument;
  } catch (err) {
    throw internalError(errorMessage(err).split('\n')[0]!);
  }
  const stored = fromVersion(inv.def, patched);
  const changed = !isDeepStrictEqual(toVersion(inv.def, stored), toVersion(inv.def, req.object));
  replaceContents(req.object, stored);
  return changed;
}
