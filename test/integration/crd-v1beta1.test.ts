/**
 * apiextensions.k8s.io/v1beta1 CustomResourceDefinitions as old charts ship them
 * (test/fixtures/crd-v1beta1: a prometheus-operator 0.3x style ServiceMonitor, non-structural
 * and keeping unknown fields by v1beta1's default, and a cert-manager 0.11 style Certificate
 * with top-level printer columns and pruning), installed with kubectl 1.33, read back in both
 * versions, Established, their custom objects served (unpruned where the definition keeps
 * unknown fields), and `kubectl get` on definitions and objects.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { useTestServer, writeKubeconfig } from '../helpers/in-process.js';

const srv = useTestServer();
const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const FIXTURES = join(import.meta.dirname, '../fixtures/crd-v1beta1');
const V1 = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const V1BETA1 = '/apis/apiextensions.k8s.io/v1beta1/customresourcedefinitions';
const MONITORS = '/apis/monitoring.coreos.com/v1/namespaces/default/servicemonitors';
const CERTS = '/apis/cert-manager.io/v1alpha2/namespaces/default/certificates';

let config: string;
const kubectl = async (...args: string[]) => {
  const res = await run(KUBECTL, [`--kubeconfig=${config}`, ...args]);
  expect(res.code, `kubectl ${args.join(' ')}: ${res.stderr}`).toBe(0);
  return res.stdout;
};

/** Wait (up to 5 s) until definition `name` is Established and `path` lists its objects. */
async function established(name: string, path: string): Promise<any> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const got = await srv.api('GET', `${V1}/${name}`);
    const ok = (got.body.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True');
    if (ok && (await srv.api('GET', path)).status === 200) return got.body;
    if (Date.now() > deadline) throw new Error(`${name} not served: ${got.text}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  config = await writeKubeconfig(srv, 'v1beta1');
  expect(await kubectl('apply', '-f', join(FIXTURES, 'servicemonitors.yaml'))).toBe(
    'customresourcedefinition.apiextensions.k8s.io/servicemonitors.monitoring.coreos.com created\n',
  );
  expect(await kubectl('create', '-f', join(FIXTURES, 'certificates.yaml'))).toBe(
    'customresourcedefinition.apiextensions.k8s.io/certificates.cert-manager.io created\n',
  );
});

describe('v1beta1 CustomResourceDefinitions of old charts', () => {
  it('are stored as v1 and read back in both versions, and established', async () => {
    const monitors = await established('servicemonitors.monitoring.coreos.com', MONITORS);
    expect(monitors.apiVersion).toBe('apiextensions.k8s.io/v1');
    expect(monitors.spec).toMatchObject({ preserveUnknownFields: true, scope: 'Namespaced' });
    expect(monitors.spec.versions).toEqual([
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: expect.objectContaining({ required: ['spec'] }) },
      },
    ]);
    expect(monitors.status.acceptedNames).toMatchObject({ kind: 'ServiceMonitor', listKind: 'ServiceMonitorList' });
    const beta = (await srv.api('GET', `${V1BETA1}/servicemonitors.monitoring.coreos.com`)).body;
    expect(beta.apiVersion).toBe('apiextensions.k8s.io/v1beta1');
    expect(beta.spec).toMatchObject({
      version: 'v1',
      versions: [{ name: 'v1', served: true, storage: true }],
      preserveUnknownFields: true,
      conversion: { strategy: 'None' },
    });
    expect(beta.spec.validation.openAPIV3Schema.required).toEqual(['spec']);
    expect(beta.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toContain(
      '"apiVersion":"apiextensions.k8s.io/v1beta1"',
    );

    const certs = await established('certificates.cert-manager.io', CERTS);
    expect(certs.spec).not.toHaveProperty('preserveUnknownFields');
    expect(certs.spec.versions[0].additionalPrinterColumns[0]).toEqual({
      name: 'Ready',
      type: 'string',
      jsonPath: '.status.conditions[?(@.type=="Ready")].status',
    });
    expect(certs.spec.versions[0].subresources).toEqual({ status: {} });
    const list = (await srv.api('GET', V1BETA1)).body;
    expect(list.kind).toBe('CustomResourceDefinitionList');
    const certsBeta = list.items.find((i: any) => i.metadata.name === 'certificates.cert-manager.io');
    expect(certsBeta.spec.additionalPrinterColumns.map((c: any) => c.JSONPath)).toEqual([
      '.status.conditions[?(@.type=="Ready")].status',
      '.spec.secretName',
      '.spec.issuerRef.name',
      '.metadata.creationTimestamp',
    ]);
    expect(certsBeta.spec.preserveUnknownFields).toBe(false);
  });

  it('marks a definition that keeps unknown fields NonStructuralSchema, and not one that is structural', async () => {
    const conditionOf = async (name: string) => {
      const deadline = Date.now() + 5000;
      for (;;) {
        const got = (await srv.api('GET', `${V1}/${name}`)).body;
        const found = (got.status?.conditions ?? []).find((c: any) => c.type === 'NonStructuralSchema');
        if (found || Date.now() > deadline) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const monitors = await conditionOf('servicemonitors.monitoring.coreos.com');
    expect(monitors).toMatchObject({ status: 'True', reason: 'Violations' });
    expect(monitors.message).toContain('spec.preserveUnknownFields: Invalid value: true: must be false');
    expect(
      (await srv.api('GET', `${V1}/certificates.cert-manager.io`)).body.status.conditions.map((c: any) => c.type),
    ).not.toContain('NonStructuralSchema');
  });

  it('applies the same manifest again through a v1beta1 patch, changing nothing stored', async () => {
    const before = (await srv.api('GET', `${V1}/servicemonitors.monitoring.coreos.com`)).body;
    // The manifest's `creationTimestamp: null` makes kubectl send a strategic merge patch
    // setting it, which the server ignores: kubectl reports "configured".
    expect(await kubectl('apply', '-f', join(FIXTURES, 'servicemonitors.yaml'))).toBe(
      'customresourcedefinition.apiextensions.k8s.io/servicemonitors.monitoring.coreos.com configured\n',
    );
    const after = (await srv.api('GET', `${V1}/servicemonitors.monitoring.coreos.com`)).body;
    expect(after.metadata.generation).toBe(before.metadata.generation);
    expect(after.spec).toEqual(before.spec);
  });

  it('keeps unknown fields of a definition that preserves them, and still validates', async () => {
    const monitor = {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'ServiceMonitor',
      metadata: { name: 'web' },
      spec: {
        endpoints: [{ port: 'http', honorLabels: true }],
        selector: { matchLabels: { app: 'web' } },
        sampleLimit: 100,
      },
      extra: { kept: true },
    };
    const created = await srv.api('POST', `${MONITORS}?fieldValidation=Strict`, monitor);
    expect(created.status, created.text).toBe(201);
    expect(created.body.spec).toEqual(monitor.spec);
    expect(created.body.extra).toEqual({ kept: true });
    expect((await srv.api('GET', `${MONITORS}/web`)).body.spec.endpoints[0].honorLabels).toBe(true);
    const bad = await srv.api('POST', MONITORS, { ...monitor, metadata: { name: 'bad' }, spec: { endpoints: [] } });
    expect(bad.status).toBe(422);
    expect(bad.body.details.causes).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.selector', message: 'Required value' },
    ]);
  });

  it('prunes unknown fields of a definition that does not preserve them', async () => {
    const cert = {
      apiVersion: 'cert-manager.io/v1alpha2',
      kind: 'Certificate',
      metadata: { name: 'site' },
      spec: { secretName: 'site-tls', issuerRef: { name: 'ca' }, dnsNames: ['a.example.com'], renewBefore: '1h' },
    };
    const strict = await srv.api('POST', `${CERTS}?fieldValidation=Strict`, cert);
    expect(strict.status).toBe(400);
    expect(strict.body.message).toContain('unknown field "spec.renewBefore"');
    const created = await srv.api('POST', CERTS, cert);
    expect(created.status, created.text).toBe(201);
    expect(created.body.spec).toEqual({
      secretName: 'site-tls',
      issuerRef: { name: 'ca' },
      dnsNames: ['a.example.com'],
    });
  });

  it('kubectl 1.33 gets the definitions in either version and the objects with their printer columns', async () => {
    const crds = await kubectl('get', 'crd');
    expect(crds.split('\n')[0]).toMatch(/^NAME\s+CREATED AT$/);
    expect(crds).toMatch(/^certificates\.cert-manager\.io\s+\d{4}-\d\d-\d\dT/m);
    expect(crds).toMatch(/^servicemonitors\.monitoring\.coreos\.com\s+\d{4}-\d\d-\d\dT/m);
    expect(
      await kubectl(
        'get',
        'customresourcedefinitions.v1beta1.apiextensions.k8s.io',
        'certificates.cert-manager.io',
        '-o',
        'jsonpath={.apiVersion} {.spec.version} {.spec.additionalPrinterColumns[1].JSONPath}',
      ),
    ).toBe('apiextensions.k8s.io/v1beta1 v1alpha2 .spec.secretName');
    const certs = await kubectl('get', 'certs');
    expect(certs.split('\n')[0]).toMatch(/^NAME\s+READY\s+SECRET\s+AGE$/);
    expect(certs).toMatch(/^site\s+site-tls\s+\d+s$/m);
    expect((await kubectl('get', 'certs', '-o', 'wide')).split('\n')[0]).toMatch(
      /^NAME\s+READY\s+SECRET\s+ISSUER\s+AGE$/,
    );
    expect(await kubectl('get', 'servicemonitors', '-o', 'name')).toBe('servicemonitor.monitoring.coreos.com/web\n');
    const explained = await kubectl(
      'explain',
      'crd.spec.additionalPrinterColumns.JSONPath',
      '--api-version=apiextensions.k8s.io/v1beta1',
    );
    expect(explained).toMatch(/^VERSION:\s+v1beta1$/m);
    expect(explained).toMatch(/^FIELD: JSONPath <string>$/m);
  });
});
