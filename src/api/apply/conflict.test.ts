import { describe, expect, it } from 'vitest';
import { conflictOf, conflictStatus } from './conflict.js';
import {
  managerFromUserAgent,
  managerOrUserAgent,
  validateFieldManager,
  validatePatchManagerOptions,
} from './manager-name.js';
import { keyElement, makePath } from './path.js';

describe('conflictStatus (managedfields/internal/conflict_test.go TestNewConflictError)', () => {
  const updater = '{"manager":"foo","operation":"Update","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}';
  it('one conflict', () => {
    expect(conflictStatus([conflictOf(updater, makePath('spec', 'replicas'))])).toEqual({
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "foo" using v1 at 2001-02-03T04:05:06Z: .spec.replicas',
      causes: [
        {
          reason: 'FieldManagerConflict',
          message: 'conflict with "foo" using v1 at 2001-02-03T04:05:06Z',
          field: '.spec.replicas',
        },
      ],
    });
  });

  it('two managers, listed by sorted identifier; causes in conflict order', () => {
    const s = conflictStatus([
      conflictOf(updater, makePath('spec', 'replicas')),
      conflictOf('{"manager":"bar","operation":"Apply"}', makePath('metadata', 'labels', 'app')),
    ]);
    expect(s.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "bar":\n- .metadata.labels.app\nconflicts with "foo" using v1 at 2001-02-03T04:05:06Z:\n- .spec.replicas',
    );
    expect(s.causes.map((c) => [c.message, c.field])).toEqual([
      ['conflict with "foo" using v1 at 2001-02-03T04:05:06Z', '.spec.replicas'],
      ['conflict with "bar"', '.metadata.labels.app'],
    ]);
  });

  it('a subresource manager', () => {
    const id =
      '{"manager":"foo","operation":"Update","subresource":"scale","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}';
    expect(conflictStatus([conflictOf(id, makePath('spec', 'replicas'))]).message).toBe(
      'Apply failed with 1 conflict: conflict with "foo" with subresource "scale" using v1 at 2001-02-03T04:05:06Z: .spec.replicas',
    );
  });

  it('the forms our own identifiers take (no time): several fields of one manager', () => {
    const helm = '{"manager":"helm","operation":"Update","apiVersion":"v1"}';
    expect(conflictStatus([conflictOf(helm, makePath('data', 'k'))]).message).toBe(
      'Apply failed with 1 conflict: conflict with "helm" using v1: .data.k',
    );
    const x = '{"manager":"x","operation":"Update","apiVersion":"v1"}';
    const c = [conflictOf(x, makePath('a')), conflictOf(x, makePath('b'))];
    expect(conflictStatus(c).message).toBe('Apply failed with 2 conflicts: conflicts with "x" using v1:\n- .a\n- .b');
    const k = conflictOf(
      '{"manager":"kubectl","operation":"Apply"}',
      makePath('spec', 'containers', keyElement({ name: 'c' }), 'image'),
    );
    expect(k).toMatchObject({ manager: 'kubectl', operation: 'Apply', field: '.spec.containers[name="c"].image' });
    expect(k.apiVersion).toBeUndefined();
  });
});

describe('field manager names (handlers/create.go prefixFromUserAgent, meta/v1 validation)', () => {
  it.each([
    ['kubectl/v1.29.0 (linux/amd64) kubernetes/abc', 'kubectl'],
    ['kubectl-client-side-apply/v1.29.0 (linux/amd64) kubernetes/abc', 'kubectl-client-side-apply'],
    ['kube-controller-manager/v1.10.0', 'kube-controller-manager'],
    ['Go-http-client/1.1', 'Go-http-client'],
    ['tab\there', 'tabhere'],
    ['', ''],
    ['a'.repeat(200), 'a'.repeat(128)],
    ['é'.repeat(100), 'é'.repeat(64)],
  ])('%j -> %j', (ua, want) => {
    expect(managerFromUserAgent(ua)).toBe(want);
  });

  it('prefers the fieldManager parameter', () => {
    expect(managerOrUserAgent('helm', 'kubectl/v1')).toBe('helm');
    expect(managerOrUserAgent(undefined, 'kubectl/v1')).toBe('kubectl');
    expect(managerOrUserAgent('', undefined)).toBe('');
  });

  it('validates length in bytes and printable characters', () => {
    expect(validateFieldManager('helm')).toEqual([]);
    expect(validateFieldManager('a'.repeat(129))).toEqual([
      { reason: 'FieldValueTooLong', field: 'fieldManager', message: 'Too long: may not be more than 128 bytes' },
    ]);
    expect(validateFieldManager('x\u0000y\u00a0')).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'fieldManager',
        message: 'Invalid value: "x\\x00y\\u00a0": invalid character U+0000 (at position 1)',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'fieldManager',
        message: 'Invalid value: "x\\x00y\\u00a0": invalid character U+00A0 (at position 3)',
      },
    ]);
  });

  it('apply needs a manager; force is only for apply (ValidatePatchOptions)', () => {
    expect(validatePatchManagerOptions(true, undefined, undefined)).toEqual([
      { reason: 'FieldValueRequired', field: 'fieldManager', message: 'Required value: is required for apply patch' },
    ]);
    expect(validatePatchManagerOptions(false, undefined, true)).toEqual([
      { reason: 'FieldValueForbidden', field: 'force', message: 'Forbidden: may not be specified for non-apply patch' },
    ]);
    expect(validatePatchManagerOptions(true, 'kubectl', true)).toEqual([]);
  });
});
