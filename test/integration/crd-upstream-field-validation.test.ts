/**
 * The custom-resource cases of upstream's e2e test/e2e/apimachinery/field_validation.go (1.33):
 * "[sig-api-machinery] FieldValidation", all five. Each applies (server-side apply, YAML,
 * `fieldValidation=Strict`) a custom object to a two-version definition and asserts what
 * upstream asserts: the object is created, or the answer names the undeclared field
 * (structured-merge-diff's `field not declared in schema`; upstream answers 500, this server
 * 400 since the client's input is at fault) or the repeated YAML key (`line 11: key "foo"
 * already set in map`). Beside them, what `Warn` and `Ignore` do with the same bodies.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { createCrd, deleteCrd, randomMultiVersionCrd, resourcePath } from '../helpers/upstream-crds.js';

const srv = useTestServer();

/** The body of upstream's duplicates case: `foo` twice in `spec` (lines 10 and 11). */
function DUPLICATES(apiVersion: string, kind: string): string {
  return `
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: mytest
  finalizers:
  - test-finalizer
spec:
  unknown: uk1
  foo: foo1
  foo: foo2
${TAIL}`;
}

const PORTS = {
  type: 'array',
  'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
  'x-kubernetes-list-type': 'map',
  items: {
    properties: {
      containerPort: { format: 'int32', type: 'integer' },
      hostIP: { type: 'string' },
      hostPort: { format: 'int32', type: 'integer' },
      name: { type: 'string' },
      protocol: { type: 'string' },
    },
    required: ['containerPort', 'protocol'],
    type: 'object',
  },
};
const CRON = { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' };
const SPEC = { foo: { type: 'string' }, cronSpec: CRON, ports: PORTS };
const TAIL = `  cronSpec: "* * * * */5"
  ports:
  - name: x
    containerPort: 80
    protocol: TCP`;

const EMBEDDED_SPEC = {
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
  properties: {
    template: {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      properties: {
        metadata: { type: 'object', properties: { name: { type: 'string' } } },
        spec: { type: 'object' },
      },
    },
    ...SPEC,
  },
};
const PRESERVING_SPEC = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: SPEC };

const CASES: {
  name: string;
  schema?: Record<string, unknown>;
  yaml: (apiVersion: string, kind: string) => string;
  status: number;
  /** Upstream's check of the answer's text (any of these), for a refused apply. */
  message?: string[];
}[] = [
  {
    name: 'should create/apply a valid CR for CRD with validation schema [Conformance]',
    schema: { type: 'object', properties: { spec: { type: 'object', properties: SPEC } } },
    yaml: (apiVersion, kind) => `
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: mytest
spec:
  foo: foo1
${TAIL}`,
    status: 201,
  },
  {
    name: 'should create/apply a CR with unknown fields for CRD with no validation schema [Conformance]',
    yaml: (apiVersion, kind) => `
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: mytest
spec:
  unknown: uk1
${TAIL}`,
    status: 201,
  },
  {
    name: 'should create/apply an invalid CR with extra properties for CRD with validation schema [Conformance]',
    schema: { type: 'object', properties: { spec: { type: 'object', properties: SPEC } } },
    yaml: (apiVersion, kind) => `
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: mytest
  finalizers:
  - test-finalizer
unknownField: unknown
spec:
  foo: foo1
${TAIL}`,
    status: 400,
    message: ['.unknownField: field not declared in schema'],
  },
  {
    name: 'should detect unknown metadata fields in both the root and embedded object of a CR [Conformance]',
    schema: { type: 'object', properties: { spec: EMBEDDED_SPEC } },
    yaml: (apiVersion, kind) => `
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: mytest
  unknownMeta: unknown
  finalizers:
  - test-finalizer
spec:
  template:
    apiversion: foo/v1
    kind: Sub
    metadata:
        unknownSubMeta: unknown
        name: subobject
        namespace: default
  foo: foo1
${TAIL}`,
    status: 400,
    message: [
      '.spec.template.metadata.unknownSubMeta: field not declared in schema',
      '.metadata.unknownMeta: field not declared in schema',
    ],
  },
  {
    name: 'should detect duplicates in a CR when preserving unknown fields [Conformance]',
    schema: { type: 'object', properties: { spec: PRESERVING_SPEC } },
    yaml: DUPLICATES,
    status: 400,
    // Upstream looks for the text as the JSON answer carries it (quotes escaped).
    message: ['line 11: key \\"foo\\" already set in map'],
  },
];

