/**
 * The errors of calling admission webhooks, as upstream words them: a webhook's refusal
 * (k8s.io/apiserver pkg/admission/plugin/webhook/errors/statuserror.go ToStatusErr), a webhook
 * that does not support dry run (NewDryRunUnsupportedErr), and a failed call
 * (pkg/util/webhook/error.go ErrCallingWebhook), which the failure policy ignores or turns into
 * a 500 InternalError.
 */
import type { Status, StatusDetails, StatusReason } from '../../api/status.js';
import { ApiError, badRequest, internalError } from '../../errors/api-error.js';
import { isRecord } from '../../api/json.js';

const KNOWN_REASONS: ReadonlySet<string> = new Set<StatusReason>([
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'AlreadyExists',
  'Conflict',
  'Gone',
  'Invalid',
  'ServerTimeout',
  'Timeout',
  'TooManyRequests',
  'BadRequest',
  'MethodNotAllowed',
  'NotAcceptable',
  'RequestEntityTooLarge',
  'UnsupportedMediaType',
  'InternalError',
  'Expired',
  'ServiceUnavailable',
  '',
]);

function isStatusReason(reason: string): reason is StatusReason {
  return KNOWN_REASONS.has(reason);
}

/**
 * The Status a webhook answered as the request's error: its code, reason and details as sent
 * (a reason of the webhook's own, which no constructor of ours names, is kept as sent).
 */
class WebhookStatusError extends ApiError {
  constructor(
    code: number,
    private readonly rawReason: string,
    message: string,
    details: StatusDetails | undefined,
  ) {
    super(code, isStatusReason(rawReason) ? rawReason : '', message, details);
  }

  override toStatus(): Status {
    const s = super.toStatus();
    if (isStatusReason(this.rawReason)) return s;
    // Rebuilt in upstream's field order (reason before details and code).
    const { details, code, ...head } = s;
    const out: Status = { ...head };
    Object.assign(out, { reason: this.rawReason });
    if (details) out.details = details;
    out.code = code;
    return out;
  }
}

/**
 * A webhook's refusal as the request's error (upstream ToStatusErr): the webhook's status with
 * a code below 400 raised to 400, its message prefixed `admission webhook "<name>" denied the
 * request: ` (the reason when there is no message; `... denied the request without
 * explanation` when neither is given).
 */
export function toStatusError(webhookName: string, result: unknown): ApiError {
  const r = isRecord(result) ? result : {};
  const deniedBy = `admission webhook ${JSON.stringify(webhookName)} denied the request`;
  const code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  const reason = typeof r.reason === 'string' ? r.reason : '';
  const message =
    typeof r.message === 'string' && r.message
      ? `${deniedBy}: ${r.message}`
      : reason
        ? `${deniedBy}: ${reason}`
        : `${deniedBy} without explanation`;
  const details = isRecord(r.details) ? detailsOf(r.details) : undefined;
  return new WebhookStatusError(code, reason, message, details);
}

/** The parts of a webhook's status details we pass on (upstream metav1.StatusDetails). */
function detailsOf(d: Record<string, unknown>): StatusDetails {
  const out: StatusDetails = {};
  if (typeof d.name === 'string') out.name = d.name;
  if (typeof d.group === 'string') out.group = d.group;
  if (typeof d.kind === 'string') out.kind = d.kind;
  if (typeof d.uid === 'string') out.uid = d.uid;
  if (Array.isArray(d.causes))
    out.causes = d.causes.filter(isRecord).map((c) => ({
      ...(typeof c.message === 'string' ? { message: c.message } : {}),
      ...(typeof c.field === 'string' ? { field: c.field } : {}),
    }));
  if (typeof d.retryAfterSeconds === 'number') out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

/** 400 `admission webhook "<name>" does not support dry run` (upstream NewDryRunUnsupportedErr). */
export function dryRunUnsupported(webhookName: string): ApiError {
  return badRequest(`admission webhook ${JSON.stringify(webhookName)} does not support dry run`);
}

/**
 * A webhook that could not be called or answered nonsense (upstream ErrCallingWebhook): the
 * failure policy decides. Its message is upstream's: `failed calling webhook "<name>": <reason>`.
 */
export class CallingWebhookError extends Error {
  constructor(
    readonly webhookName: string,
    readonly reason: string,
  ) {
    super(`failed calling webhook ${JSON.stringify(webhookName)}: ${reason}`);
    this.name = 'CallingWebhookError';
  }

  /** The request's error under failurePolicy Fail: 500 `Internal error occurred: <message>`. */
  toApiError(): ApiError {
    return internalError(this.message);
  }
}
