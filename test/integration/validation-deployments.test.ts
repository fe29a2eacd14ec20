/** One case per Deployment rule of docs/validation/deployments-replicasets.md (rules D1-D43, DeploymentRollback included). */
import { useTestServer } from '../helpers/in-process.js';
import {
  forbidden,
  immutable,
  invalidValue,
  required,
  unsupported,
  validationSuite,
  type ValidationCase,
} from '../helpers/validation-cases.js';
import {
  create,
  deploy,
  DEPLOY,
  DEPLOY_B1,
  DEPLOY_EXT,
  gce,
  labelValue,
  NEG,
  notSupported,
  OVER,
  percent,
  qualified,
  selectorOf,
  spec,
  status,
  STRATEGIC,
} from '../helpers/apps-workloads.js';

const srv = useTestServer();

const deploymentCases: ValidationCase[] = [
  {
    rule: 'D1 replicas non-negative',
    call: deploy('vd-1', { replicas: -1 }),
    cause: invalidValue('spec.replicas', '-1', NEG),
  },
  {
    rule: 'D2 selector required (apps/v1)',
    call: create(DEPLOY, 'vd-2', { template: spec('vd-2').template }),
    cause: required('spec.selector'),
  },
  {
    rule: 'D3 selector matchLabels keys qualified names',
    call: deploy('vd-3', { selector: { matchLabels: { 'bad key': 'x' } } }),
    cause: invalidValue('spec.selector.matchLabels', '"bad key"', qualified),
  },
  {
    rule: 'D4 selector matchLabels values label values',
    call: deploy('vd-4', { selector: { matchLabels: { app: 'bad value!' } } }),
    cause: invalidValue('spec.selector.matchLabels', '"bad value!"', labelValue),
  },
  {
    rule: 'D5 In/NotIn expressions need values',
    call: deploy('vd-5', { selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }),
    cause: required('spec.selector.matchExpressions[0].values', "must be specified when `operator` is 'In' or 'NotIn'"),
  },
  {
    rule: 'D6 Exists/DoesNotExist expressions take no values',
    call: deploy('vd-6', { selector: { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] } }),
    cause: forbidden(
      'spec.selector.matchExpressions[0].values',
      "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ),
  },
  {
    rule: 'D7 expression operator known',
    call: deploy('vd-7', { selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['x'] }] } }),
    cause: invalidValue('spec.selector.matchExpressions[0].operator', '"Near"', 'not a valid selector operator'),
  },
  {
    rule: 'D8 expression key a qualified name',
    call: deploy('vd-8', { selector: { matchExpressions: [{ key: '-app', operator: 'Exists' }] } }),
    cause: invalidValue('spec.selector.matchExpressions[0].key', '"-app"', qualified),
  },
  {
    rule: 'D9 selector not empty',
    call: deploy('vd-9', { selector: { matchLabels: {} } }),
    cause: invalidValue(
      'spec.selector',
      selectorOf('map[string]string{}'),
      'empty selector is not valid for deployment.',
    ),
  },
  {
    rule: 'D10 selector buildable',
    call: deploy('vd-10', { selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['x'] }] } }),
    cause: invalidValue(
      'spec.selector',
      selectorOf(
        'map[string]string(nil)',
        '[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Near", Values:[]string{"x"}}}',
      ),
      'invalid label selector.',
    ),
  },
  {
    rule: 'D11 selector selects the template labels',
    call: deploy('vd-11', { selector: { matchLabels: { app: 'other' } } }),
    cause: invalidValue(
      'spec.template.metadata.labels',
      'map[string]string{"app":"vd-11"}',
      '`selector` does not match template `labels`',
    ),
  },
  {
    rule: 'D12 template a valid PodTemplateSpec',
    call: create(DEPLOY, 'vd-12', { ...spec('vd-12'), template: { metadata: { labels: { app: 'vd-12' } }, spec: {} } }),
    cause: required('spec.template.spec.containers'),
  },
  {
    rule: 'D13 GCE disks read-only above one replica',
    call: deploy('vd-13', { replicas: 2 }, gce),
    cause: invalidValue(
      'spec.template.spec.volumes[0].gcePersistentDisk.readOnly',
      'false',
      'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
    ),
  },
  {
    rule: 'D14 restartPolicy Always',
    call: deploy('vd-14', {}, { restartPolicy: 'OnFailure' }),
    cause: unsupported('spec.template.spec.restartPolicy', 'OnFailure', ['Always']),
  },
  {
    rule: 'D15 no activeDeadlineSeconds',
    call: deploy('vd-15', {}, { activeDeadlineSeconds: 10 }),
    cause: invalidValue('spec.template.spec.activeDeadlineSeconds', '10', 'must not be specified'),
  },
  {
    rule: 'D16 Recreate takes no rollingUpdate',
    call: deploy('vd-16', { strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } }),
    cause: forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'"),
  },
  {
    rule: 'D17 strategy type Recreate or RollingUpdate',
    call: deploy('vd-17', { strategy: { type: 'BlueGreen' } }),
    cause: notSupported(
      'spec.strategy',
      'extensions.DeploymentStrategy{Type:"BlueGreen", RollingUpdate:(*extensions.RollingUpdateDeployment)(nil)}',
      ['Recreate', 'RollingUpdate'],
    ),
  },
  {
    rule: 'D18 maxUnavailable an integer or a percent',
    call: deploy('vd-18', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 'half' } } }),
    cause: invalidValue(
      'spec.strategy.rollingUpdate.maxUnavailable',
      'intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}',
      percent,
    ),
  },
  {
    rule: 'D19 maxSurge non-negative',
    call: deploy('vd-19', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: -1 } } }),
    cause: invalidValue('spec.strategy.rollingUpdate.maxSurge', '-1', NEG),
  },
  {
    rule: 'D20 maxUnavailable and maxSurge not both 0',
    call: deploy('vd-20', {
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } },
    }),
    cause: invalidValue(
      'spec.strategy.rollingUpdate.maxUnavailable',
      'intstr.IntOrString{Type:0, IntVal:0, StrVal:""}',
      'may not be 0 when `maxSurge` is 0',
    ),
  },
  {
    rule: 'D21 maxUnavailable at most 100%',
    call: deploy('vd-21', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '110%' } } }),
    cause: invalidValue(
      'spec.strategy.rollingUpdate.maxUnavailable',
      'intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}',
      'must not be greater than 100%',
    ),
  },
  {
    rule: 'D22 minReadySeconds non-negative',
    call: deploy('vd-22', { minReadySeconds: -1 }),
    cause: invalidValue('spec.minReadySeconds', '-1', NEG),
  },
  {
    rule: 'D23 revisionHistoryLimit non-negative',
    call: deploy('vd-23', { revisionHistoryLimit: -1 }),
    cause: invalidValue('spec.revisionHistoryLimit', '-1', NEG),
  },
  {
    rule: 'D24 rollbackTo revision non-negative (apps/v1beta1, extensions/v1beta1)',
    call: create(DEPLOY_B1, 'vd-24', spec('vd-24', { rollbackTo: { revision: -1 } })),
    cause: invalidValue('spec.rollback.version', '-1', NEG),
  },
  {
    rule: 'D25 progressDeadlineSeconds non-negative',
    call: deploy('vd-25', { progressDeadlineSeconds: -1 }),
    cause: invalidValue('spec.progressDeadlineSeconds', '-1', NEG),
  },
  {
    rule: 'D26 progressDeadlineSeconds above minReadySeconds',
    call: deploy('vd-26', { progressDeadlineSeconds: 10, minReadySeconds: 10 }),
    cause: invalidValue('spec.progressDeadlineSeconds', '10', 'must be greater than minReadySeconds.'),
  },
  {
    rule: 'D27 selector immutable (apps/v1, apps/v1beta2)',
    setup: [deploy('vd-27')],
    call: [
      'PATCH',
      `${DEPLOY}/vd-27`,
      { spec: { selector: { matchLabels: { tier: 'web' } }, template: { metadata: { labels: { tier: 'web' } } } } },
      STRATEGIC,
    ],
    cause: immutable('spec.selector', selectorOf('map[string]string{"app":"vd-27", "tier":"web"}')),
  },
  ...(
    [
      'observedGeneration',
      'replicas',
      'updatedReplicas',
      'readyReplicas',
      'availableReplicas',
      'unavailableReplicas',
      'terminatingReplicas',
      'collisionCount',
    ] as const
  ).map((field, i) => ({
    rule: `D${28 + i} status.${field} non-negative`,
    setup: [deploy(`vd-${28 + i}`)],
    call: status(DEPLOY, `vd-${28 + i}`, { [field]: -1 }),
    cause: invalidValue(`status.${field}`, '-1', NEG),
  })),
  {
    rule: 'D36 status.updatedReplicas at most status.replicas',
    setup: [deploy('vd-36')],
    call: status(DEPLOY, 'vd-36', { replicas: 1, updatedReplicas: 2 }),
    cause: invalidValue('status.updatedReplicas', '2', OVER),
  },
  {
    rule: 'D37 status.readyReplicas at most status.replicas',
    setup: [deploy('vd-37')],
    call: status(DEPLOY, 'vd-37', { replicas: 1, readyReplicas: 2, availableReplicas: 1 }),
    cause: invalidValue('status.readyReplicas', '2', OVER),
  },
  {
    rule: 'D38 status.availableReplicas at most status.replicas',
    setup: [deploy('vd-38')],
    call: status(DEPLOY, 'vd-38', { replicas: 1, availableReplicas: 2 }),
    cause: invalidValue('status.availableReplicas', '2', OVER),
  },
  {
    rule: 'D39 status.availableReplicas at most readyReplicas, once set',
    setup: [deploy('vd-39')],
    call: status(DEPLOY, 'vd-39', { replicas: 3, readyReplicas: 1, availableReplicas: 2 }),
    cause: invalidValue('status.availableReplicas', '2', 'cannot be greater than readyReplicas'),
  },
  {
    rule: 'D40 status.collisionCount not decremented',
    setup: [deploy('vd-40'), status(DEPLOY, 'vd-40', { collisionCount: 2 })],
    call: status(DEPLOY, 'vd-40', { collisionCount: 1 }),
    cause: invalidValue('status.collisionCount', '1', 'cannot be decremented'),
  },
  {
    rule: 'D41 rollback names a deployment',
    setup: [create(DEPLOY_EXT, 'vd-41', spec('vd-41'))],
    call: ['POST', `${DEPLOY_EXT}/vd-41/rollback`, { rollbackTo: { revision: 1 } }],
    cause: required('name', 'name is required'),
  },
  {
    rule: 'D42 rollback revision non-negative',
    setup: [create(DEPLOY_EXT, 'vd-42', spec('vd-42'))],
    call: ['POST', `${DEPLOY_EXT}/vd-42/rollback`, { name: 'vd-42', rollbackTo: { revision: -2 } }],
    cause: invalidValue('rollback.version', '-2', NEG),
  },
  {
    rule: 'D43 rollback updatedAnnotations keys qualified names',
    setup: [create(DEPLOY_B1, 'vd-43', spec('vd-43'))],
    call: ['POST', `${DEPLOY_B1}/vd-43/rollback`, { name: 'vd-43', updatedAnnotations: { 'bad key': 'x' } }],
    cause: invalidValue('updatedAnnotations', '"bad key"', qualified),
  },
];

validationSuite('Deployment validation (one case per rule)', () => srv, deploymentCases, [
  deploy('vd-ok-1', { strategy: { type: 'Recreate' }, minReadySeconds: 5, progressDeadlineSeconds: 6 }),
  deploy('vd-ok-2', { replicas: 2 }, { volumes: [{ name: 'd', gcePersistentDisk: { pdName: 'p', readOnly: true } }] }),
  create(DEPLOY_EXT, 'vd-ok-3', { template: spec('vd-ok-3').template }),
  // apps/v1beta1 and extensions/v1beta1 may change the selector.
  [
    'PATCH',
    `${DEPLOY_EXT}/vd-ok-3`,
    { spec: { selector: { matchLabels: { tier: 'web' } }, template: { metadata: { labels: { tier: 'web' } } } } },
    STRATEGIC,
  ],
  status(DEPLOY, 'vd-ok-1', { replicas: 2, readyReplicas: 0, availableReplicas: 1, updatedReplicas: 2 }),
]);
