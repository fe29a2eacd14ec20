/** One case per ReplicaSet rule of docs/validation/deployments-replicasets.md (rules R1-R21). */
import { useTestServer } from '../helpers/in-process.js';
import {
  immutable,
  invalidValue,
  required,
  unsupported,
  validationSuite,
  type ValidationCase,
} from '../helpers/validation-cases.js';
import {
  create,
  gce,
  MERGE,
  NEG,
  OVER,
  qualified,
  rs,
  RS,
  RS_EXT,
  selectorOf,
  spec,
  status,
} from '../helpers/apps-workloads.js';

const srv = useTestServer();

const replicaSetCases: ValidationCase[] = [
  {
    rule: 'R1 replicas non-negative',
    call: rs('vr-1', { replicas: -1 }),
    cause: invalidValue('spec.replicas', '-1', NEG),
  },
  {
    rule: 'R2 minReadySeconds non-negative',
    call: rs('vr-2', { minReadySeconds: -1 }),
    cause: invalidValue('spec.minReadySeconds', '-1', NEG),
  },
  {
    rule: 'R3 selector required (apps/v1)',
    call: create(RS, 'vr-3', { template: spec('vr-3').template }),
    cause: required('spec.selector'),
  },
  {
    rule: 'R4 selector valid',
    call: rs('vr-4', { selector: { matchLabels: { 'bad key': 'x' } } }),
    cause: invalidValue('spec.selector.matchLabels', '"bad key"', qualified),
  },
  {
    rule: 'R5 selector not empty (worded for deployments, as upstream)',
    call: rs('vr-5', { selector: {} }),
    cause: invalidValue(
      'spec.selector',
      selectorOf('map[string]string(nil)'),
      'empty selector is not valid for deployment.',
    ),
  },
  {
    rule: 'R6 selector buildable',
    call: rs('vr-6', { selector: { matchExpressions: [{ key: 'app', operator: 'Near' }] } }),
    cause: invalidValue(
      'spec.selector',
      selectorOf(
        'map[string]string(nil)',
        '[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Near", Values:[]string(nil)}}',
      ),
      'invalid label selector.',
    ),
  },
  {
    rule: 'R7 selector selects the template labels',
    call: rs('vr-7', { selector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['vr-7'] }] } }),
    cause: invalidValue(
      'spec.template.metadata.labels',
      'map[string]string{"app":"vr-7"}',
      '`selector` does not match template `labels`',
    ),
  },
  {
    rule: 'R8 restartPolicy Always',
    call: rs('vr-8', {}, { restartPolicy: 'Never' }),
    cause: unsupported('spec.template.spec.restartPolicy', 'Never', ['Always']),
  },
  {
    rule: 'R9 no activeDeadlineSeconds',
    call: rs('vr-9', {}, { activeDeadlineSeconds: 5 }),
    cause: invalidValue('spec.template.spec.activeDeadlineSeconds', '5', 'must not be specified'),
  },
  {
    rule: 'R10 GCE disks read-only above one replica',
    call: rs('vr-10', { replicas: 3 }, gce),
    cause: invalidValue(
      'spec.template.spec.volumes[0].gcePersistentDisk.readOnly',
      'false',
      'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
    ),
  },
  {
    rule: 'R11 selector immutable (apps/v1, apps/v1beta2)',
    setup: [rs('vr-11')],
    call: [
      'PATCH',
      `${RS}/vr-11`,
      { spec: { selector: { matchLabels: null, matchExpressions: [{ key: 'app', operator: 'Exists' }] } } },
      MERGE,
    ],
    cause: immutable(
      'spec.selector',
      selectorOf(
        'map[string]string(nil)',
        '[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Exists", Values:[]string(nil)}}',
      ),
    ),
  },
  ...(
    [
      'replicas',
      'fullyLabeledReplicas',
      'readyReplicas',
      'availableReplicas',
      'observedGeneration',
      'terminatingReplicas',
    ] as const
  ).map((field, i) => ({
    rule: `R${12 + i} status.${field} non-negative`,
    setup: [rs(`vr-${12 + i}`)],
    call: status(RS, `vr-${12 + i}`, { [field]: -1 }),
    cause: invalidValue(`status.${field}`, '-1', NEG),
  })),
  ...(['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'] as const).map((field, i) => ({
    rule: `R${18 + i} status.${field} at most status.replicas`,
    setup: [rs(`vr-${18 + i}`)],
    call: status(RS, `vr-${18 + i}`, { replicas: 1, readyReplicas: 2, [field]: 2 }),
    cause: invalidValue(`status.${field}`, '2', OVER),
  })),
  {
    rule: 'R21 status.availableReplicas at most readyReplicas',
    setup: [rs('vr-21')],
    call: status(RS, 'vr-21', { replicas: 2, readyReplicas: 0, availableReplicas: 1 }),
    cause: invalidValue('status.availableReplicas', '1', 'cannot be greater than readyReplicas'),
  },
];

validationSuite('ReplicaSet validation (one case per rule)', () => srv, replicaSetCases, [
  rs('vr-ok-1', { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['vr-ok-1', 'x'] }] } }),
  create(RS_EXT, 'vr-ok-2', { template: spec('vr-ok-2').template }),
  // extensions/v1beta1 may change the selector.
  [
    'PATCH',
    `${RS_EXT}/vr-ok-2`,
    { spec: { selector: { matchLabels: null, matchExpressions: [{ key: 'app', operator: 'Exists' }] } } },
    MERGE,
  ],
  status(RS, 'vr-ok-1', { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 1 }),
]);
