/** One case per DaemonSet rule of docs/validation/daemonsets.md (rules DS1-DS35), and its generation semantics. */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import {
  forbidden,
  invalidValue,
  required,
  unsupported,
  validationSuite,
  type Call,
  type ValidationCase,
} from '../helpers/validation-cases.js';
import {
  create,
  labelValue,
  MERGE,
  NEG,
  notSupported,
  percent,
  qualified,
  selectorOf,
  spec,
} from '../helpers/apps-workloads.js';

const srv = useTestServer();

const DS = '/apis/apps/v1/namespaces/default/daemonsets';
const DS_EXT = '/apis/extensions/v1beta1/namespaces/default/daemonsets';
const daemonSpec = (name: string, extra: object = {}, pod: object = {}) => {
  const { replicas: _replicas, ...rest } = spec(name, extra, pod);
  return rest;
};
const ds = (name: string, extra: object = {}, pod: object = {}) => create(DS, name, daemonSpec(name, extra, pod));
const patch = (name: string, body: object, path = DS): Call => ['PATCH', `${path}/${name}`, body, MERGE];
const status = (name: string, s: object): Call => ['PATCH', `${DS}/${name}/status`, { status: s }, MERGE];
const rolling = (r: object) => ({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: r } });
const RU = 'spec.updateStrategy.rollingUpdate';

