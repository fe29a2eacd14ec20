/**
 * Auditing requests, as upstream k8s.io/apiserver pkg/endpoints/filters/audit.go and
 * authn_audit.go do:
 *
 * - {@link withAudit} runs right after authentication (the user is known): the policy gives
 *   the request's level; at None nothing is recorded. Otherwise one event goes to the sink at
 *   RequestReceived (before the handler), at ResponseStarted (long-running requests only:
 *   watch and proxy verbs, attach/exec/proxy/log/portforward subresources) and at
 *   ResponseComplete (for a watch, when its stream ends); an unexpected error (a 500 that is
 *   not an ApiError) gives a Panic event instead, with upstream's `APIServer panic'd: ...`.
 * - {@link withFailedAuthenticationAudit} runs before authentication: a request refused with 401
 *   gets one event at ResponseStarted with an empty user (upstream's failed handler); its
 *   responseStatus is the Unauthorized Status the client receives. {@link auditFailedRequest}
 *   does the same for an invalid `timeout` parameter (400).
 * - A request its deadline answered (504, request-deadline.ts) completes with that Timeout
 *   Status, whatever its handler did afterwards.
 *
 * Paths served without authentication (health, /version) are audited as upstream's anonymous
 * user (`system:anonymous`, group `system:unauthenticated`). The auditID is the request's
 * `Audit-Id` response header (observe.ts). Request bodies are recorded from Request level on
 * (resource requests that carry one: create, update, patch, delete); response bodies at
 * RequestResponse (resource and discovery responses, and every error Status), as JSON whatever
 * format was on the wire; a request body is decoded within the server's bounds, and one that
 * does not decode (the request's answer is then 400) is left out. A create or update fills
 * the object reference's name, namespace, uid and resourceVersion from the body at every
 * level, as upstream's LogRequestObject.
 */
import { randomUUID } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { jsonTextDepth, MAX_NESTING_DEPTH } from '../../api/nesting.js';
import { yamlDepthBound } from '../../api/yaml-depth.js';
import type { Status } from '../../api/status.js';
import type { Auditor, AuditState } from '../../audit/auditor.js';
import { microTime, newEvent, objectRefOf, responseStatusOf, sourceIPs, type AuditSink } from '../../audit/event.js';
import { levelAtLeast, type Stage } from '../../audit/policy.js';
import { ANONYMOUS } from '../../auth/anonymous.js';
import type { UserInfo } from '../../auth/user-info.js';
import { ApiError } from '../../errors/api-error.js';
import type { ApiContext } from '../context.js';
import { decodeProtobufBody } from '../negotiation/protobuf.js';
import { MAX_YAML_ALIASES, parseJsonText, parseYamlText } from '../negotiation/safe-decode.js';
import { attributesOf } from './authorization.js';
import { toHttpApiError } from './error-handler.js';
import { deadlineOf, isLongRunning, requestTimedOut } from './request-deadline.js';
import { errorMessage } from '../../api/error-message.js';
import { isRecord } from '../../api/json.js';

export type { Auditor, AuditState };

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

type Next = () => Promise<void>;

/** Upstream WithAudit (installed only when auditing is configured). */
export function withAudit(auditor: Auditor) {
  return async (ctx: ApiContext, next: Next): Promise<void> => {
    const state = begin(ctx, auditor, ctx.state.user ?? ANONYMOUS);
    if (!state) return next();
    ctx.state.audit = state;
    emit(auditor.sink, state, 'RequestReceived');
    try {
      await next();
    } catch (err) {
      const apiErr = timedOut(ctx) ?? toHttpApiError(err);
      if (!apiErr) {
        state.event.responseStatus = {
          metadata: {},
          status: 'Failure',
          message: `APIServer panic'd: ${errorMessage(err)}`,
          reason: 'InternalError',
          code: 500,
        };
        emit(auditor.sink, state, 'Panic');
      } else {
        finish(ctx, auditor.sink, state, apiErr.toStatus());
      }
      throw err;
    }
    finish(ctx, auditor.sink, state, timedOut(ctx)?.toStatus());
  };
}

/** The 504 of a request its deadline answered: what the client got, whatever the handler did after. */
function timedOut(ctx: ApiContext): ApiError | undefined {
  return deadlineOf(ctx)?.expired ? requestTimedOut() : undefined;
}

