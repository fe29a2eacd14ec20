/**
 * events.k8s.io Event <-> core/v1 Event, the storage version (upstream
 * pkg/apis/events/v1/conversion.go and v1beta1's: regarding <-> involvedObject, note <->
 * message, deprecatedSource <-> source, deprecated{First,Last}Timestamp <->
 * {first,last}Timestamp, deprecatedCount <-> count; reportingController is core/v1's
 * reportingComponent). Lost on the way: core/v1's deprecated `series.state`, which
 * events.k8s.io has no field for. Both directions leave the fields they do not rename as they
 * are, so converting an object already in the target form changes nothing.
 */
import { isRecord } from '../../api/json.js';
import type { ApiObject } from '../../api/object.js';
import type { VersionConversion } from '../../registry/types.js';

/** [events.k8s.io name, core/v1 name] of each renamed top-level field. */
const RENAMES = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
  ['reportingController', 'reportingComponent'],
] as const;

function rename(obj: ApiObject, from: 0 | 1): ApiObject {
  const to = from === 0 ? 1 : 0;
  const out: ApiObject = { ...obj };
  for (const pair of RENAMES) {
    if (!(pair[from] in out)) continue;
    const value = out[pair[from]];
    delete out[pair[from]];
    out[pair[to]] = value;
  }
  return out;
}

/** A core/v1 Event (stored) as events.k8s.io serves it. */
export function eventToK8s(obj: ApiObject): ApiObject {
  const out = rename(obj, 1);
  const series = out.series;
  if (isRecord(series) && 'state' in series) {
    const { state: _state, ...rest } = series;
    out.series = rest;
  }
  return out;
}

/** An events.k8s.io Event as core/v1 stores it. */
export function eventFromK8s(obj: ApiObject): ApiObject {
  return rename(obj, 0);
}

/** The conversion of an events.k8s.io version (`apiVersion`) over the core/v1 storage. */
export function eventsConversion(apiVersion: string): VersionConversion {
  return {
    toStorage: (obj) => ({ ...eventFromK8s(obj), apiVersion: 'v1', kind: 'Event' }),
    fromStorage: (obj) => ({ ...eventToK8s(obj), apiVersion, kind: 'Event' }),
  };
}
