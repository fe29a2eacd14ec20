/** One case per StatefulSet rule of docs/validation/statefulsets.md (rules S1-S44), and its generation semantics. */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import {
  forbidden,
  invalid,
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
  OVER,
  percent,
  qualified,
  selectorOf,
  spec,
} from '../helpers/apps-workloads.js';

const srv = useTestServer();

const STS = '/apis/apps/v1/namespaces/default/statefulsets';
const sts = (name: string, extra: object = {}, pod: object = {}) =>
  create(STS, name, { serviceName: 'svc', ...spec(name, extra, pod) });
const patch = (name: string, body: object): Call => ['PATCH', `${STS}/${name}`, body, MERGE];
const status = (name: string, s: object): Call => ['PATCH', `${STS}/${name}/status`, { status: s }, MERGE];
const rolling = (r: object) => ({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: r } });
/** The shared DNS-1123 label message, in today's upstream wording. */
const dns1123Label =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const IMMUTABLE =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
const claim = (name: string, claimSpec: object) => ({ metadata: { name }, spec: claimSpec });
const goodClaim = claim('data', { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } });

const cases: ValidationCase[] = [
  {
    rule: 'S1 name a DNS-1123 label',
    call: sts('vs.1'),
    cause: invalidValue('metadata.name', '"vs.1"', dns1123Label),
  },
  {
    rule: 'S2 podManagementPolicy OrderedReady or Parallel',
    call: sts('vs-2', { podManagementPolicy: 'Random' }),
    cause: invalidValue('spec.podManagementPolicy', '"Random"', "must be 'OrderedReady' or 'Parallel'"),
  },
  {
    rule: 'S3 OnDelete takes no rollingUpdate',
    call: sts('vs-3', { updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } }),
    cause: invalidValue(
      'spec.updateStrategy.rollingUpdate',
      'apps.RollingUpdateStatefulSetStrategy{Partition:1, MaxUnavailable:(*intstr.IntOrString)(nil)}',
      "only allowed for updateStrategy 'RollingUpdate'",
    ),
  },
  {
    rule: 'S4 updateStrategy type RollingUpdate or OnDelete',
    call: sts('vs-4', { updateStrategy: { type: 'BlueGreen' } }),
    cause: invalidValue(
      'spec.updateStrategy',
      'apps.StatefulSetUpdateStrategy{Type:"BlueGreen", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}',
      "must be 'RollingUpdate' or 'OnDelete'",
    ),
  },
  {
    rule: 'S5 rollingUpdate partition non-negative',
    call: sts('vs-5', rolling({ partition: -1 })),
    cause: invalidValue('spec.updateStrategy.rollingUpdate.partition', '-1', NEG),
  },
  {
    rule: 'S6 maxUnavailable an integer or a percent',
    call: sts('vs-6', rolling({ maxUnavailable: 'half' })),
    cause: invalidValue(
      'spec.updateStrategy.rollingUpdate.maxUnavailable',
      'intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}',
      percent,
    ),
  },
  {
    rule: 'S7 maxUnavailable non-negative',
    call: sts('vs-7', rolling({ maxUnavailable: -1 })),
    cause: invalidValue('spec.updateStrategy.rollingUpdate.maxUnavailable', '-1', NEG),
  },
  {
    rule: 'S8 maxUnavailable not 0',
    call: sts('vs-8', rolling({ maxUnavailable: 0 })),
    cause: invalidValue(
      'spec.updateStrategy.rollingUpdate.maxUnavailable',
      'intstr.IntOrString{Type:0, IntVal:0, StrVal:""}',
      'cannot be 0',
    ),
  },
  {
    rule: 'S9 maxUnavailable at most 100%',
    call: sts('vs-9', rolling({ maxUnavailable: '110%' })),
    cause: invalidValue(
      'spec.updateStrategy.rollingUpdate.maxUnavailable',
      'intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}',
      'must not be greater than 100%',
    ),
  },
  {
    rule: 'S10 persistentVolumeClaimRetentionPolicy.whenDeleted Retain or Delete',
    call: sts('vs-10', { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' } }),
    cause: unsupported('spec.persistentVolumeClaimRetentionPolicy.whenDeleted', 'Keep', ['Retain', 'Delete']),
  },
  {
    rule: 'S11 persistentVolumeClaimRetentionPolicy.whenScaled Retain or Delete',
    call: sts('vs-11', { persistentVolumeClaimRetentionPolicy: { whenScaled: 'Keep' } }),
    cause: unsupported('spec.persistentVolumeClaimRetentionPolicy.whenScaled', 'Keep', ['Retain', 'Delete']),
  },
  {
    rule: 'S12 replicas non-negative',
    call: sts('vs-12', { replicas: -1 }),
    cause: invalidValue('spec.replicas', '-1', NEG),
  },
  {
    rule: 'S13 minReadySeconds non-negative',
    call: sts('vs-13', { minReadySeconds: -1 }),
    cause: invalidValue('spec.minReadySeconds', '-1', NEG),
  },
  {
    rule: 'S14 ordinals.start non-negative',
    call: sts('vs-14', { ordinals: { start: -1 } }),
    cause: invalidValue('spec.ordinals.start', '-1', NEG),
  },
  {
    rule: 'S15 serviceName a DNS-1123 label (create)',
    call: sts('vs-15', { serviceName: 'Bad_Service' }),
    cause: invalidValue('spec.serviceName', '"Bad_Service"', dns1123Label),
  },
  {
    rule: 'S16 selector required',
    call: create(STS, 'vs-16', { serviceName: 'svc', template: spec('vs-16').template }),
    cause: required('spec.selector'),
  },
  {
    rule: 'S17 selector matchLabels keys qualified names',
    call: sts('vs-17', { selector: { matchLabels: { 'bad key': 'x' } } }),
    cause: invalidValue('spec.selector.matchLabels', '"bad key"', qualified),
  },
  {
    rule: 'S18 selector matchLabels values label values',
    call: sts('vs-18', { selector: { matchLabels: { app: 'bad value!' } } }),
    cause: invalidValue('spec.selector.matchLabels', '"bad value!"', labelValue),
  },
  {
    rule: 'S19 In/NotIn expressions need values',
    call: sts('vs-19', { selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }),
    cause: required('spec.selector.matchExpressions[0].values', "must be specified when `operator` is 'In' or 'NotIn'"),
  },
  {
    rule: 'S20 Exists/DoesNotExist expressions take no values',
    call: sts('vs-20', { selector: { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] } }),
    cause: forbidden(
      'spec.selector.matchExpressions[0].values',
      "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ),
  },
  {
    rule: 'S21 expression operator known',
    call: sts('vs-21', { selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['x'] }] } }),
    cause: invalidValue('spec.selector.matchExpressions[0].operator', '"Near"', 'not a valid selector operator'),
  },
  {
    rule: 'S22 expression key a qualified name',
    call: sts('vs-22', { selector: { matchExpressions: [{ key: '-app', operator: 'Exists' }] } }),
    cause: invalidValue('spec.selector.matchExpressions[0].key', '"-app"', qualified),
  },
  {
    rule: 'S23 expression values label values',
    call: sts('vs-23', {
      selector: {
        matchLabels: { app: 'vs-23' },
        matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['a b'] }],
      },
    }),
    cause: invalidValue('spec.selector.matchExpressions[0].values[0]', '"a b"', labelValue),
  },
  {
    rule: 'S24 selector not empty',
    call: sts('vs-24', { selector: { matchLabels: {} } }),
    cause: invalidValue(
      'spec.selector',
      selectorOf('map[string]string{}'),
      'empty selector is invalid for statefulset',
    ),
  },
  {
    rule: 'S25 selector buildable',
    call: sts('vs-25', { selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['x'] }] } }),
    cause: invalid(
      'spec.selector',
      `Invalid value: ${selectorOf(
        'map[string]string(nil)',
        '[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Near", Values:[]string{"x"}}}',
      )}`,
    ),
  },
  {
    rule: 'S26 selector selects the template labels',
    call: sts('vs-26', { selector: { matchLabels: { app: 'other' } } }),
    cause: invalidValue(
      'spec.template.metadata.labels',
      'map[string]string{"app":"vs-26"}',
      '`selector` does not match template `labels`',
    ),
  },
  {
    rule: 'S27 template a valid PodTemplateSpec',
    call: create(STS, 'vs-27', {
      ...spec('vs-27'),
      serviceName: 'svc',
      template: { metadata: { labels: { app: 'vs-27' } }, spec: {} },
    }),
    cause: required('spec.template.spec.containers'),
  },
  {
    rule: 'S28 volumeClaimTemplates valid claims',
    call: sts('vs-28', { volumeClaimTemplates: [claim('data', { resources: { requests: { storage: '1Gi' } } })] }),
    cause: required('spec.volumeClaimTemplates[0].spec.accessModes', 'at least 1 access mode is required'),
  },
  {
    rule: 'S29 restartPolicy Always',
    call: sts('vs-29', {}, { restartPolicy: 'OnFailure' }),
    cause: unsupported('spec.template.spec.restartPolicy', 'OnFailure', ['Always']),
  },
  {
    rule: 'S30 no activeDeadlineSeconds',
    call: sts('vs-30', {}, { activeDeadlineSeconds: 10 }),
    cause: forbidden(
      'spec.template.spec.activeDeadlineSeconds',
      'activeDeadlineSeconds in StatefulSet is not Supported',
    ),
  },
  {
    rule: 'S31 only the mutable spec fields change',
    setup: [sts('vs-31')],
    call: patch('vs-31', { spec: { serviceName: 'other' } }),
    cause: forbidden('spec', IMMUTABLE),
  },
  ...(
    [
      ['S32', 'replicas'],
      ['S33', 'readyReplicas'],
      ['S34', 'currentReplicas'],
      ['S35', 'updatedReplicas'],
      ['S36', 'availableReplicas'],
      ['S37', 'observedGeneration'],
      ['S38', 'collisionCount'],
    ] as const
  ).map(([id, f]): ValidationCase => ({
    rule: `${id} status.${f} non-negative`,
    setup: [sts(`vs-${id.slice(1)}`)],
    call: status(`vs-${id.slice(1)}`, { [f]: -1 }),
    cause: invalidValue(`status.${f}`, '-1', NEG),
  })),
  ...(
    [
      ['S39', 'readyReplicas'],
      ['S40', 'currentReplicas'],
      ['S41', 'updatedReplicas'],
      ['S42', 'availableReplicas'],
    ] as const
  ).map(([id, f]): ValidationCase => ({
    rule: `${id} status.${f} at most status.replicas`,
    setup: [sts(`vs-${id.slice(1)}`)],
    call: status(`vs-${id.slice(1)}`, { replicas: 1, readyReplicas: 1, [f]: 2 }),
    cause: invalidValue(`status.${f}`, '2', OVER),
  })),
  {
    rule: 'S43 status.availableReplicas at most status.readyReplicas',
    setup: [sts('vs-43')],
    call: status('vs-43', { replicas: 2, readyReplicas: 1, availableReplicas: 2 }),
    cause: invalidValue('status.availableReplicas', '2', 'cannot be greater than status.readyReplicas'),
  },
  {
    rule: 'S44 status.collisionCount not decremented',
    setup: [sts('vs-44'), status('vs-44', { collisionCount: 2 })],
    call: status('vs-44', { collisionCount: 1 }),
    cause: invalidValue('status.collisionCount', '1', 'cannot be decremented'),
  },
];