/** Upstream WithFailedAuthenticationAudit: place it before authentication. */
export function withFailedAuthenticationAudit(auditor: Auditor) {
  return async (ctx: ApiContext, next: Next): Promise<void> => {
    try {
      await next();
    } catch (err) {
      const state =
        err instanceof ApiError && err.code === 401 && !ctx.state.user && !ctx.state.audit
          ? begin(ctx, auditor, undefined)
          : undefined;
      if (state && err instanceof ApiError) {
        const status = err.toStatus();
        state.event.responseStatus = responseStatusOf(status);
        if (state.config.level === 'RequestResponse') state.event.responseObject = status;
        emit(auditor.sink, state, 'ResponseStarted');
      }
      throw err;
    }
  };
}

/**
 * Upstream withFailedRequestAudit (request_deadline.go): a request refused before
 * authentication (an invalid `timeout` parameter) gets one event at ResponseStarted, without a
 * user, whose responseStatus carries the error's message and code only.
 */
export function auditFailedRequest(auditor: Auditor, ctx: ApiContext, err: ApiError): void {
  const state = begin(ctx, auditor, undefined);
  if (!state) return;
  state.event.responseStatus = { metadata: {}, message: err.message, code: err.code };
  emit(auditor.sink, state, 'ResponseStarted');
}

/** Evaluate the policy and start the event, or undefined at level None. */
function begin(ctx: ApiContext, auditor: Auditor, user: UserInfo | undefined): AuditState | undefined {
  const attrs = attributesOf(ctx, user ?? ANONYMOUS);
  const config = auditor.checker.evaluate({ ...attrs, user });
  if (config.level === 'None') return undefined;
  const event = newEvent({
    level: config.level,
    auditID: ctx.state.auditId || randomUUID(),
    requestURI: ctx.originalUrl,
    verb: attrs.verb,
    user,
    sourceIPs: sourceIPs(
      ctx.get('X-Forwarded-For') || undefined,
      ctx.get('X-Real-Ip') || undefined,
      ctx.req.socket?.remoteAddress,
    ),
    userAgent: ctx.get('User-Agent'),
    objectRef: attrs.isResourceRequest ? objectRefOf(attrs) : undefined,
  });
  return { event, config };
}

/** Send the event at `stage` unless the policy omits it (upstream processAuditEvent). */
function emit(sink: AuditSink, state: AuditState, stage: Stage): void {
  if (state.config.omitStages.includes(stage)) return;
  const ev = state.event;
  ev.stage = stage;
  ev.stageTimestamp = stage === 'RequestReceived' ? ev.requestReceivedTimestamp : microTime();
  sink.processEvent(ev);
}

/** Record the outcome and send ResponseStarted (long-running) and ResponseComplete. */
function finish(ctx: ApiContext, sink: AuditSink, state: AuditState, errorStatus?: Status): void {
  const ev = state.event;
  const { level, omitManagedFields } = state.config;
  logRequestObject(ctx, state);
  if (errorStatus) {
    ev.responseStatus = responseStatusOf(errorStatus);
    if (level === 'RequestResponse') ev.responseObject = errorStatus;
  } else {
    const code = ctx.respond === false ? ctx.res.statusCode : ctx.status;
    const wantObject = level === 'RequestResponse' && Boolean(ctx.state.requestInfo?.apiPrefix);
    const body = wantObject || looksLikeStatus(ctx) ? responseBody(ctx) : undefined;
    // Upstream: a Status body's bounded fields, then the written HTTP code (processCode).
    ev.responseStatus =
      isRecord(body) && body.kind === 'Status' ? { ...responseStatusOf(body), code } : { metadata: {}, code };
    if (wantObject && body !== undefined) ev.responseObject = omitManagedFields ? withoutManagedFields(body) : body;
  }
  if (isLongRunning(ctx.state.requestInfo)) emit(sink, state, 'ResponseStarted');
  // A watch goes on after the handler returned: complete it when its stream ends (the
  // closure holds the event, not the request's context).
  const stream = ctx.state.stream;
  const complete = () => emit(sink, state, 'ResponseComplete');
  if (stream) stream.onEnd(complete);
  else complete();
}

/** Upstream LogRequestObject / LogRequestPatch for the write verbs. */
function logRequestObject(ctx: ApiContext, state: AuditState): void {
  const info = ctx.state.requestInfo;
  if (!info?.isResourceRequest || !WRITE_VERBS.has(info.verb)) return;
  const wantObject = levelAtLeast(state.config.level, 'Request');
  const fillsRef = info.verb === 'create' || info.verb === 'update';
  if (!wantObject && !fillsRef) return;
  let body = requestBody(ctx);
  if (body === undefined && (info.verb === 'delete' || info.verb === 'deletecollection'))
    body = deleteOptionsFromQuery(ctx);
  if (body === undefined) return;
  const meta = isRecord(body) ? body.metadata : undefined;
  const ref = state.event.objectRef;
  if (fillsRef && ref && isRecord(meta)) {
    const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    ref.namespace ||= str(meta.namespace);
    ref.name ||= str(meta.name);
    ref.uid ||= str(meta.uid);
    ref.resourceVersion ||= str(meta.resourceVersion);
  }
  if (wantObject) state.event.requestObject = state.config.omitManagedFields ? withoutManagedFields(body) : body;
}

