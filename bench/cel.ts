/**
 * What CEL validation costs per object (`npm run build && npm run bench:cel`), in process on the
 * build, with no server:
 *  - a custom resource schema with the kinds of rules real CRDs carry (Gateway API and
 *    cert-manager style: cross-field comparisons, a list quantifier over 16 items, a regex, a
 *    transition rule, a messageExpression) validated on create and on update;
 *  - a ValidatingAdmissionPolicy-like set of admission expressions (a variable, three
 *    validations over a Deployment, an authorizer-free messageExpression) evaluated per request.
 * For each: CPU time per object (µs, the median of BENCH_CEL_REPS (7) repetitions of
 * BENCH_CEL_OBJECTS (5,000) objects after a warm-up repetition) and the CEL cost units counted
 * per object, against upstream's per-object budget (RuntimeCELCostBudget 10,000,000).
 */
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import type { JSONSchemaProps } from '../src/api/crd-schema/types.js';
import { BUILD } from './server.js';
import { median } from './stats.js';

// The build (as the server runs), not the sources through tsx, whose keepNames wraps every closure.
type Cel = typeof import('../src/api/cel/index.js');
type AdmissionCel = typeof import('../src/api/cel/admission/index.js');
type Structural = typeof import('../src/api/crd-schema/structural.js');
const load = <T>(path: string): Promise<T> => import(resolve(BUILD, path)) as Promise<T>;
const { CelValidator, RUNTIME_CEL_COST_BUDGET } = await load<Cel>('api/cel/index.js');
const { AdmissionEvaluator, compileAdmissionExpression, compileVariables } =
  await load<AdmissionCel>('api/cel/admission/index.js');
const { toStructural } = await load<Structural>('api/crd-schema/structural.js');

const REPS = Number(process.env.BENCH_CEL_REPS ?? 7);
const OBJECTS = Number(process.env.BENCH_CEL_OBJECTS ?? 5000);

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'self.minReplicas <= self.maxReplicas', message: 'minReplicas must not exceed maxReplicas' },
        { rule: 'self.listeners.all(l, l.port > 0 && l.port < 65536)' },
        { rule: "self.listeners.exists_one(l, l.name == 'default') || size(self.listeners) > 1" },
        {
          rule: 'self.image.matches("^[a-z0-9./-]+:[a-z0-9.-]+$")',
          messageExpression: "'image ' + self.image + ' must be pinned'",
        },
        { rule: 'self.class == oldSelf.class', message: 'class is immutable' },
      ],
      properties: {
        minReplicas: { type: 'integer' },
        maxReplicas: { type: 'integer' },
        image: { type: 'string', maxLength: 256 },
        class: { type: 'string', maxLength: 64 },
        listeners: {
          type: 'array',
          maxItems: 64,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string', maxLength: 63 },
              port: { type: 'integer' },
              hostname: { type: 'string', maxLength: 253 },
            },
            'x-kubernetes-validations': [{ rule: "!has(self.hostname) || self.hostname.endsWith('.example.com')" }],
          },
        },
      },
    },
  },
};

const custom = (i: number) => ({
  apiVersion: 'bench.example.com/v1',
  kind: 'Gateway',
  metadata: { name: `g${i}`, namespace: 'default' },
  spec: {
    minReplicas: 1,
    maxReplicas: 3 + (i % 5),
    image: `registry.example.com/gw:1.${i % 10}.0`,
    class: 'standard',
    listeners: Array.from({ length: 16 }, (_, j) => ({
      name: j === 0 ? 'default' : `l${j}`,
      port: 8000 + j,
      hostname: `h${j}.example.com`,
    })),
  },
});

const deployment = (i: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: `d${i}`, namespace: 'prod', labels: { app: `d${i}`, team: 'a' } },
  spec: {
    replicas: 1 + (i % 7),
    template: {
      metadata: { labels: { app: `d${i}` } },
      spec: {
        containers: [
          { name: 'app', image: `registry.example.com/app:1.${i % 9}`, resources: { limits: { cpu: '1' } } },
          { name: 'sidecar', image: 'registry.example.com/proxy:2.0', resources: { limits: { cpu: '100m' } } },
        ],
      },
    },
  },
});

