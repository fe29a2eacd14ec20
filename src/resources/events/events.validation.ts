/**
 * Event rules of upstream 1.10 pkg/apis/core/validation/events.go (ValidateEvent), used on
 * create and on update alike (the event strategy's ValidateUpdate runs ValidateEvent too).
 */
import { validateDns1123Subdomain, validateQualifiedName } from '../../api/names.js';
import { invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
import type { Event } from './events.schema.js';

const REPORTING_INSTANCE_LIMIT = 128;
const ACTION_LIMIT = 128;
const REASON_LIMIT = 128;
const NOTE_LIMIT = 1024;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** Go's len of a string: its UTF-8 bytes. */
const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * Upstream ValidateEvent: an event without eventTime (the old style) must name its involved
 * object's namespace (empty only in `default` or a cluster-scoped event); one with eventTime
 * (the new style) needs reportingController (v1 `reportingComponent`), reportingInstance,
 * action and reason within their lengths. The namespace is a DNS-1123 subdomain.
 */
export function validateEvent(obj: Event): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = obj.metadata.namespace ?? '';
  const involvedNamespace = str(obj.involvedObject?.namespace);
  const mismatch = () => invalidValue('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (!obj.eventTime) {
    if (!involvedNamespace) {
      if (namespace !== '' && namespace !== 'default') errs.push(mismatch());
    } else if (namespace !== involvedNamespace) errs.push(mismatch());
  } else {
    if (!involvedNamespace && namespace !== 'kube-system') errs.push(mismatch());
    const controller = str(obj.reportingComponent);
    if (!controller) errs.push(required('reportingController'));
    errs.push(...validateQualifiedName(controller).map((m) => invalidValue('reportingController', controller, m)));
    const instance = str(obj.reportingInstance);
    if (!instance) errs.push(required('reportingInstance'));
    // Upstream reports this one at the misspelt path `repotingIntance`.
    if (bytes(instance) > REPORTING_INSTANCE_LIMIT)
      errs.push(invalidValue('repotingIntance', '', `can have at most ${REPORTING_INSTANCE_LIMIT} characters`));
    const action = str(obj.action);
    if (!action) errs.push(required('action'));
    if (bytes(action) > ACTION_LIMIT)
      errs.push(invalidValue('action', '', `can have at most ${ACTION_LIMIT} characters`));
    const reason = str(obj.reason);
    if (!reason) errs.push(required('reason'));
    if (bytes(reason) > REASON_LIMIT)
      errs.push(invalidValue('reason', '', `can have at most ${REASON_LIMIT} characters`));
    if (bytes(str(obj.message)) > NOTE_LIMIT)
      errs.push(invalidValue('message', '', `can have at most ${NOTE_LIMIT} characters`));
  }
  errs.push(...validateDns1123Subdomain(namespace).map((m) => invalidValue('namespace', namespace, m)));
  return errs;
}
