/**
 * Probes and lifecycle handlers as upstream validates them (pkg/apis/core/validation/
 * validation.go validateProbe, validateHandler, validateLifecycle, validateExecAction,
 * validateHTTPGetAction, validateTCPSocketAction, ValidatePortNumOrName), with 1.33's grpc
 * handler, probe terminationGracePeriodSeconds and the liveness/readiness/startup specifics.
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

// Upstream's order; the schema allows grpc only in probes and sleep only in lifecycle handlers.
const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc', 'sleep'] as const;

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

/** Upstream validateHandler: exactly one of exec, httpGet, tcpSocket, grpc (probes), sleep (lifecycle). */
export function validateHandler(handler: Fields, field: string, gracePeriod?: number): FieldError[] {
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
    // validateGRPCAction: an int32 port, checked as a port number.
    // validateSleepAction (PodLifecycleSleepActionAllowZero is on in 1.33): 0 up to the pod's grace period.
    if (kind === 'sleep' && gracePeriod !== undefined) {
      const seconds = typeof h.seconds === 'number' ? h.seconds : 0;
      if (seconds < 0 || seconds > gracePeriod)
        errs.push(
          invalidValue(
            `${field}.sleep`,
            seconds,
            `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`,
          ),
        );
    }
    if (kind === 'grpc') errs.push(...portNumOrName(typeof h.port === 'number' ? h.port : 0, `${field}.grpc.port`));
  }
  if (n === 0) errs.push(required(field, 'must specify a handler type'));
  return errs;
}

/** Upstream validateLifecycle (`gracePeriod`: the pod's terminationGracePeriodSeconds, for sleep actions). */
export function validateLifecycle(lifecycle: Fields, field: string, gracePeriod?: number): FieldError[] {
  return (['postStart', 'preStop'] as const).flatMap((k) =>
    isSet(lifecycle[k]) ? validateHandler(fieldsOf(lifecycle[k]), `${field}.${k}`, gracePeriod) : [],
  );
}

/** Upstream validateProbe: one handler; counts and seconds non-negative; a grace period above 0. */
export function validateProbe(probe: unknown, field: string): FieldError[] {
  if (!probe || typeof probe !== 'object') return [];
  const p = fieldsOf(probe);
  const errs = [
    ...validateHandler(p, field),
    ...(
      ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const
    ).flatMap((k) => nonNegative(p[k], `${field}.${k}`)),
  ];
  const grace = p.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace <= 0)
    errs.push(invalidValue(`${field}.terminationGracePeriodSeconds`, grace, 'must be greater than 0'));
  return errs;
}

/** validateReadinessProbe's own rule: no terminationGracePeriodSeconds. */
export function readinessGracePeriod(probe: unknown, field: string): FieldError[] {
  const grace = fieldsOf(probe).terminationGracePeriodSeconds;
  return isSet(grace)
    ? [invalidValue(`${field}.terminationGracePeriodSeconds`, grace, 'must not be set for readinessProbes')]
    : [];
}

/** The rule of validateLivenessProbe and validateStartupProbe: successThreshold must be 1. */
export function livenessSuccessThreshold(probe: unknown, field: string): FieldError[] {
  if (!probe || typeof probe !== 'object') return [];
  // 0 is defaulted to 1 upstream (SetDefaults_Probe).
  const t = fieldsOf(probe).successThreshold || 1;
  return t !== 1 ? [invalidValue(`${field}.successThreshold`, t, 'must be 1')] : [];
}
