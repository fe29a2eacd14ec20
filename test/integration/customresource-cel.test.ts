/**
 * `x-kubernetes-validations` (CEL) through the API, as upstream 1.33: a definition whose rule
 * does not compile is refused with the compiler's message; objects breaking a rule are refused
 * with the rule's message (or `failed rule: <rule>`), `messageExpression`, `reason` and
 * `fieldPath`; a transition rule (`oldSelf`) applies to updates only.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { crd, establish } from '../helpers/crds.js';

const srv = useTestServer();
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const PATH = '/apis/cel.example.com/v1/namespaces/default/scalers';

const schema = (rules: Record<string, unknown>[]) => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': rules,
      properties: {
        minReplicas: { type: 'integer' },
        replicas: { type: 'integer' },
        mode: { type: 'string', maxLength: 16 },
      },
    },
  },
});

const scaler = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'cel.example.com/v1',
  kind: 'Scaler',
  metadata: { name },
  spec,
});

describe('CEL validation rules', () => {
  it('refuses a definition whose rule does not compile, naming the rule', async () => {
    const bad = crd({
      group: 'cel.example.com',
      plural: 'brokens',
      kind: 'Broken',
      schema: schema([{ rule: 'self.nope > 1' }]),
    });
    const res = await srv.api('POST', CRDS, bad);
    expect(res.status).toBe(422);
    expect(res.body.message).toContain("compilation failed: ERROR: <input>:1:5: undefined field 'nope'");
    expect(res.body.details.causes[0].field).toBe(
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule',
    );
  });

  it('refuses objects breaking a rule with its message, messageExpression, reason and fieldPath', async () => {
    await establish(
      srv,
      crd({
        group: 'cel.example.com',
        plural: 'scalers',
        kind: 'Scaler',
        schema: schema([
          { rule: 'self.minReplicas <= self.replicas', message: 'replicas must be at least minReplicas' },
          { rule: "self.mode != 'off'", messageExpression: "'mode ' + self.mode + ' is not allowed'" },
          { rule: 'self.replicas < 100', reason: 'FieldValueForbidden', fieldPath: '.replicas' },
          { rule: 'self.mode == oldSelf.mode', message: 'mode is immutable' },
        ]),
      }),
    );
    expect((await srv.api('POST', PATH, scaler('ok', { minReplicas: 1, replicas: 2, mode: 'on' }))).status).toBe(201);

    const low = await srv.api('POST', PATH, scaler('low', { minReplicas: 3, replicas: 2, mode: 'on' }));
    expect(low.status).toBe(422);
    expect(low.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec',
        message: 'Invalid value: "object": replicas must be at least minReplicas',
      },
    ]);
    const off = await srv.api('POST', PATH, scaler('off', { minReplicas: 1, replicas: 2, mode: 'off' }));
    expect(off.body.details.causes[0].message).toBe('Invalid value: "object": mode off is not allowed');
    const many = await srv.api('POST', PATH, scaler('many', { minReplicas: 1, replicas: 200, mode: 'on' }));
    expect(many.body.details.causes).toEqual([
      expect.objectContaining({ reason: 'FieldValueForbidden', field: 'spec.replicas' }),
    ]);
    expect(many.body.details.causes[0].message).toContain('failed rule: self.replicas < 100');

    // The transition rule applies to updates only: the create above passed it.
    const changed = await srv.api(
      'PATCH',
      `${PATH}/ok`,
      { spec: { mode: 'auto' } },
      {
        'content-type': 'application/merge-patch+json',
      },
    );
    expect(changed.status).toBe(422);
    expect(changed.body.details.causes[0].message).toBe('Invalid value: "object": mode is immutable');
    const kept = await srv.api(
      'PATCH',
      `${PATH}/ok`,
      { spec: { replicas: 5 } },
      {
        'content-type': 'application/merge-patch+json',
      },
    );
    expect(kept.status).toBe(200);
  });
});