/** Create a definition with `schema` on every version; answers it and its first version. */
async function definition(schema: Record<string, unknown> | undefined) {
  const def = randomMultiVersionCrd('Cluster');
  if (schema) for (const v of def.spec.versions) v.schema = { openAPIV3Schema: schema };
  await createCrd(srv, def, { primeWatch: true });
  return { def, version: def.spec.versions[0]!.name };
}

/** Server-side apply of `body` as `mytest` with `fieldValidation`. */
function apply(def: ReturnType<typeof randomMultiVersionCrd>, version: string, body: string, validation: string) {
  const path = `${resourcePath(def, version)}/mytest?fieldManager=field_validation_mgr&fieldValidation=${validation}`;
  return srv.api('PATCH', path, body, { 'content-type': 'application/apply-patch+yaml' });
}

describe('FieldValidation', () => {
  it.each(CASES)('$name', async ({ schema, yaml, status, message }) => {
    const { def, version } = await definition(schema);
    const res = await apply(def, version, yaml(`${def.spec.group}/${version}`, def.spec.names.kind), 'Strict');
    expect(res.status, res.text).toBe(status);
    if (message) {
      expect(res.body.kind).toBe('Status');
      expect(
        message.some((m) => res.text.includes(m)),
        res.text,
      ).toBe(true);
    } else {
      expect(res.body.metadata.name).toBe('mytest');
    }
    await deleteCrd(srv, def);
  });

  it('refuses an undeclared field whatever fieldValidation says, naming the object and kind', async () => {
    const { def, version } = await definition(CASES[2]!.schema);
    const apiVersion = `${def.spec.group}/${version}`;
    for (const validation of ['Ignore', 'Warn']) {
      const res = await apply(def, version, CASES[2]!.yaml(apiVersion, def.spec.names.kind), validation);
      expect(res.status, res.text).toBe(400);
      expect(res.body.message).toBe(
        `failed to create typed patch object (/mytest; ${apiVersion}, Kind=${def.spec.names.kind}): .unknownField: field not declared in schema`,
      );
    }
    await deleteCrd(srv, def);
  });

  it('reads a repeated YAML key leniently: Warn warns and keeps the last value, Ignore is silent', async () => {
    const { def, version } = await definition(CASES[4]!.schema);
    // Without the finalizer (the object must go with its definition): `foo` on lines 8 and 9.
    const body = DUPLICATES(`${def.spec.group}/${version}`, def.spec.names.kind).replace(
      '  finalizers:\n  - test-finalizer\n',
      '',
    );
    const strict = await apply(def, version, body, 'Strict');
    expect(strict.status, strict.text).toBe(400);
    expect(strict.body.message).toBe(
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 9: key "foo" already set in map',
    );
    const warn = await apply(def, version, body, 'Warn');
    expect(warn.status, warn.text).toBe(201);
    expect(warn.body.spec.foo).toBe('foo2');
    expect(warn.headers.warning).toBe('299 - "line 9: key \\"foo\\" already set in map"');
    // The value only: the random kind (foo<hex>) may hold "foo2" too.
    const ignore = await apply(def, version, body.replace('  foo: foo2', '  foo: foo3'), 'Ignore');
    expect(ignore.status, ignore.text).toBe(200);
    expect(ignore.body.spec.foo).toBe('foo3');
    expect(ignore.headers.warning).toBeUndefined();
    await deleteCrd(srv, def);
  });
});
