/**
 * Runs one generated case against a server and checks what a user must always see: no 5xx
 * (except upstream's 504 for a read at a resourceVersion the server has not reached, and a
 * connect subresource's answer that its node agent, pod or endpoint cannot be reached), an
 * answer within the deadline, a Status whose code is the HTTP status for every non-2xx answer,
 * a parseable body for every 2xx JSON answer, and a target object left exactly as it was
 * (resourceVersion included) by a failed write or a successful dry run.
 */
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import type { Agent } from 'undici';
import type { ProtobufCodec } from '../../src/api/protobuf/codec.js';
import type { ResourceDefinition } from '../../src/registry/types.js';
import { fullObject } from '../fixtures/full-objects.js';
import { MINIMAL_OBJECTS } from '../fixtures/minimal-objects.js';
import { encode, makeDoc, makeJsonPatch, APPLY_PATCH } from './bodies.js';
import { send, type RawRequest, type RawResponse } from './fuzz-client.js';
import { toJsonText, type Json } from './mutations.js';
import { NS, RV, SEED, type CaseRecipe } from './requests.js';

export interface FuzzContext {
  readonly url: string;
  readonly agent: Agent;
  readonly token: string;
  readonly codec: ProtobufCodec;
  readonly defs: readonly ResourceDefinition[];
  /** The namespace of the current batch (created by the suite). */
  namespace: string;
}

/** A broken invariant, with what reproduces it. */
export interface Violation {
  readonly problem: string;
  readonly request: { method: string; path: string; headers: Record<string, string>; body?: string };
  readonly status?: number;
  readonly answer?: string;
}

const prefixOf = (d: ResourceDefinition) => (d.group ? `/apis/${d.group}/${d.version}` : '/api/v1');
const encodeSegment = (s: string) => (/%[0-9A-F]{2}/i.test(s) ? s : encodeURIComponent(s));

/** The URL path of a case and the path of the object it targets (if any). */
function pathsOf(def: ResourceDefinition, c: CaseRecipe, ns: string): { path: string; objectPath?: string } {
  const nsSeg = def.namespaced || c.shape === 'extra' ? `/namespaces/${encodeSegment(ns)}` : '';
  const collection = `${prefixOf(def)}${def.namespaced ? nsSeg : ''}/${def.plural}`;
  const objectPath = `${collection}/${encodeSegment(c.name)}`;
  switch (c.shape) {
    case 'collection':
      return { path: collection };
    case 'all-namespaces':
      return { path: `${prefixOf(def)}/${def.plural}` };
    case 'object':
      return { path: objectPath, objectPath };
    case 'subresource':
      return { path: `${objectPath}/${c.subresource}`, objectPath };
    case 'legacy-watch':
      return { path: `${prefixOf(def)}/watch${nsSeg}/${def.plural}${c.name === SEED ? `/${SEED}` : ''}` };
    case 'extra':
      return { path: `${prefixOf(def)}${nsSeg}/${def.plural}/${encodeSegment(c.name)}/${c.subresource}/extra` };
  }
}

async function getJson(ctx: FuzzContext, path: string): Promise<{ status: number; body: unknown }> {
  const res = await send(ctx.url, ctx.agent, ctx.token, {
    method: 'GET',
    path,
    headers: { accept: 'application/json' },
  });
  return { status: res.status, body: res.status === 200 ? JSON.parse(res.bytes.toString('utf8')) : undefined };
}

/** The stored object at `objectPath`, creating the seed from its minimal fixture when it is missing. */
async function snapshot(
  ctx: FuzzContext,
  def: ResourceDefinition,
  objectPath: string,
  seed: boolean,
): Promise<{ status: number; body: unknown }> {
  let snap = await getJson(ctx, objectPath);
  const minimal = MINIMAL_OBJECTS[def.plural];
  if (snap.status === 404 && seed && minimal) {
    const collection = objectPath.slice(0, objectPath.lastIndexOf('/'));
    await send(ctx.url, ctx.agent, ctx.token, {
      method: 'POST',
      path: collection,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(minimal.body(SEED)),
    });
    snap = await getJson(ctx, objectPath);
  }
  return snap;
}

/** A top-level subset of a document (bit i of `subset` keeps key i), always an object. */
function subsetOf(doc: Json, subset: number): Json {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return {};
  return Object.fromEntries(Object.entries(doc).filter((_e, i) => (subset >> i) & 1)) as Json;
}

