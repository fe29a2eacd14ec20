import { describe, expect, it } from 'vitest';
import {
  AdmissionEvaluator,
  OUT_OF_BUDGET,
  compileAdmissionExpression,
  compileVariables,
  type CelAuthzAttributes,
} from './index.js';

const opts = { hasParams: false, hasAuthorizer: false };

describe('compiling admission expressions (upstream compile_test.go TestCompileValidatingPolicyExpression)', () => {
  const ok: [string, { hasParams?: boolean; hasAuthorizer?: boolean }][] = [
    ['object.foo < params.x', { hasParams: true }],
    ["namespaceObject.metadata.name.startsWith('test')", {}],
    ['object.foo == oldObject.foo', {}],
    ['object == null || oldObject == null || object.foo == oldObject.foo', {}],
    ["object.spec.string.matches('[0-9]+')", {}],
    ["object.spec.string.findAll('[0-9]+').size() > 0", {}],
    ['object.spec.list.isSorted()', {}],
    ["url(object.spec.endpoint).getHostname() in ['ok1', 'ok2']", {}],
    ["request.kind.group == 'example.com' && request.kind.version == 'v1' && request.kind.kind == 'Fake'", {}],
    ["request.resource.resource == 'fake' && request.subResource == 'scale'", {}],
    ["request.requestResource.group == 'example.com' && request.requestSubResource == 'scale'", {}],
    ["request.name == 'fake-name' && request.namespace == 'fake-namespace' && request.operation == 'CREATE'", {}],
    ["request.userInfo.groups == ['system:authenticated', 'my-admin-group']", {}],
    ["request.userInfo.extra == {'some-key': ['some-value1', 'some-value2']}", {}],
    ["request.dryRun == false && request.options == {'whatever': 'you want'}", {}],
    ["authorizer.group('') != null", { hasAuthorizer: true }],
    ["authorizer.requestResource.check('get').allowed()", { hasAuthorizer: true }],
    ['namespaceObject.metadata != null', {}],
    ["'test' in namespaceObject.metadata.labels", {}],
    ['type(namespaceObject.metadata.creationTimestamp) == google.protobuf.Timestamp', {}],
    ['namespaceObject.metadata.deletionGracePeriodSeconds == 5', {}],
    ["namespaceObject.status.conditions[0].type == 'NamespaceDeletionDiscoveryFailure'", {}],
  ];
  it.each(ok)('compiles %s', (expr, o) => {
    const c = compileAdmissionExpression(expr, ['bool'], { ...opts, ...o, env: 'new' });
    expect(c.error).toBeUndefined();
    expect(c.outputType).toBe('bool');
  });

  const bad: [string, string, { hasParams?: boolean; hasAuthorizer?: boolean }][] = [
    ["1 < 'asdf'", "found no matching overload for '_<_' applied to '(int, string)", {}],
    ["'asdf'.contains('x' &&", 'Syntax error:', {}],
    ['object.foo < params.x', "undeclared reference to 'params'", {}],
    ['object.foo < invalid.x', "undeclared reference to 'invalid'", {}],
    ["request.foo1 == 'nope'", "undefined field 'foo1'", {}],
    ["request.userInfo.foo5 == 'nope'", "undefined field 'foo5'", {}],
    ["authorizer.group('') != null", "undeclared reference to 'authorizer'", {}],
    ["namespaceObject.status.conditions[0].foo5 == 'nope'", "undefined field 'foo5'", {}],
  ];
  it.each(bad)('refuses %s', (expr, message, o) => {
    const c = compileAdmissionExpression(expr, ['bool'], { ...opts, ...o });
    expect(c.error?.type).toBe('Invalid');
    expect(c.error?.detail).toMatch(/^compilation failed: ERROR: <input>:1:\d+: /);
    expect(c.error?.detail).toContain(message);
  });

  it('points at a binary operator as cel-go does (its first character)', () => {
    expect(compileAdmissionExpression("1 + 'a' == 2", ['bool'], opts).error?.detail).toBe(
      "compilation failed: ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | 1 + 'a' == 2\n | ..^",
    );
  });

  it('requires the return type exactly, as upstream words it', () => {
    expect(compileAdmissionExpression("'x'", ['bool'], opts).error?.detail).toBe(
      'must evaluate to bool but got string',
    );
    expect(compileAdmissionExpression('object.x', ['bool'], opts).error?.detail).toBe(
      'must evaluate to bool but got dyn',
    );
    expect(compileAdmissionExpression('1', ['string', 'null'], opts).error?.detail).toBe(
      'must evaluate to one of [string null_type] but got int',
    );
    expect(compileAdmissionExpression('null', ['string', 'null'], opts).error).toBeUndefined();
    expect(compileAdmissionExpression('[1, 2]', ['any'], opts).outputType).toBe('list(int)');
  });
});

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'prod', labels: { app: 'web' } },
  spec: { replicas: 7, template: { spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
};
const request = {
  uid: 'u1',
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  name: 'web',
  namespace: 'prod',
  operation: 'CREATE',
  userInfo: { username: 'alice', groups: ['system:authenticated'] },
  dryRun: false,
};

describe('evaluating admission expressions for a request', () => {
  const run = (expr: string, input: Partial<ConstructorParameters<typeof AdmissionEvaluator>[0]> = {}) =>
    new AdmissionEvaluator({ object: deployment, oldObject: null, request, ...input }).evaluate(
      compileAdmissionExpression(expr, ['any'], { hasParams: true, hasAuthorizer: !!input.authorizer }),
    );

  it('sees the object, the request and the params as JSON maps', () => {
    expect(run('object.spec.replicas <= 5')).toMatchObject({ value: false });
    expect(run("object.metadata.labels.app == 'web' && request.userInfo.username == 'alice'")).toMatchObject({
      value: true,
    });
    expect(run('object.spec.replicas <= params.max', { params: { max: 10 } })).toMatchObject({ value: true });
    expect(run('oldObject == null && params == null')).toMatchObject({ value: true });
    expect(run("object.spec.template.spec.containers.all(c, c.image.startsWith('nginx'))")).toMatchObject({
      value: true,
    });
    expect(
      run("namespaceObject.metadata.labels['env']", { namespaceObject: { metadata: { labels: { env: 'x' } } } }),
    ).toMatchObject({ value: 'x' });
  });

  it("reports a missing field as upstream: expression '<expr>' resulted in error: no such key", () => {
    expect(run('object.spec.paused')).toMatchObject({
      error: "expression 'object.spec.paused' resulted in error: no such key: paused",
    });
    expect(run('has(object.spec.paused)')).toMatchObject({ value: false });
    expect(run('request.subResource')).toMatchObject({ error: expect.stringContaining('no such key: subResource') });
  });

  it('evaluates variables lazily, once, each seeing the ones before it', () => {
    const variables = compileVariables(
      [
        { name: 'images', expression: 'object.spec.template.spec.containers.map(c, c.image)' },
        { name: 'pinned', expression: "variables.images.all(i, i.contains(':'))" },
        { name: 'broken', expression: 'object.nope' },
      ],
      opts,
    );
    expect(variables.map((v) => v.compiled.error)).toEqual([undefined, undefined, undefined]);
    expect(variables[1]!.compiled.outputType).toBe('bool');
    const ev = new AdmissionEvaluator({ object: deployment, oldObject: null, request }, variables);
    const c = (e: string) => compileAdmissionExpression(e, ['bool'], { ...opts, variables });
    expect(ev.evaluate(c('variables.pinned && size(variables.images) == 1'))).toMatchObject({ value: true });
    expect(ev.evaluate(c('variables.broken == 1'))).toMatchObject({
      error: expect.stringContaining('composited variable "broken" fails to evaluate: no such key: nope'),
    });
    expect(compileAdmissionExpression('variables.missing', ['any'], { ...opts, variables }).error?.detail).toContain(
      "undefined field 'missing'",
    );
  });

  it('asks the authorizer as the request user, and as a service account', () => {
    const asked: CelAuthzAttributes[] = [];
    const authorizer = {
      authorize(attrs: CelAuthzAttributes) {
        asked.push(attrs);
        return attrs.user.name === 'alice' && attrs.verb === 'get'
          ? { decision: 'allow' as const, reason: 'rbac' }
          : { decision: 'no-opinion' as const, reason: 'no rule' };
      },
    };
    const input = {
      authorizer: {
        authorizer,
        user: { name: 'alice', groups: ['system:authenticated'] },
        requestResource: { group: 'apps', resource: 'deployments', subresource: '', namespace: 'prod', name: 'web' },
      },
    };
    expect(run("authorizer.requestResource.check('get').allowed()", input)).toMatchObject({ value: true });
    expect(asked.at(-1)).toMatchObject({
      isResourceRequest: true,
      apiGroup: 'apps',
      apiVersion: '*',
      resource: 'deployments',
      namespace: 'prod',
      name: 'web',
    });
    expect(
      run("authorizer.group('').resource('secrets').namespace('prod').check('list').reason()", input),
    ).toMatchObject({ value: 'no rule' });
    expect(
      run("authorizer.serviceAccount('prod', 'builder').path('/healthz').check('get').allowed()", input),
    ).toMatchObject({ value: false });
    expect(asked.at(-1)).toMatchObject({
      user: { name: 'system:serviceaccount:prod:builder' },
      path: '/healthz',
      isResourceRequest: false,
    });
    expect(run("authorizer.group('').resource('').check('get')", input)).toMatchObject({
      error: expect.stringContaining('resource must not be empty'),
    });
  });

  it('shares one runtime budget across expressions and stops when it is spent', () => {
    const ev = new AdmissionEvaluator({ object: deployment, oldObject: null, request }, [], 30);
    const c = compileAdmissionExpression('object.spec.replicas > 1 && object.metadata.name == "web"', ['bool'], opts);
    const first = ev.evaluate(c);
    expect(first).toMatchObject({ value: true });
    expect(ev.remainingBudget).toBe(30 - first.cost);
    let last = ev.evaluate(c);
    while ('value' in last) last = ev.evaluate(c);
    expect(last).toMatchObject({ error: OUT_OF_BUDGET, outOfBudget: true });
  });

  it('stops an expression past the per-call limit', () => {
    const list = Array.from({ length: 200 }, (_, i) => i);
    const out = run('object.l.all(a, object.l.all(b, object.l.all(c, a + b + c >= 0)))', {
      object: { l: list },
    });
    expect(out).toMatchObject({ error: expect.stringContaining('operation cancelled: actual cost limit exceeded') });
  });
});
