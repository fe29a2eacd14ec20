/**
 * Upstream's e2e test/e2e/apimachinery/crd_publish_openapi.go (1.33), the cases that drive
 * kubectl: "[sig-api-machinery] CustomResourcePublishOpenAPI [Privileged:ClusterAdmin]" with
 * kubectl 1.33. A definition's published schema makes `kubectl create`/`apply` validate
 * custom objects (and refuse bad ones with upstream's messages) and `kubectl explain` show
 * its fields; what upstream waits for in `/openapi/v2` is checked there and in `/openapi/v3`.
 */
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer, writeKubeconfig } from '../helpers/in-process.js';
import { run } from '../helpers/run.js';
import {
  cleanupCrd,
  schemaCustomService,
  schemaFoo,
  schemaPreserveNested,
  schemaPreserveRoot,
  setupCrd,
  testCrd,
} from '../helpers/upstream-crd-openapi.js';
import type { CrdJson } from '../helpers/upstream-crds.js';

const srv = useTestServer();
const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const NS = 'crd-publish-openapi';

let config: string;
beforeAll(async () => {
  config = await writeKubeconfig(srv, 'crd-openapi', { namespace: NS });
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
});

/** A kubectl with a discovery cache of its own (the definitions are new to it). */
async function kubectlFor(): Promise<(args: string[], input?: string) => Promise<{ code: number; out: string }>> {
  const cache = await mkdtemp(join(srv.dir, 'kube-cache-'));
  return async (args, input) => {
    const res = await run(KUBECTL, [`--kubeconfig=${config}`, `--cache-dir=${cache}`, ...args], {
      input,
      timeoutMs: 60_000,
    });
    return { code: res.code, out: res.stdout + res.stderr };
  };
}

/** `{"kind":...,"apiVersion":...,"metadata":{"name":...}` and `rest`, as upstream's metaPattern. */
const customObject = (def: CrdJson, name: string, rest: string) =>
  `{"kind":"${def.spec.names.kind}","apiVersion":"${def.spec.group}/${def.spec.versions[0]!.name}",` +
  `"metadata":{"name":"${name}"}${rest}}`;

type Kubectl = Awaited<ReturnType<typeof kubectlFor>>;

/** kubectl create and apply accept `cr` (each deleted after). */
async function expectAccepted(k: Kubectl, def: CrdJson, cr: string, name: string): Promise<void> {
  for (const verb of ['create', 'apply']) {
    const made = await k([`--namespace=${NS}`, verb, '-f', '-'], cr);
    expect(made.code, made.out).toBe(0);
    const deleted = await k([`--namespace=${NS}`, 'delete', def.spec.names.plural, name]);
    expect(deleted.code, deleted.out).toBe(0);
  }
}

/** verifyKubectlExplain: `kubectl explain <what>` succeeds and matches `pattern`. */
async function expectExplain(k: Kubectl, what: string, pattern: RegExp): Promise<void> {
  const res = await k(['explain', what]);
  expect(res.code, res.out).toBe(0);
  expect(res.out).toMatch(pattern);
}