const cases: ValidationCase[] = [
  {
    rule: 'DS1 selector selects the template labels (a missing selector selects nothing)',
    call: create(DS, 'vds-1', { template: spec('vds-1').template }),
    cause: invalidValue(
      'spec.template.metadata.labels',
      'map[string]string{"app":"vds-1"}',
      '`selector` does not match template `labels`',
    ),
  },
  {
    rule: 'DS2 selector matchLabels keys qualified names',
    call: ds('vds-2', { selector: { matchLabels: { 'bad key': 'x' } } }),
    cause: invalidValue('spec.selector.matchLabels', '"bad key"', qualified),
  },
  {
    rule: 'DS3 selector matchLabels values label values',
    call: ds('vds-3', { selector: { matchLabels: { app: 'bad value!' } } }),
    cause: invalidValue('spec.selector.matchLabels', '"bad value!"', labelValue),
  },
  {
    rule: 'DS4 In/NotIn expressions need values',
    call: ds('vds-4', { selector: { matchExpressions: [{ key: 'app', operator: 'NotIn' }] } }),
    cause: required('spec.selector.matchExpressions[0].values', "must be specified when `operator` is 'In' or 'NotIn'"),
  },
  {
    rule: 'DS5 Exists/DoesNotExist expressions take no values',
    call: ds('vds-5', { selector: { matchExpressions: [{ key: 'app', operator: 'DoesNotExist', values: ['x'] }] } }),
    cause: forbidden(
      'spec.selector.matchExpressions[0].values',
      "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ),
  },
  {
    rule: 'DS6 expression operator known',
    call: ds('vds-6', { selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['x'] }] } }),
    cause: invalidValue('spec.selector.matchExpressions[0].operator', '"Near"', 'not a valid selector operator'),
  },
  {
    rule: 'DS7 expression key a qualified name',
    call: ds('vds-7', { selector: { matchExpressions: [{ key: '-app', operator: 'Exists' }] } }),
    cause: invalidValue('spec.selector.matchExpressions[0].key', '"-app"', qualified),
  },
  {
    rule: 'DS8 expression values label values (unless the stored selector has such values)',
    call: ds('vds-8', {
      selector: {
        matchLabels: { app: 'vds-8' },
        matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['a b'] }],
      },
    }),
    cause: invalidValue('spec.selector.matchExpressions[0].values[0]', '"a b"', labelValue),
  },
  {
    rule: 'DS9 selector selects the template labels',
    call: ds('vds-9', { selector: { matchLabels: { app: 'other' } } }),
    cause: invalidValue(
      'spec.template.metadata.labels',
      'map[string]string{"app":"vds-9"}',
      '`selector` does not match template `labels`',
    ),
  },
  {
    rule: 'DS10 selector not empty',
    call: ds('vds-10', { selector: { matchLabels: {} } }),
    cause: invalidValue('spec.selector', selectorOf('map[string]string{}'), 'empty selector is invalid for daemonset'),
  },
  {
    rule: 'DS11 template a valid PodTemplateSpec',
    call: create(DS, 'vds-11', {
      selector: { matchLabels: { app: 'vds-11' } },
      template: { metadata: { labels: { app: 'vds-11' } }, spec: {} },
    }),
    cause: required('spec.template.spec.containers'),
  },
  {
    rule: 'DS12 restartPolicy Always',
    call: ds('vds-12', {}, { restartPolicy: 'Never' }),
    cause: unsupported('spec.template.spec.restartPolicy', 'Never', ['Always']),
  },
  {
    rule: 'DS13 no activeDeadlineSeconds',
    call: ds('vds-13', {}, { activeDeadlineSeconds: 10 }),
    cause: forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in DaemonSet is not Supported'),
  },
  {
    rule: 'DS14 minReadySeconds non-negative',
    call: ds('vds-14', { minReadySeconds: -1 }),
    cause: invalidValue('spec.minReadySeconds', '-1', NEG),
  },
  {
    rule: 'DS15 updateStrategy type RollingUpdate or OnDelete',
    call: ds('vds-15', { updateStrategy: { type: 'Surge' } }),
    cause: notSupported(
      'spec.updateStrategy',
      'apps.DaemonSetUpdateStrategy{Type:"Surge", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}',
      ['RollingUpdate', 'OnDelete'],
    ),
  },
  {
    rule: 'DS16 maxUnavailable an integer or a percent',
    call: ds('vds-16', rolling({ maxUnavailable: 'half' })),
    cause: invalidValue(`${RU}.maxUnavailable`, 'intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}', percent),
  },
  {
    rule: 'DS17 maxSurge an integer or a percent',
    call: ds('vds-17', rolling({ maxUnavailable: 0, maxSurge: 'lots' })),
    cause: invalidValue(`${RU}.maxSurge`, 'intstr.IntOrString{Type:1, IntVal:0, StrVal:"lots"}', percent),
  },
  {
    rule: 'DS18 maxUnavailable non-negative',
    call: ds('vds-18', rolling({ maxUnavailable: -1 })),
    cause: invalidValue(`${RU}.maxUnavailable`, '-1', NEG),
  },
  {
    rule: 'DS19 maxSurge non-negative',
    call: ds('vds-19', rolling({ maxUnavailable: 0, maxSurge: -1 })),
    cause: invalidValue(`${RU}.maxSurge`, '-1', NEG),
  },
  {
    rule: 'DS20 maxUnavailable at most 100%',
    call: ds('vds-20', rolling({ maxUnavailable: '110%' })),
    cause: invalidValue(
      `${RU}.maxUnavailable`,
      'intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}',
      'must not be greater than 100%',
    ),
  },
  {
    rule: 'DS21 maxSurge at most 100%',
    call: ds('vds-21', rolling({ maxUnavailable: 0, maxSurge: '150%' })),
    cause: invalidValue(
      `${RU}.maxSurge`,
      'intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}',
      'must not be greater than 100%',
    ),
  },
  {
    rule: 'DS22 maxSurge and maxUnavailable not both non-zero',
    call: ds('vds-22', rolling({ maxUnavailable: 1, maxSurge: '10%' })),
    cause: invalidValue(
      `${RU}.maxSurge`,
      'intstr.IntOrString{Type:1, IntVal:0, StrVal:"10%"}',
      'may not be set when maxUnavailable is non-zero',
    ),
  },
  {
    rule: 'DS23 maxSurge and maxUnavailable not both zero',
    call: ds('vds-23', rolling({ maxUnavailable: 0, maxSurge: 0 })),
    cause: required(`${RU}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'),
  },
  {
    rule: 'DS24 revisionHistoryLimit non-negative',
    call: ds('vds-24', { revisionHistoryLimit: -1 }),
    cause: invalidValue('spec.revisionHistoryLimit', '-1', NEG),
  },
  {
    rule: 'DS25 selector immutable (apps/v1, apps/v1beta2)',
    setup: [ds('vds-25')],
    call: patch('vds-25', {
      spec: { selector: { matchLabels: { tier: 'x' } }, template: { metadata: { labels: { tier: 'x' } } } },
    }),
    cause: invalidValue(
      'spec.selector',
      selectorOf('map[string]string{"app":"vds-25", "tier":"x"}'),
      'field is immutable',
    ),
  },
  ...(
    [
      ['DS26', 'currentNumberScheduled'],
      ['DS27', 'numberMisscheduled'],
      ['DS28', 'desiredNumberScheduled'],
      ['DS29', 'numberReady'],
      ['DS30', 'observedGeneration'],
      ['DS31', 'updatedNumberScheduled'],
      ['DS32', 'numberAvailable'],
      ['DS33', 'numberUnavailable'],
      ['DS34', 'collisionCount'],
    ] as const
  ).map(([id, f]): ValidationCase => ({
    rule: `${id} status.${f} non-negative`,
    setup: [ds(`vds-${id.slice(2)}`)],
    call: status(`vds-${id.slice(2)}`, { [f]: -1 }),
    cause: invalidValue(`status.${f}`, '-1', NEG),
  })),
  {
    rule: 'DS35 status.collisionCount not decremented',
    setup: [ds('vds-35'), status('vds-35', { collisionCount: 3 })],
    call: status('vds-35', { collisionCount: 2 }),
    cause: invalidValue('status.collisionCount', '2', 'cannot be decremented'),
  },
];

const accepted: Call[] = [
  ds('vds-ok', rolling({ maxUnavailable: 0, maxSurge: '25%' })),
  patch('vds-ok', { spec: { minReadySeconds: 3, template: { metadata: { annotations: { a: 'b' } } } } }),
  status('vds-ok', { numberReady: 1, collisionCount: 1 }),
  // extensions/v1beta1 may change the selector (upstream's compatibility no-op).
  create(DS_EXT, 'vds-ext', daemonSpec('vds-ext')),
  patch(
    'vds-ext',
    { spec: { selector: { matchLabels: { tier: 'x' } }, template: { metadata: { labels: { tier: 'x' } } } } },
    DS_EXT,
  ),
];

validationSuite('DaemonSet validation (apps/v1)', () => srv, cases, accepted);

describe('DaemonSet generation', () => {
  it('counts spec changes only; /status leaves generation alone', async () => {
    const made = await srv.api(...ds('vds-gen'));
    expect(made.status, made.text).toBe(201);
    expect(made.body.metadata.generation).toBe(1);
    const st = await srv.api(...status('vds-gen', { numberReady: 0, observedGeneration: 1 }));
    expect(st.status, st.text).toBe(200);
    expect(st.body.metadata.generation).toBe(1);
    const changed = await srv.api(...patch('vds-gen', { spec: { minReadySeconds: 5 } }));
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.metadata.generation).toBe(2);
    expect(changed.body.status.observedGeneration).toBe(1);
  });
});
