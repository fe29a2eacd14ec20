import { describe, expect, it } from 'vitest';
import { reviewVersionFor, verifyAdmissionResponse } from './review.js';
import { toStatusError } from './errors.js';
import { describeHttpStatus } from './call-errors.js';

// Cases from upstream request/admissionreview_test.go TestVerifyAdmissionResponse.
const v1 = (response: unknown) => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response });
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('verifyAdmissionResponse', () => {
  it('accepts a v1 answer with the request uid', () => {
    const res = verifyAdmissionResponse(
      'v1',
      'u1',
      true,
      v1({ uid: 'u1', allowed: true, patch: b64('[]'), patchType: 'JSONPatch', warnings: ['w'] }),
    );
    expect(res).toMatchObject({ allowed: true, patch: '[]', patchType: 'JSONPatch', warnings: ['w'] });
  });

  it.each([
    [
      'no response',
      { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' },
      true,
      'webhook response was absent',
    ],
    ['another uid', v1({ uid: 'u2', allowed: true }), true, 'expected response.uid="u1", got "u2"'],
    [
      'another version',
      { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: 'u1' } },
      true,
      'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview',
    ],
    [
      'patch without type',
      v1({ uid: 'u1', patch: b64('[]') }),
      true,
      'webhook returned response.patch but not response.patchType',
    ],
    [
      'type without patch',
      v1({ uid: 'u1', patchType: 'JSONPatch' }),
      true,
      'webhook returned response.patchType but not response.patch',
    ],
    [
      'empty type',
      v1({ uid: 'u1', patch: b64('[]'), patchType: '' }),
      true,
      'webhook returned invalid response.patchType of ""',
    ],
    [
      'validating with patch',
      v1({ uid: 'u1', patch: b64('[]') }),
      false,
      'validating webhook may not return response.patch',
    ],
    [
      'validating with type',
      v1({ uid: 'u1', patchType: 'JSONPatch' }),
      false,
      'validating webhook may not return response.patchType',
    ],
  ])('refuses %s', (_name, review, mutating, message) => {
    expect(() => verifyAdmissionResponse('v1', 'u1', mutating, review)).toThrow(message);
  });

  it('v1beta1: no uid check, a patch is a JSON patch', () => {
    const res = verifyAdmissionResponse('v1beta1', 'u1', true, {
      response: { uid: 'x', allowed: true, patch: b64('[]') },
    });
    expect(res).toMatchObject({ allowed: true, patch: '[]', patchType: 'JSONPatch' });
  });

  it('picks the first AdmissionReview version it knows', () => {
    const hook = (versions: string[]) => ({ name: 'h', clientConfig: {}, admissionReviewVersions: versions });
    expect(reviewVersionFor(hook(['v2', 'v1beta1', 'v1']))).toBe('v1beta1');
    expect(reviewVersionFor(hook(['v2']))).toBeNull();
  });
});

describe('toStatusError (upstream statuserror_test.go)', () => {
  it.each([
    [{ code: 403, message: 'no' }, 403, 'admission webhook "h" denied the request: no'],
    [{ code: 200, reason: 'Because' }, 400, 'admission webhook "h" denied the request: Because'],
    [undefined, 400, 'admission webhook "h" denied the request without explanation'],
  ])('%j', (status, code, message) => {
    const err = toStatusError('h', status);
    expect(err.code).toBe(code);
    expect(err.message).toBe(message);
  });

  it("keeps a reason of the webhook's own in the Status", () => {
    const s = toStatusError('h', { code: 409, reason: 'Custom', message: 'm' }).toStatus();
    expect(Object.keys(s)).toEqual(['kind', 'apiVersion', 'metadata', 'status', 'message', 'reason', 'code']);
    expect(s).toMatchObject({ reason: 'Custom', code: 409 });
  });
});

describe('describeHttpStatus', () => {
  it('words answers as client-go does', () => {
    expect(describeHttpStatus(500, 'text/plain', 'boom\n')).toBe(
      'an error on the server ("boom") has prevented the request from succeeding',
    );
    expect(describeHttpStatus(500, 'application/json', '{}')).toBe(
      'an error on the server ("unknown") has prevented the request from succeeding',
    );
    expect(describeHttpStatus(404, '', '')).toBe('the server could not find the requested resource');
    expect(describeHttpStatus(418, '', '')).toBe(
      'the server responded with the status code 418 but did not return more information',
    );
    expect(describeHttpStatus(500, 'application/json', '{"kind":"Status","message":"inner"}')).toBe('inner');
  });
});
