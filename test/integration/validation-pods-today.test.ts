/**
 * Pod rules and defaults upstream added after 1.10, up to 1.33 (docs/validation/pods.md, rows
 * P33-*): ephemeral containers only through their subresource, none in templates, no node
 * before the scheduling gates are gone, SCTP ports, CSI and ephemeral volumes, and
 * enableServiceLinks defaulted on pods (not on templates).
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const ns = '/api/v1/namespaces/default';

let n = 0;
const spec = (extra: Record<string, unknown> = {}) => ({ containers: [{ name: 'c', image: 'nginx' }], ...extra });
const pod = (extra: Record<string, unknown> = {}) => ({ metadata: { name: `p33-${n++}` }, spec: spec(extra) });
const causes = (res: { body: any }) => res.body.details?.causes?.map((c: any) => `${c.field}: ${c.message}`);

describe('pod rules since 1.10', () => {
  it.each([
    [
      'P33-1 ephemeral containers cannot be set on create',
      'pods',
      pod({ ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }),
      ['spec.ephemeralContainers: Forbidden: cannot be set on create'],
    ],
    [
      'P33-2 no ephemeral containers in a pod template',
      'podtemplates',
      {
        metadata: { name: `t33-${n++}` },
        template: { spec: spec({ ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }) },
      },
      ['template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template'],
    ],
    [
      'P33-3 no node before the scheduling gates are cleared',
      'pods',
      pod({ nodeName: 'node-1', schedulingGates: [{ name: 'example.com/gate' }] }),
      ['spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared'],
    ],
    [
      'P33-4 a CSI volume names its driver as a DNS subdomain',
      'pods',
      pod({ volumes: [{ name: 'v', csi: { driver: 'Bad_Driver' } }] }),
      [
        `spec.volumes[0].csi.driver: Invalid value: "Bad_Driver": a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
    [
      'P33-5 an ephemeral volume has a claim template',
      'pods',
      pod({ volumes: [{ name: 'v', ephemeral: {} }] }),
      ['spec.volumes[0].ephemeral.volumeClaimTemplate: Required value'],
    ],
    [
      'P33-6 image volumes are gated off (no volume type left)',
      'pods',
      pod({ volumes: [{ name: 'v', image: { reference: 'example.com/data:1' } }] }),
      ['spec.volumes[0]: Required value: must specify a volume type'],
    ],
  ])('%s', async (_rule, plural, body, expected) => {
    const res = await srv.api('POST', `${ns}/${plural}`, body);
    expect(res.status, res.text).toBe(422);
    expect(causes(res)).toEqual(expected);
  });
});

describe('pod defaults since 1.10', () => {
  it('defaults enableServiceLinks to true on a pod, not on a template', async () => {
    const created = await srv.api('POST', `${ns}/pods`, pod());
    expect(created.status, created.text).toBe(201);
    expect(created.body.spec.enableServiceLinks).toBe(true);
    const tpl = await srv.api('POST', `${ns}/podtemplates`, {
      metadata: { name: `t33-${n++}` },
      template: { spec: spec() },
    });
    expect(tpl.status, tpl.text).toBe(201);
    expect(tpl.body.template.spec.enableServiceLinks).toBeUndefined();
  });

  it('accepts SCTP container ports and a CSI volume', async () => {
    const res = await srv.api(
      'POST',
      `${ns}/pods`,
      pod({
        containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 9000, protocol: 'SCTP' }] }],
        volumes: [{ name: 'v', csi: { driver: 'csi.example.com' } }],
      }),
    );
    expect(res.status, res.text).toBe(201);
  });
});
