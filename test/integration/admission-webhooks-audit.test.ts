/**
 * A webhook's auditAnnotations reach the request's audit event as `<webhook name>/<key>`, and a
 * mutating webhook's call is recorded (`mutation.webhook.admission.k8s.io/round_0_index_0`), as
 * upstream's dispatchers annotate them.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/in-process.js';
import { jsonPatch, startWebhookServer, type WebhookServer } from '../helpers/webhook-server.js';
import { configuration, eventually, MUTATING } from './admission-webhooks-fixtures.js';

let dir: string;
let srv: TestServer;
let hook: WebhookServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-webhook-audit-'));
  await writeFile(join(dir, 'policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n');
  srv = await startTestServer({ auditLogPath: join(dir, 'audit.log'), auditPolicyFile: join(dir, 'policy.yaml') });
  hook = await startWebhookServer();
});
afterAll(async () => {
  await hook?.close();
  await srv?.stop();
  await rm(dir, { recursive: true, force: true });
});

it("records the webhook's audit annotations and its mutation on the request's event", async () => {
  hook.on('/annotate', () => ({
    allowed: true,
    auditAnnotations: { decision: 'labelled' },
    ...jsonPatch([{ op: 'add', path: '/metadata/labels', value: { seen: 'yes' } }]),
  }));
  await srv.api(
    'POST',
    MUTATING,
    configuration('MutatingWebhookConfiguration', 'annotate', [
      { name: 'annotate.k8s.io', url: hook.url('/annotate'), caBundle: hook.caBundle },
    ]),
  );
  const res = await eventually(
    () =>
      srv.api('POST', '/api/v1/namespaces/default/configmaps', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `a-${Date.now()}` },
      }),
    (r) => r.body?.metadata?.labels?.seen === 'yes',
  );
  expect(res.status).toBe(201);
  const auditId = res.headers['audit-id'];
  let event: any;
  for (let i = 0; i < 40 && !event; i++) {
    await srv.running.deps.audit!.flush();
    const lines = (await readFile(join(dir, 'audit.log'), 'utf8')).split('\n').filter(Boolean);
    event = lines.map((l) => JSON.parse(l)).find((e) => e.auditID === auditId && e.stage === 'ResponseComplete');
    if (!event) await new Promise((r) => setTimeout(r, 50));
  }
  expect(event.annotations).toMatchObject({
    'annotate.k8s.io/decision': 'labelled',
    'mutation.webhook.admission.k8s.io/round_0_index_0': JSON.stringify({
      configuration: 'annotate',
      webhook: 'annotate.k8s.io',
      mutated: true,
    }),
  });
});
