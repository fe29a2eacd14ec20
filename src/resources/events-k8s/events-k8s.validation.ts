/**
 * The rules an events.k8s.io/v1 write adds to core/v1's (upstream
 * pkg/apis/core/validation/events.go ValidateEventCreate and ValidateEventUpdate with the
 * request version events.k8s.io/v1; core/v1 and events.k8s.io/v1beta1 writes get only the
 * legacy rules, the core row's). They run on the stored (core/v1) form, so the paths are
 * core/v1's, as upstream's: `firstTimestamp`, `count`, `source`, `involvedObject`, `message`.
 */
import { isDeepStrictEqual } from 'node:util';
import { formatValue, invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
import type { Event } from '../events/events.schema.js';
import { recordOf } from '../../api/json.js';

const set = (v: unknown) => v !== undefined && v !== null && v !== '';

/** Go's time.Time String() of an RFC 3339 time: `2006-01-02 15:04:05.999999999 -0700 MST`. */
export function goTime(text: string): string {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(text);
  if (!m) return JSON.stringify(text);
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  const zone = m[4] === 'Z' ? '+0000 UTC' : `${m[4]!.replace(':', '')} ${m[4]!.replace(':', '')}`;
  return `${m[1]} ${m[2]}${fraction ? `.${fraction}` : ''} ${zone}`;
}

/** Go's %#v of a struct of string fields (`core.EventSource{Component:"a", Host:""}`). */
function goStruct(type: string, value: unknown, fields: readonly [string, string][]): string {
  const rec = recordOf(value);
  return `${type}{${fields.map(([go, json]) => `${go}:${JSON.stringify(String(rec[json] ?? ''))}`).join(', ')}}`;
}
const OBJECT_REFERENCE: [string, string][] = [
  ['Kind', 'kind'],
  ['Namespace', 'namespace'],
  ['Name', 'name'],
  ['UID', 'uid'],
  ['APIVersion', 'apiVersion'],
  ['ResourceVersion', 'resourceVersion'],
  ['FieldPath', 'fieldPath'],
];
const EVENT_SOURCE: [string, string][] = [
  ['Component', 'component'],
  ['Host', 'host'],
];

/** The value of `field` of a core Event as upstream's field.Error prints it. */
function printed(field: string, value: unknown): string {
  switch (field) {
    case 'involvedObject':
    case 'related':
      return field === 'related' && !value ? 'null' : goStruct('core.ObjectReference', value, OBJECT_REFERENCE);
    case 'source':
      return goStruct('core.EventSource', value, EVENT_SOURCE);
    case 'firstTimestamp':
    case 'lastTimestamp':
    case 'eventTime':
      return typeof value === 'string' ? goTime(value) : '0001-01-01 00:00:00 +0000 UTC';
    case 'count':
      return String(value ?? 0);
    default:
      return formatValue(value ?? '');
  }
}

/** validateV1EventSeries. */
function validateSeries(obj: Event): FieldError[] {
  if (!obj.series) return [];
  const errs: FieldError[] = [];
  if ((obj.series.count ?? 0) < 2) errs.push(invalidValue('series.count', '', 'should be at least 2'));
  if (!obj.series.lastObservedTime) errs.push(required('series.lastObservedTime'));
  return errs;
}

/** ValidateEventCreate's rules for events.k8s.io/v1 (after the legacy ones). */
export function validateEventsV1Create(obj: Event): FieldError[] {
  const errs = validateSeries(obj);
  if (!obj.eventTime) errs.push(required('eventTime'));
  if (obj.type !== 'Normal' && obj.type !== 'Warning')
    errs.push(invalidValue('type', '', `has invalid value: ${obj.type ?? ''}`));
  for (const f of ['firstTimestamp', 'lastTimestamp'] as const)
    if (set(obj[f])) errs.push(invalidValue(f, '', 'needs to be unset'));
  if (obj.count) errs.push(invalidValue('count', '', 'needs to be unset'));
  if (obj.source?.component || obj.source?.host) errs.push(invalidValue('source', '', 'needs to be unset'));
  return errs;
}

/** The fields an events.k8s.io/v1 update may not change, in upstream's order (reason twice, as there). */
const IMMUTABLE = [
  'involvedObject',
  'reason',
  'message',
  'source',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'reason',
  'type',
  'eventTime',
  'action',
  'related',
  'reportingComponent',
  'reportingInstance',
] as const;

/** The core field of each immutable one, as upstream names its path (reportingController for reportingComponent). */
const PATH: Partial<Record<(typeof IMMUTABLE)[number], string>> = { reportingComponent: 'reportingController' };

/** Empty values compare as Go's zero values do. */
const normal = (v: unknown): unknown => (v === undefined || v === null || v === '' || v === 0 ? null : v);

/** ValidateEventUpdate's rules for events.k8s.io/v1 (after the legacy ones). */
export function validateEventsV1Update(obj: Event, old: Event): FieldError[] {
  const errs = isDeepStrictEqual(obj.series ?? null, old.series ?? null) ? [] : validateSeries(obj);
  for (const f of IMMUTABLE) {
    const a = normal(obj[f]);
    const b = normal(old[f]);
    const same =
      f === 'source' || f === 'involvedObject' || f === 'related'
        ? isDeepStrictEqual(stripEmpty(a), stripEmpty(b))
        : isDeepStrictEqual(a, b);
    if (!same)
      errs.push({
        ...invalidValue(PATH[f] ?? f, '', 'field is immutable'),
        message: `Invalid value: ${printed(f, obj[f])}: field is immutable`,
      });
  }
  return errs;
}

/** A struct value without its empty fields (Go compares zero fields equal to absent ones). */
function stripEmpty(v: unknown): unknown {
  if (!v || typeof v !== 'object') return null;
  const out = Object.fromEntries(Object.entries(v).filter(([, x]) => normal(x) !== null));
  return Object.keys(out).length ? out : null;
}
