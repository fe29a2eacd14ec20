/**
 * CustomResourceDefinitions for tests: a builder of a definition (one or more versions with a
 * schema) and `establish`, which creates one and waits until it is Established and served.
 */
import type { TestServer } from './in-process.js';

/** A v1 CustomResourceDefinition named `<plural>.<group>` with the given versions (the first is stored). */
export function crd(opts: {
  group?: string;
  plural: string;
  kind: string;
  scope?: 'Namespaced' | 'Cluster';
  shortNames?: string[];
  versions?: Record<string, unknown>[];
  schema?: Record<string, unknown>;
  subresources?: Record<string, unknown>;
  columns?: Record<string, unknown>[];
  selectableFields?: { jsonPath: string }[];
}) {
  const group = opts.group ?? 'example.com';
  const version = (name: string, storage: boolean) => ({
    name,
    served: true,
    storage,
    schema: { openAPIV3Schema: opts.schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    ...(opts.subresources ? { subresources: opts.subresources } : {}),
    ...(opts.columns ? { additionalPrinterColumns: opts.columns } : {}),
    ...(opts.selectableFields ? { selectableFields: opts.selectableFields } : {}),
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${opts.plural}.${group}` },
    spec: {
      group,
      scope: opts.scope ?? 'Namespaced',
      names: { plural: opts.plural, kind: opts.kind, ...(opts.shortNames ? { shortNames: opts.shortNames } : {}) },
      versions: opts.versions ?? [version('v1', true)],
    },
  };
}

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** Create `def` and wait (up to 5 s) until it is Established and its first version answers a list. */
export async function establish(srv: TestServer, def: ReturnType<typeof crd>): Promise<any> {
  const created = await srv.api('POST', CRDS, def);
  if (created.status !== 201) throw new Error(`CRD create: ${created.status} ${created.text}`);
  const { group, names, versions, scope } = def.spec;
  const path = `/apis/${group}/${versions[0]!.name}${scope === 'Namespaced' ? '/namespaces/default' : ''}/${names.plural}`;
  const deadline = Date.now() + 5000;
  for (;;) {
    const got = await srv.api('GET', `${CRDS}/${def.metadata.name}`);
    const established = (got.body.status?.conditions ?? []).some(
      (c: any) => c.type === 'Established' && c.status === 'True',
    );
    if (established && (await srv.api('GET', path)).status === 200) return got.body;
    if (Date.now() > deadline) throw new Error(`CRD ${def.metadata.name} not served: ${got.text}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Delete a definition and wait (up to 10 s) until it is gone. */
export async function removeCrd(srv: TestServer, name: string): Promise<void> {
  await srv.api('DELETE', `${CRDS}/${name}`);
  const deadline = Date.now() + 10_000;
  while ((await srv.api('GET', `${CRDS}/${name}`)).status !== 404) {
    if (Date.now() > deadline) throw new Error(`CRD ${name} not deleted`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
