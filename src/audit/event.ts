/**
 * The audit event as written to the log: upstream's `audit.k8s.io/v1` Event, its fields in
 * upstream's JSON order (k8s.io/apiserver pkg/apis/audit/v1/types.go), plus the helpers that
 * fill it from a request as upstream's pkg/audit/request.go does (source IPs, user agent,
 * object reference, MicroTime stamps) and the `legacy` one-line text (pkg/audit/format.go).
 */
import { isIP } from 'node:net';
import type { Level, Stage } from './policy.js';

/** The user an event names (authentication.k8s.io/v1 UserInfo; empty `{}` when authentication failed). */
export interface AuditUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, readonly string[]>;
}

/** What the request is about (upstream audit ObjectReference; empty fields are left out). */
export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** The bounded copy of the response Status (upstream LogResponseObject): `metadata` is always `{}`. */
export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

/**
 * One audit event. Keys are created in upstream's order; absent optional fields stay
 * `undefined` (left out of the JSON line, as upstream's omitempty).
 */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  /** The request-info verb for resource requests, the lower-case HTTP method otherwise. */
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  /** The request body as JSON (Request level and up; resource requests only). */
  requestObject?: unknown;
  /** The response body as JSON (RequestResponse level). */
  responseObject?: unknown;
  /** RFC 3339 with microseconds, UTC (upstream MicroTime). */
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** Anything events are handed to, once per stage (upstream audit.Sink); must not throw or block. */
export interface AuditSink {
  processEvent(event: AuditEvent): void;
}

/** The request facts an event is started from. */
export interface EventSource {
  readonly level: Level;
  readonly auditID: string;
  readonly requestURI: string;
  readonly verb: string;
  readonly user?: { readonly name: string; readonly uid: string; readonly groups: readonly string[] };
  readonly sourceIPs: string[];
  readonly userAgent: string;
  readonly objectRef?: ObjectReference;
}

/** Upstream maxUserAgentLength: longer agents are cut and marked `...TRUNCATED`. */
const MAX_USER_AGENT = 1024;

/** A new event at stage RequestReceived, stamped now (upstream NewEventFromRequest / LogRequestMetadata). */
export function newEvent(src: EventSource): AuditEvent {
  const now = microTime();
  const ua =
    src.userAgent.length > MAX_USER_AGENT ? `${src.userAgent.slice(0, MAX_USER_AGENT)}...TRUNCATED` : src.userAgent;
  return {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: src.level,
    auditID: src.auditID,
    stage: 'RequestReceived',
    requestURI: src.requestURI,
    verb: src.verb,
    user: src.user ? wireUser(src.user) : {},
    impersonatedUser: undefined,
    sourceIPs: src.sourceIPs.length ? src.sourceIPs : undefined,
    userAgent: ua || undefined,
    objectRef: src.objectRef,
    responseStatus: undefined,
    requestObject: undefined,
    responseObject: undefined,
    requestReceivedTimestamp: now,
    stageTimestamp: now,
    annotations: undefined,
  };
}

function wireUser(user: NonNullable<EventSource['user']>): AuditUser {
  return {
    username: user.name || undefined,
    uid: user.uid || undefined,
    groups: user.groups.length ? [...user.groups] : undefined,
  };
}

/**
 * The object reference of a resource request, empty strings left out (upstream: from the
 * authorizer attributes).
 */
export function objectRefOf(a: {
  resource: string;
  namespace: string;
  name: string;
  apiGroup: string;
  apiVersion: string;
  subresource: string;
}): ObjectReference {
  const v = (s: string) => s || undefined;
  return {
    resource: v(a.resource),
    namespace: v(a.namespace),
    name: v(a.name),
    uid: undefined,
    apiGroup: v(a.apiGroup),
    apiVersion: v(a.apiVersion),
    resourceVersion: undefined,
    subresource: v(a.subresource),
  };
}

/** The bounded fields of a Status body (upstream AuditContext.LogResponseObject). */
export function responseStatusOf(status: {
  status?: unknown;
  message?: unknown;
  reason?: unknown;
  details?: unknown;
  code?: unknown;
}): ResponseStatus {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  return {
    metadata: {},
    status: str(status.status),
    message: str(status.message),
    reason: str(status.reason),
    details: status.details ?? undefined,
    code: typeof status.code === 'number' && status.code ? status.code : undefined,
  };
}

/**
 * The request's source IPs (upstream utilnet.SourceIPs): the X-Forwarded-For IPs, then
 * X-Real-Ip unless already listed, then the connection's address unless it is the last one.
 * Invalid entries are skipped; IPv4-mapped IPv6 addresses are written as IPv4 (as Go does).
 */
export function sourceIPs(
  forwardedFor: string | undefined,
  realIp: string | undefined,
  remote: string | undefined,
): string[] {
  const ips: string[] = [];
  for (const part of (forwardedFor ?? '').split(',')) {
    const ip = normalizeIp(part.trim());
    if (ip) ips.push(ip);
  }
  const real = normalizeIp((realIp ?? '').trim());
  if (real && !ips.includes(real)) ips.push(real);
  const remoteIp = normalizeIp(remote ?? '');
  if (remoteIp && ips[ips.length - 1] !== remoteIp) ips.push(remoteIp);
  return ips;
}

function normalizeIp(text: string): string | undefined {
  if (!isIP(text)) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  return mapped ? mapped[1] : text.toLowerCase();
}

/** Now as upstream's MicroTime JSON: `2006-01-02T15:04:05.000000Z` (UTC, microseconds). */
export function microTime(): string {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  const seconds = new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19);
  return `${seconds}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
}

/** The JSON line of an event (upstream's json format: the Event encoded, then a newline). */
export function eventJson(ev: AuditEvent): string {
  return JSON.stringify(ev) + '\n';
}

/**
 * The `legacy` line of an event (upstream audit.EventString):
 * `<received, RFC 3339 nano> AUDIT: id="…" stage="…" ip="…" method="<verb>" user="…" groups="…"
 * as="<impersonated user, or <self>>" asgroups="<its groups, or <lookup>>" user-agent="…" namespace="…" uri="…" response="<code>"`.
 */
export function eventString(ev: AuditEvent): string {
  const q = (s: string) => JSON.stringify(s);
  const username = ev.user.username || '<none>';
  const groups = ev.user.username && ev.user.groups?.length ? ev.user.groups.map(q).join(',') : '<none>';
  const namespace = ev.objectRef?.namespace || '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code ?? 0) : '<deferred>';
  const ip = ev.sourceIPs?.[0] ?? '<unknown>';
  const as = ev.impersonatedUser?.username ?? '<self>';
  const asGroups = ev.impersonatedUser?.groups ? ev.impersonatedUser.groups.map(q).join(',') : '<lookup>';
  const received = ev.requestReceivedTimestamp.replace(/\.?0+Z$/, 'Z');
  return (
    `${received} AUDIT: id=${q(ev.auditID)} stage=${q(ev.stage)} ip=${q(ip)} method=${q(ev.verb)} user=${q(username)} groups=${q(groups)} ` +
    `as=${q(as)} asgroups=${q(asGroups)} user-agent=${q(ev.userAgent ?? '')} namespace=${q(namespace)} uri=${q(ev.requestURI)} response="${response}"`
  );
}