// About twenty kubectl runs a case: more than the project's default 20 s on a loaded machine.
describe('CustomResourcePublishOpenAPI [Privileged:ClusterAdmin]', { timeout: 120_000 }, () => {
  it('works for CRD with validation schema [Conformance]', async () => {
    const def = await setupCrd(srv, testCrd(schemaFoo, 'foo', ['v1']), schemaFoo, schemaFoo);
    const k = await kubectlFor();
    await expectAccepted(k, def, customObject(def, 'test-foo', ',"spec":{"bars":[{"name":"test-bar"}]}'), 'test-foo');

    const refused = [
      {
        what: 'value outside defined enum values',
        cr: ',"spec":{"bars":[{"name":"test-bar", "feeling":"NonExistentValue"}]}',
        verbs: ['create'],
        anyOf: ['Unsupported value: "NonExistentValue"'],
      },
      {
        what: 'unknown properties when disallowed by the schema',
        cr: ',"spec":{"foo":true}',
        verbs: ['create', 'apply'],
        anyOf: ['unknown field "foo"', 'unknown field "spec.foo"'],
      },
      {
        what: 'without required properties',
        cr: ',"spec":{"bars":[{"age":"10"}]}',
        verbs: ['create', 'apply'],
        anyOf: ['missing required field "name"', 'spec.bars[0].name: Required value'],
      },
    ];
    for (const { what, cr, verbs, anyOf } of refused)
      for (const verb of verbs) {
        const res = await k([`--namespace=${NS}`, verb, '-f', '-'], customObject(def, 'test-foo', cr));
        expect(res.code, `${verb} ${what}`).not.toBe(0);
        expect(
          anyOf.some((text) => res.out.includes(text)),
          `${verb} ${what}: ${res.out}`,
        ).toBe(true);
      }

    const plural = def.spec.names.plural;
    const explained: [string, RegExp][] = [
      [
        plural,
        /DESCRIPTION:.*Foo CRD for Testing.*FIELDS:.*apiVersion.*<string>.*APIVersion defines.*spec.*<Object>.*Specification of Foo/s,
      ],
      // Upstream's pattern ends `.*CreationTimestamp is a timestamp`: ObjectMeta's own prose,
      // which this server words differently (api/meta-schema.ts).
      [`${plural}.metadata`, /DESCRIPTION:.*Standard object's metadata.*FIELDS:.*creationTimestamp.*<string>/s],
      [
        `${plural}.spec`,
        /DESCRIPTION:.*Specification of Foo.*FIELDS:.*bars.*<\[\]Object>.*List of Bars and their specs/s,
      ],
      [
        `${plural}.spec.bars`,
        /(FIELD|RESOURCE):.*bars.*<\[\]Object>.*DESCRIPTION:.*List of Bars and their specs.*FIELDS:.*bazs.*<\[\]string>.*List of Bazs.*name.*<string>.*Name of Bar/s,
      ],
    ];
    for (const [what, pattern] of explained) await expectExplain(k, what, pattern);
    const missing = await k(['explain', `${plural}.spec.bars2`]);
    expect(missing.code).not.toBe(0);
    expect(missing.out).toContain('field "bars2" does not exist');
    await cleanupCrd(srv, def);
  });

  it.each([
    {
      name: 'works for CRD without validation schema [Conformance]',
      schema: null,
      suffix: 'empty',
      v2: { type: 'object' },
      explain: (_def: CrdJson) => /DESCRIPTION:.*<empty>/s,
      cr: ',"a":{"b":[{"c":"d"}]}',
    },
    {
      name: 'works for CRD preserving unknown fields at the schema root [Conformance]',
      schema: schemaPreserveRoot,
      suffix: 'unknown-at-root',
      v2: undefined,
      explain: (def: CrdJson) => new RegExp(`KIND:.*${def.spec.names.kind}`, 's'),
      cr: ',"a":{"b":[{"c":"d"}]}',
    },
    {
      name: 'works for CRD preserving unknown fields in an embedded object [Conformance]',
      schema: schemaPreserveNested,
      suffix: 'unknown-in-nested',
      v2: undefined,
      explain: (_def: CrdJson) => /DESCRIPTION:.*preserve-unknown-properties in nested field for Testing/s,
      cr: ',"spec":{"a":null,"b":[{"c":"d"}]}',
    },
  ])('$name', async ({ schema, suffix, v2, explain, cr }) => {
    const def = await setupCrd(srv, testCrd(schema, suffix, ['v1']), v2);
    const k = await kubectlFor();
    await expectAccepted(k, def, customObject(def, 'test-cr', cr), 'test-cr');
    await expectExplain(k, def.spec.names.plural, explain(def));
    await cleanupCrd(srv, def);
  });

  it('[Flaky] kubectl explain works for CR with the same resource name as built-in object.', async () => {
    const shortName = `ksvc-${Math.floor(Date.now() / 1000)}`;
    const def = testCrd(
      schemaCustomService,
      'service',
      ['v1'],
      [
        (d) => {
          d.metadata = { name: `services.${d.spec.group}` };
          d.spec.names = {
            plural: 'services',
            singular: 'service',
            listKind: 'ServiceList',
            kind: 'Service',
            shortNames: [shortName],
          };
        },
      ],
    );
    await setupCrd(srv, def, schemaCustomService, schemaCustomService);
    const k = await kubectlFor();
    await expectExplain(
      k,
      `${shortName}.spec`,
      /DESCRIPTION:.*Specification of CustomService.*FIELDS:.*dummy.*<string>.*Dummy property/s,
    );
    await cleanupCrd(srv, def);
  });
});
