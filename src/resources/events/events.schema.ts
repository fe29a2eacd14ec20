/** Event fields. */
import { kindSchema } from '../../api/meta-schema.js';
import { int, obj, objectReference, str, time } from '../../api/core/schema-kit.js';

export const eventSchema = kindSchema({
  action: str,
  count: int,
  eventTime: time,
  firstTimestamp: time,
  involvedObject: obj(objectReference),
  lastTimestamp: time,
  message: str,
  reason: str,
  related: obj(objectReference),
  reportingComponent: str,
  reportingInstance: str,
  series: obj({ count: int, lastObservedTime: time, state: str }),
  source: obj({ component: str, host: str }),
  type: str,
});