/** The body of a case, given the stored target (if any). */
function bodyOf(
  ctx: FuzzContext,
  def: ResourceDefinition,
  c: CaseRecipe,
  stored: unknown,
): { contentType?: string; body?: string | Buffer } {
  const other = ctx.defs[c.subset % ctx.defs.length];
  const minimal = (d: ResourceDefinition) =>
    (MINIMAL_OBJECTS[d.plural]?.body(c.name) ?? { metadata: { name: c.name } }) as Json;
  const base: Json =
    c.base === 'stored' && stored
      ? (stored as Json)
      : c.base === 'full'
        ? (fullObject(def, c.name) as Json)
        : c.base === 'other'
          ? minimal(other)
          : minimal(def);
  if (c.method === 'PATCH') {
    const target = (stored as Json) ?? base;
    if (c.patchType === 'application/json-patch+json')
      return { contentType: c.patchType, body: makeJsonPatch(target, c.jsonPatch) };
    const doc = makeDoc(subsetOf(target, c.subset), c.doc);
    if (c.directive && doc && typeof doc === 'object' && !Array.isArray(doc)) {
      const maps = [
        doc,
        ...Object.values(doc).filter((v) => v && typeof v === 'object' && !Array.isArray(v)),
      ] as Record<string, Json>[];
      maps[c.subset % maps.length][c.directive[0]] = c.directive[1];
    }
    if (c.patchType === APPLY_PATCH) return { contentType: c.patchType, body: toYaml(doc) };
    return { contentType: c.patchType || undefined, body: toJsonText(doc) };
  }
  if (c.method === 'GET' || c.method === 'HEAD' || c.method === 'OPTIONS') return {};
  if (c.method === 'DELETE') {
    if (c.encoding.e === 'none' || c.subset % 3 === 0) return {};
    const opts = makeDoc(
      {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        gracePeriodSeconds: 0,
        propagationPolicy: 'Background',
        preconditions: { uid: 'x', resourceVersion: '1' },
      },
      c.doc,
    );
    return encode(opts, c.encoding, ctx.codec, 'DeleteOptions', 'v1');
  }
  const doc = makeDoc(base, c.doc);
  const kind = c.subresource === 'scale' && c.shape === 'subresource' ? 'Scale' : def.kind;
  return encode(
    doc,
    c.encoding,
    ctx.codec,
    kind,
    c.subresource === 'scale' ? 'autoscaling/v1' : prefixOf(def).replace(/^\/apis?\//, ''),
  );
}

/** The Status of a non-2xx answer, decoded from its content type; a string says why there is none. */
function statusOf(ctx: FuzzContext, res: RawResponse): { code?: unknown; kind?: unknown } | string {
  try {
    if (res.contentType.includes('protobuf')) return ctx.codec.decodeObject(res.bytes);
    const text = res.bytes.toString('utf8');
    if (res.contentType.startsWith('application/json')) return JSON.parse(text);
    if (res.contentType.startsWith('application/yaml')) return parseYaml(text);
    return `content type ${res.contentType || '(none)'}: ${text.slice(0, 100)}`;
  } catch (err) {
    return `undecodable ${res.contentType}: ${(err as Error).message}`;
  }
}

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
const shown = (body: string | Buffer | undefined) =>
  body === undefined
    ? undefined
    : typeof body === 'string'
      ? body.length > 2000
        ? `${body.slice(0, 2000)}... (${body.length} chars)`
        : body
      : `base64:${body.toString('base64').slice(0, 2000)}`;

/** Run one case; returns the violations it found (none when all is well). */
export async function runCase(ctx: FuzzContext, c: CaseRecipe): Promise<Violation[]> {
  const def = ctx.defs.find((d) => d.plural === c.plural)!;
  const ns = c.namespace === NS ? ctx.namespace : c.namespace;
  const { path, objectPath } = pathsOf(def, c, ns);
  const seeded = c.name === SEED && (!def.namespaced || ns === ctx.namespace);
  const before = objectPath ? await snapshot(ctx, def, objectPath, seeded) : undefined;
  const stored = before?.status === 200 ? before.body : undefined;
  const rv = (stored as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion ?? '1';
  const query = c.query.map(([k, v]) => [k, v === RV ? rv : v] as [string, string]);
  // Any `watch` value but false/0 makes a watch (as upstream's request info reads it).
  const watching =
    c.method === 'GET' &&
    (c.shape === 'legacy-watch' ||
      query.some(([k, v]) => k === 'watch' && !['false', '0', 'f'].includes(v.toLowerCase())));
  if (watching && !query.some(([k]) => k === 'timeoutSeconds')) query.push(['timeoutSeconds', '1']);
  const qs = query.length ? `?${query.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}` : '';
  const { contentType, body } = bodyOf(ctx, def, c, stored);
  // POST creates the object named in its body: that is the target to watch for changes.
  let target = objectPath;
  if (c.method === 'POST' && c.shape === 'collection' && typeof body === 'string') {
    const name = /"name":"([a-z0-9.-]{1,63})"/.exec(body)?.[1];
    if (name) target = `${path}/${name}`;
  }
  const beforeTarget = target === objectPath ? before : target ? await getJson(ctx, target) : undefined;
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers['content-type'] = contentType;
  if (c.accept !== undefined) headers.accept = c.accept;
  const req: RawRequest = { method: c.method, path: path + qs, headers, body, streamMs: watching ? 300 : undefined };
  const report = { method: c.method, path: path + qs, headers, body: shown(body) };
  const violations: Violation[] = [];
  let res: RawResponse;
  try {
    res = await send(ctx.url, ctx.agent, ctx.token, req);
  } catch (err) {
    return [{ problem: `no answer: ${(err as Error).message}`, request: report }];
  }
  const text = res.bytes.toString('utf8');
  const add = (problem: string) =>
    violations.push({ problem, request: report, status: res.status, answer: text.slice(0, 500) });
  const ok = res.status >= 200 && res.status < 300;
  // Connect subresources (logs, exec, proxies) reach a node agent, pod or endpoint named by the
  // fuzzed objects; when it cannot be reached upstream answers 5xx (500 `error dialing backend`,
  // `Get ...: dial tcp ...`, `no preferred addresses found` for a node without an address,
  // 503 `no endpoints available for service` for a service without ready endpoints) or, for
  // proxies, 503 in text (`Error: '...'\nTrying to reach: '...'`).
  const connect =
    (c.shape === 'subresource' || c.shape === 'extra') &&
    def.subresources.some((s) => s.name === c.subresource && s.connect);
  const unreachable =
    connect &&
    res.status >= 500 &&
    /dial tcp|no preferred addresses found|Trying to reach: |timeout awaiting response headers|no endpoints available for service|no service port \d+ found/.test(
      text,
    );
  if (res.status >= 500 && !unreachable) {
    // Upstream's answer to a read at a resourceVersion not reached within 3 s (HEAD has no body to say so).
    const tooNew =
      res.status === 504 &&
      query.some(([k]) => k === 'resourceVersion') &&
      (c.method === 'HEAD' || text.includes('Too large resource version'));
    if (!tooNew) add(`answered ${res.status}`);
  }
  // A proxy forwards its backend's answer as it is (the seeded Endpoints' address may answer
  // in some networks): a non-Status 4xx there is the backend's, not ours.
  const proxy = connect && def.subresources.some((s) => s.name === c.subresource && s.connect?.subpath);
  if (!ok && c.method !== 'HEAD' && !(unreachable && text.startsWith('Error: '))) {
    const status = statusOf(ctx, res);
    if (typeof status === 'string') {
      if (!(proxy && res.status < 500)) add(`non-2xx answer is not a Status: ${status}`);
    } else if (status.kind !== 'Status' || status.code !== res.status)
      add(`Status kind/code ${String(status.kind)}/${String(status.code)} for HTTP ${res.status}`);
  }
  if (
    ok &&
    c.method !== 'HEAD' &&
    !res.cut &&
    res.contentType.startsWith('application/json') &&
    !res.contentType.includes('stream')
  ) {
    try {
      JSON.parse(text);
    } catch {
      add('2xx JSON answer does not parse');
    }
  }
  const dryRun =
    query.some(([k, v]) => k === 'dryRun' && v === 'All') && !query.some(([k, v]) => k === 'dryRun' && v !== 'All');
  if (target && beforeTarget && isWrite(c.method) && (!ok || dryRun)) {
    const after = await getJson(ctx, target);
    if (after.status !== beforeTarget.status || !isDeepStrictEqual(after.body, beforeTarget.body)) {
      add(
        `${ok ? 'dry run' : `failed write (${res.status})`} changed ${target}: ${JSON.stringify(beforeTarget.body)?.slice(0, 300)} -> ${JSON.stringify(after.body)?.slice(0, 300)}`,
      );
    }
  }
  return violations;
}
