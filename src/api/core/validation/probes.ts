/**
 * Probes and lifecycle handlers as upstream 1.10 validates them (pkg/apis/core/validation/
 * validation.go validateProbe, validateHandler, validateLifecycle, validateExecAction,
 * validateHTTPGetAction, validateTCPSocketAction, ValidatePortNumOrName).
 */
import type { FieldError } from '../../validation/field-errors.js';
import { forbidden, invalidValue, notSupported, required } from '../../validation/field-errors.js';
import {
  fieldsOf,
  invalidEach,
  isHttpHeaderName,
  isSet,
  isValidPortName,
  isValidPortNum,
  items,
  nonNegative,
  str,
  type Fields,
} from './strings.js';

/** Upstream ValidatePortNumOrName: a port number 1-65535 or an IANA service name. */
export function portNumOrName(port: unknown, field: string): FieldError[] {
  if (typeof port === 'number') return invalidEach(field, port, isValidPortNum(port));
  if (typeof port === 'string') return invalidEach(field, port, isValidPortName(port));
  return invalidEach(field, 0, isValidPortNum(0));
}

const HANDLERS = ['exec', 'httpGet', 'tcpSocket'] as const;

/** validateHTTPGetAction. */
function httpGet(h: Fields, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(h.path)) errs.push(required(`${field}.path`));
  errs.push(...portNumOrName(h.port, `${field}.port`));
  const schemes = ['HTTP', 'HTTPS'];
  if (!schemes.includes(str(h.scheme))) errs.push(notSupported(`${field}.scheme`, str(h.scheme), schemes));
  for (const header of items(h.httpHeaders))
    errs.push(...invalidEach(`${field}.httpHeaders`, str(header.name), isHttpHeaderName(str(header.name))));
  return errs;
}

/** Upstream validateHandler: exactly one of exec, httpGet, tcpSocket. */
export function validateHandler(handler: Fields, field: string): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  for (const kind of HANDLERS) {
    if (!isSet(handler[kind])) continue;
    const h = fieldsOf(handler[kind]);
    if (n++ > 0) {
      errs.push(forbidden(`${field}.${kind}`, 'may not specify more than 1 handler type'));
      continue;
    }
    if (kind === 'exec' && !(Array.isArray(h.command) && h.command.length))
      errs.push(required(`${field}.exec.command`));
    if (kind === 'httpGet') errs.push(...httpGet(h, `${field}.httpGet`));
    if (kind === 'tcpSocket') errs.push(...portNumOrName(h.port, `${field}.tcpSocket.port`));
  }
  if (n === 0) errs.push(required(field, 'must specify a handler type'));
  return errs;
}

/** Upstream validateLifecycle. */
export function validateLifecycle(lifecycle: Fields, field: string): FieldError[] {
  return (['postStart', 'preStop'] as const).flatMap((k) =>
    isSet(lifecycle[k]) ? validateHandler(fieldsOf(lifecycle[k]), `${field}.${k}`) : [],
  );
}

/** Upstream validateProbe: one handler; counts and seconds non-negative. */
export function validateProbe(probe: unknown, field: string): FieldError[] {
  if (!probe || typeof probe !== 'object') return [];
  const p = fieldsOf(probe);
  return [
    ...validateHandler(p, field),
    ...(
      ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const
    ).flatMap((k) => nonNegative(p[k], `${field}.${k}`)),
  ];
}

/** The liveness-only rule of validateContainers: successThreshold must be 1. */
export function livenessSuccessThreshold(probe: unknown, field: string): FieldError[] {
  if (!probe || typeof probe !== 'object') return [];
  // 0 is defaulted to 1 upstream (SetDefaults_Probe).
  const t = fieldsOf(probe).successThreshold || 1;
  return t !== 1 ? [invalidValue(`${field}.successThreshold`, t, 'must be 1')] : [];
}