/**
 * The request body as JSON, whatever its media type; undefined when absent or undecodable.
 * Decoded with the server's own bounds (safe-decode.ts: nesting, alias expansions, self
 * references), as the handler decodes it: a body the handler refuses (400) is not recorded,
 * as upstream logs the request object only once it decoded (pkg/audit/request.go
 * LogRequestObject, called by the handlers after decoding).
 */
function requestBody(ctx: ApiContext): unknown {
  try {
    if (ctx.state.rawBuffer?.length) return decodeProtobufBody(ctx.state.codec, ctx.state.rawBuffer);
    const raw = ctx.state.rawBody;
    if (!raw?.trim()) return undefined;
    return /yaml/i.test(ctx.get('Content-Type'))
      ? parseYamlText(raw, 'the request body')
      : parseJsonText(raw, 'the request body');
  } catch {
    return undefined;
  }
}

/** The DeleteOptions of a delete without a body, from its query (upstream logs them either way). */
function deleteOptionsFromQuery(ctx: ApiContext): Record<string, unknown> {
  const q = ctx.query;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const options: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' };
  const grace = one(q.gracePeriodSeconds);
  if (grace !== undefined && /^-?\d+$/.test(grace)) options.gracePeriodSeconds = Number(grace);
  if (one(q.propagationPolicy)) options.propagationPolicy = one(q.propagationPolicy);
  if (one(q.orphanDependents) !== undefined) options.orphanDependents = one(q.orphanDependents) === 'true';
  if (q.dryRun !== undefined) options.dryRun = [q.dryRun].flat();
  return options;
}

/** A small JSON response that is a Status (e.g. a delete's Success), worth decoding at any level. */
function looksLikeStatus(ctx: ApiContext): boolean {
  const body = ctx.body;
  if (
    (typeof body !== 'string' && !Buffer.isBuffer(body)) ||
    body.length > 65536 ||
    !ctx.response.type.includes('json')
  )
    return false;
  return /^\s*\{\s*"kind"\s*:\s*"Status"/.test(
    Buffer.isBuffer(body) ? body.subarray(0, 64).toString() : body.slice(0, 64),
  );
}

/**
 * Our own responses wrap stored objects (at most MAX_NESTING_DEPTH deep) in lists and Tables:
 * their text may nest this much before the audit leaves the response object out.
 */
const MAX_RESPONSE_DEPTH = 2 * MAX_NESTING_DEPTH;

/**
 * The response body as JSON (from JSON, YAML or protobuf); undefined for streams, other types,
 * and text nested deeper than MAX_RESPONSE_DEPTH (checked before parsing, as safe-decode.ts).
 */
function responseBody(ctx: ApiContext): unknown {
  const body = ctx.body;
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return undefined;
  const type = ctx.response.type;
  try {
    if (type.includes('protobuf'))
      return ctx.state.codec.decodeObject(Buffer.isBuffer(body) ? body : Buffer.from(body));
    const text = body.toString();
    if (type.includes('json'))
      return jsonTextDepth(text, MAX_RESPONSE_DEPTH) > MAX_RESPONSE_DEPTH ? undefined : JSON.parse(text);
    if (type.includes('yaml'))
      return yamlDepthBound(text, 2 * MAX_RESPONSE_DEPTH) > 2 * MAX_RESPONSE_DEPTH
        ? undefined
        : parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES });
  } catch {
    // not decodable: leave it out
  }
  return undefined;
}

/** A copy without metadata.managedFields in the object, a list's items or a Table's rows (upstream copyWithoutManagedFields). */
function withoutManagedFields(value: unknown): unknown {
  const strip = (o: unknown): unknown => {
    if (!isRecord(o) || !isRecord(o.metadata) || !('managedFields' in o.metadata)) return o;
    const { managedFields: _dropped, ...rest } = o.metadata;
    return { ...o, metadata: rest };
  };
  const v = strip(value);
  if (!isRecord(v)) return v;
  if (Array.isArray(v.items)) return { ...v, items: v.items.map(strip) };
  const rows: unknown = v.rows;
  if (Array.isArray(rows))
    return { ...v, rows: rows.map((r: unknown) => (isRecord(r) && r.object ? { ...r, object: strip(r.object) } : r)) };
  return v;
}