const accepted: Call[] = [
  sts('vs-ok', { volumeClaimTemplates: [goodClaim] }),
  patch('vs-ok', {
    spec: {
      replicas: 3,
      ordinals: { start: 5 },
      minReadySeconds: 4,
      revisionHistoryLimit: 2,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' },
      updateStrategy: { type: 'OnDelete', rollingUpdate: null },
      template: { metadata: { annotations: { a: 'b' } } },
    },
  }),
  status('vs-ok', { replicas: 2, readyReplicas: 2, availableReplicas: 1, collisionCount: 1 }),
];

validationSuite('StatefulSet validation (apps/v1)', () => srv, cases, accepted);

describe('StatefulSet generation', () => {
  it('counts spec changes only; /status leaves generation alone', async () => {
    const made = await srv.api('POST', STS, sts('vs-gen')[2]);
    expect(made.status, made.text).toBe(201);
    expect(made.body.metadata.generation).toBe(1);
    const st = await srv.api(...status('vs-gen', { replicas: 1, observedGeneration: 1 }));
    expect(st.status, st.text).toBe(200);
    expect(st.body.metadata.generation).toBe(1);
    const labelled = await srv.api(...patch('vs-gen', { metadata: { labels: { x: 'y' } } }));
    expect(labelled.body.metadata.generation).toBe(1);
    const scaled = await srv.api(...patch('vs-gen', { spec: { replicas: 2 } }));
    expect(scaled.status, scaled.text).toBe(200);
    expect(scaled.body.metadata.generation).toBe(2);
    expect(scaled.body.status.observedGeneration).toBe(1);
  });
});