const request = {
  uid: 'u',
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  operation: 'CREATE',
  namespace: 'prod',
  userInfo: { username: 'alice', groups: ['system:authenticated'] },
};

/** Run `f` over OBJECTS objects REPS times (after one warm-up): median µs per object. */
function timePerObject(f: (i: number) => number): { micros: number; cost: number } {
  let cost = 0;
  for (let i = 0; i < OBJECTS; i++) f(i);
  const times: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    cost = 0;
    const t0 = performance.now();
    for (let i = 0; i < OBJECTS; i++) cost += f(i);
    times.push(((performance.now() - t0) * 1000) / OBJECTS);
  }
  return { micros: median(times), cost: cost / OBJECTS };
}

function main(): void {
  const validator = new CelValidator(toStructural(schema)!, { isResourceRoot: true });
  const objects = Array.from({ length: OBJECTS }, (_, i) => custom(i));
  const fail = (what: string, errors: unknown[]) => {
    if (errors.length) throw new Error(`${what}: unexpected errors ${JSON.stringify(errors)}`);
  };
  const create = timePerObject((i) => {
    const r = validator.validate(objects[i]);
    fail('create', r.errors);
    return RUNTIME_CEL_COST_BUDGET - r.remainingBudget;
  });
  const update = timePerObject((i) => {
    const r = validator.validate(objects[i], { oldObj: objects[(i + 1) % OBJECTS] });
    fail('update', r.errors);
    return RUNTIME_CEL_COST_BUDGET - r.remainingBudget;
  });

  const opts = { hasParams: true, hasAuthorizer: false };
  const variables = compileVariables(
    [{ name: 'containers', expression: 'object.spec.template.spec.containers' }],
    opts,
  );
  const expressions = [
    'object.spec.replicas <= params.maxReplicas',
    "variables.containers.all(c, c.image.startsWith('registry.example.com/'))",
    "variables.containers.all(c, has(c.resources.limits) && 'cpu' in c.resources.limits)",
    "object.metadata.labels.team in ['a', 'b'] && object.metadata.name.matches('^[a-z0-9-]+$')",
  ].map((e) => compileAdmissionExpression(e, ['bool'], { ...opts, variables }));
  const message = compileAdmissionExpression("'replicas ' + string(object.spec.replicas) + ' too many'", ['string'], {
    ...opts,
    variables,
  });
  for (const c of [...expressions, message]) if (c.error) throw new Error(`${c.expression}: ${c.error.detail}`);
  const deployments = Array.from({ length: OBJECTS }, (_, i) => deployment(i));
  const params = { maxReplicas: 10 };
  const admission = timePerObject((i) => {
    const ev = new AdmissionEvaluator({ object: deployments[i], oldObject: null, params, request }, variables);
    let cost = 0;
    for (const c of expressions) {
      const r = ev.evaluate(c);
      if (!('value' in r) || r.value !== true) throw new Error(`${c.expression}: ${JSON.stringify(r)}`);
      cost += r.cost;
    }
    const m = ev.evaluate(message);
    return cost + m.cost;
  });

  console.log(`CEL per object (median of ${REPS} repetitions of ${OBJECTS} objects)`);
  console.log('');
  console.log('| evaluation | CPU per object | CEL cost per object | share of the 10,000,000 budget |');
  console.log('|---|---:|---:|---:|');
  const row = (label: string, r: { micros: number; cost: number }) =>
    console.log(
      `| ${label} | ${r.micros.toFixed(1)} µs | ${r.cost.toFixed(0)} | ${((r.cost / RUNTIME_CEL_COST_BUDGET) * 100).toFixed(3)}% |`,
    );
  row('custom resource create: 5 rules + 1 per listener (16)', create);
  row('custom resource update: the same + transition rule', update);
  row('admission policy: 1 variable, 4 validations, 1 message', admission);
}

main();
