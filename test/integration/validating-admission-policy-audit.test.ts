/**
 * ValidatingAdmissionPolicy in the audit log: a policy's auditAnnotations reach the request's
 * event as `<policy>/<key>` (empty and null values left out), and a binding with the Audit
 * action records a failed validation as `validation.policy.admission.k8s.io/validation_failure`
 * (upstream's JSON: message, policy, binding, expressionIndex, validationActions) while the
 * request is admitted.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/in-process.js';
import {
  BINDINGS,
  POLICIES,
  binding,
  configMap,
  configMapRule,
  configMaps,
  create,
  eventually,
  namespace,
  policy,
} from './validating-admission-policy-fixtures.js';

let dir: string;
let srv: TestServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-vap-audit-'));
  await writeFile(join(dir, 'policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n');
  srv = await startTestServer({ auditLogPath: join(dir, 'audit.log'), auditPolicyFile: join(dir, 'policy.yaml') });
});
afterAll(async () => {
  await srv?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The annotations of the ResponseComplete event of the request `auditId`. */
async function annotationsOf(auditId: string): Promise<Record<string, string> | undefined> {
  for (let i = 0; i < 40; i++) {
    await srv.running.deps.audit!.flush();
    const lines = (await readFile(join(dir, 'audit.log'), 'utf8')).split('\n').filter(Boolean);
    const event = lines.map((l) => JSON.parse(l)).find((e) => e.auditID === auditId && e.stage === 'ResponseComplete');
    if (event) return event.annotations ?? {};
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

it('records auditAnnotations and the Audit action of a failed validation', async () => {
  await namespace(srv, 'vap-audit', { vap: 'vap-audit' });
  await create(
    srv,
    POLICIES,
    policy('vap-audit', {
      matchConstraints: { resourceRules: [configMapRule()], namespaceSelector: { matchLabels: { vap: 'vap-audit' } } },
      validations: [{ expression: 'true' }, { expression: "object.data.k == 'ok'", message: 'k is not ok' }],
      auditAnnotations: [
        { key: 'name', valueExpression: "'object name: ' + object.metadata.name" },
        { key: 'empty', valueExpression: "''" },
        { key: 'none', valueExpression: 'null' },
      ],
    }),
  );
  await create(srv, BINDINGS, binding('vap-audit-binding', 'vap-audit', { validationActions: ['Audit', 'Warn'] }));
  let i = 0;
  const res = await eventually(
    () => srv.api('POST', configMaps('vap-audit'), configMap(`cm-${i++}`, { k: 'no' })),
    (r) => r.headers.warning !== undefined,
  );
  expect(res.status).toBe(201);
  const annotations = await annotationsOf(String(res.headers['audit-id']));
  expect(annotations).toMatchObject({
    'vap-audit/name': `object name: cm-${i - 1}`,
    'validation.policy.admission.k8s.io/validation_failure': JSON.stringify([
      {
        message: 'k is not ok',
        policy: 'vap-audit',
        binding: 'vap-audit-binding',
        expressionIndex: 1,
        validationActions: ['Audit', 'Warn'],
      },
    ]),
  });
  expect(Object.keys(annotations!).filter((k) => k.startsWith('vap-audit/'))).toEqual(['vap-audit/name']);
});
