/** One case per HorizontalPodAutoscaler rule of docs/validation/horizontalpodautoscalers.md (rules H1-H39). */
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
import { MERGE, NEG } from '../helpers/apps-workloads.js';

const srv = useTestServer();

const HPA = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const HPA_V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const hpa = (name: string, extra: object = {}, path = HPA): Call => [
  'POST',
  path,
  { metadata: { name }, spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3, ...extra } },
];
const withMetric = (name: string, metric: object) => hpa(name, { metrics: [metric] });
const status = (name: string, s: object): Call => ['PATCH', `${HPA}/${name}/status`, { status: s }, MERGE];
const M = 'spec.metrics[0]';
const SOURCES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const segment = "may not contain '/'";
const metric = { name: 'qps' };
const avg = (averageValue: unknown) => ({ type: 'AverageValue', averageValue });
const cpu = (target: object) => ({ type: 'Resource', resource: { name: 'cpu', target } });
const behavior = (dir: 'scaleUp' | 'scaleDown', rules: object) => hpa(`x`, { behavior: { [dir]: rules } });
const rules = (name: string, dir: 'scaleUp' | 'scaleDown', r: object): Call => {
  const call = behavior(dir, r);
  (call[2] as { metadata: { name: string } }).metadata.name = name;
  return call;
};
/** Go's `%#v` of a resource.Quantity held as an int64 amount (a *Quantity field prints its struct). */
const goQuantity = (n: number) =>
  `resource.Quantity{i:resource.int64Amount{value:${n}, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"${n}", Format:"DecimalSI"}`;
const pods = (policies: object[]) => ({ policies });

const cases: ValidationCase[] = [
  {
    rule: 'H1 minReplicas at least 1 (scaling to zero is off)',
    call: hpa('vh-1', { minReplicas: 0 }),
    cause: invalidValue('spec.minReplicas', '0', 'must be greater than or equal to 1'),
  },
  {
    rule: 'H2 maxReplicas above 0',
    call: hpa('vh-2', { minReplicas: null, maxReplicas: 0 }),
    cause: invalidValue('spec.maxReplicas', '0', 'must be greater than 0'),
  },
  {
    rule: 'H3 maxReplicas at least minReplicas',
    call: hpa('vh-3', { minReplicas: 4 }),
    cause: invalidValue('spec.maxReplicas', '3', 'must be greater than or equal to `minReplicas`'),
  },
  {
    rule: 'H4 scaleTargetRef kind required',
    call: hpa('vh-4', { scaleTargetRef: { ...ref, kind: '' } }),
    cause: required('spec.scaleTargetRef.kind'),
  },
  {
    rule: 'H5 scaleTargetRef kind a path segment name',
    call: hpa('vh-5', { scaleTargetRef: { ...ref, kind: 'apps/Deployment' } }),
    cause: invalidValue('spec.scaleTargetRef.kind', '"apps/Deployment"', segment),
  },
  {
    rule: 'H6 scaleTargetRef name required',
    call: hpa('vh-6', { scaleTargetRef: { ...ref, name: '' } }),
    cause: required('spec.scaleTargetRef.name'),
  },
  {
    rule: 'H7 scaleTargetRef name a path segment name',
    call: hpa('vh-7', { scaleTargetRef: { ...ref, name: '..' } }),
    cause: invalidValue('spec.scaleTargetRef.name', '".."', "may not be '..'"),
  },
  {
    rule: 'H8 metric source type required',
    call: withMetric('vh-8', { type: '', resource: cpu({ type: 'Utilization', averageUtilization: 50 }).resource }),
    cause: required(`${M}.type`, 'must specify a metric source type'),
  },
  {
    rule: 'H9 metric source type known',
    call: withMetric('vh-9', { type: 'Custom' }),
    cause: unsupported(`${M}.type`, 'Custom', SOURCES),
  },
  {
    rule: 'H10 the source of the type is given',
    call: withMetric('vh-10', { type: 'Pods' }),
    cause: required(`${M}.pods`, 'must populate information for the given metric source'),
  },
  {
    rule: 'H11 only the source of the type is given',
    call: withMetric('vh-11', {
      ...cpu({ type: 'Utilization', averageUtilization: 50 }),
      pods: { metric, target: avg('1') },
    }),
    cause: forbidden(`${M}.pods`, 'must populate the given metric source only'),
  },
  {
    rule: 'H12 object describedObject a valid reference (H4-H7 rules)',
    call: withMetric('vh-12', {
      type: 'Object',
      object: { describedObject: { kind: 'Ingress', name: '' }, metric, target: { type: 'Value', value: '10' } },
    }),
    cause: required(`${M}.object.describedObject.name`),
  },
  {
    rule: 'H13 metric name required',
    call: withMetric('vh-13', { type: 'Pods', pods: { metric: { name: '' }, target: avg('1') } }),
    cause: required(`${M}.pods.metric.name`, 'must specify a metric name'),
  },
  {
    rule: 'H14 metric name a path segment name',
    call: withMetric('vh-14', { type: 'External', external: { metric: { name: 'a/b' }, target: avg('1') } }),
    cause: invalidValue(`${M}.external.metric.name`, '"a/b"', segment),
  },
  {
    rule: 'H15 object target has a value or averageValue',
    call: withMetric('vh-15', {
      type: 'Object',
      object: { describedObject: { kind: 'Ingress', name: 'i' }, metric, target: { type: 'Value' } },
    }),
    cause: required(`${M}.object.target.averageValue`, 'must set either a target value or averageValue'),
  },
  {
    rule: 'H16 target type required',
    call: withMetric('vh-16', { type: 'Pods', pods: { metric, target: { type: '', averageValue: '1' } } }),
    cause: required(`${M}.pods.target.type`, 'must specify a metric target type'),
  },
  {
    rule: 'H17 target type Utilization, Value or AverageValue',
    call: withMetric('vh-17', { type: 'Pods', pods: { metric, target: { type: 'Max', averageValue: '1' } } }),
    cause: invalidValue(`${M}.pods.target.type`, '"Max"', 'must be either Utilization, Value, or AverageValue'),
  },
  {
    rule: 'H18 target value positive',
    call: withMetric('vh-18', { type: 'External', external: { metric, target: { type: 'Value', value: '0' } } }),
    cause: invalidValue(`${M}.external.target.value`, goQuantity(0), 'must be positive'),
  },
  {
    rule: 'H19 target averageValue positive',
    call: withMetric('vh-19', { type: 'Pods', pods: { metric, target: avg('-1') } }),
    cause: invalidValue(`${M}.pods.target.averageValue`, goQuantity(-1), 'must be positive'),
  },
  {
    rule: 'H20 target averageUtilization above 0',
    call: withMetric('vh-20', cpu({ type: 'Utilization', averageUtilization: 0 })),
    cause: invalidValue(`${M}.resource.target.averageUtilization`, '0', 'must be greater than 0'),
  },
  {
    rule: 'H21 external target has a value or averageValue',
    call: withMetric('vh-21', { type: 'External', external: { metric, target: { type: 'Value' } } }),
    cause: required(
      `${M}.external.target.averageValue`,
      'must set either a target value for metric or a per-pod target',
    ),
  },
  {
    rule: 'H22 external target not both value and averageValue',
    call: withMetric('vh-22', {
      type: 'External',
      external: { metric, target: { type: 'Value', value: '1', averageValue: '1' } },
    }),
    cause: forbidden(`${M}.external.target.value`, 'may not set both a target value for metric and a per-pod target'),
  },
  {
    rule: 'H23 pods target has an averageValue',
    call: withMetric('vh-23', { type: 'Pods', pods: { metric, target: { type: 'Value', value: '1' } } }),
    cause: required(`${M}.pods.target.averageValue`, 'must specify a positive target averageValue'),
  },
  {
    rule: 'H24 resource name required',
    call: withMetric('vh-24', {
      type: 'Resource',
      resource: { name: '', target: { type: 'Utilization', averageUtilization: 5 } },
    }),
    cause: required(`${M}.resource.name`, 'must specify a resource name'),
  },
  {
    rule: 'H25 resource target has averageUtilization or averageValue',
    call: withMetric('vh-25', cpu({ type: 'Value', value: '1' })),
    cause: required(
      `${M}.resource.target.averageUtilization`,
      'must set either a target raw value or a target utilization',
    ),
  },
  {
    rule: 'H26 resource target not both averageUtilization and averageValue',
    call: withMetric('vh-26', cpu({ type: 'Utilization', averageUtilization: 5, averageValue: '1' })),
    cause: forbidden(
      `${M}.resource.target.averageValue`,
      'may not set both a target raw value and a target utilization',
    ),
  },
  {
    rule: 'H27 containerResource container required',
    call: withMetric('vh-27', {
      type: 'ContainerResource',
      containerResource: { name: 'cpu', container: '', target: { type: 'Utilization', averageUtilization: 5 } },
    }),
    cause: required(`${M}.containerResource.container`, 'must specify a container'),
  },
  {
    rule: 'H28 containerResource container a DNS-1123 label',
    call: withMetric('vh-28', {
      type: 'ContainerResource',
      containerResource: { name: 'cpu', container: 'App_1', target: { type: 'Utilization', averageUtilization: 5 } },
    }),
    cause: invalidValue(
      `${M}.containerResource.container`,
      '"App_1"',
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ),
  },
  {
    rule: 'H29 containerResource name a container resource name',
    call: withMetric('vh-28b', {
      type: 'ContainerResource',
      containerResource: { name: 'gpu', container: 'app', target: { type: 'AverageValue', averageValue: '1' } },
    }),
    cause: invalidValue(`${M}.containerResource.name`, '"gpu"', 'must be a standard resource for containers'),
  },
  {
    rule: 'H30 stabilizationWindowSeconds non-negative',
    call: rules('vh-29', 'scaleUp', { stabilizationWindowSeconds: -1 }),
    cause: invalidValue(
      'spec.behavior.scaleUp.stabilizationWindowSeconds',
      '-1',
      'must be greater than or equal to zero',
    ),
  },
  {
    rule: 'H31 stabilizationWindowSeconds at most 3600',
    call: rules('vh-30', 'scaleDown', { stabilizationWindowSeconds: 3601 }),
    cause: invalidValue(
      'spec.behavior.scaleDown.stabilizationWindowSeconds',
      '3601',
      'must be less than or equal to 3600',
    ),
  },
  {
    rule: 'H32 selectPolicy Disabled, Max or Min',
    call: rules('vh-31', 'scaleUp', { selectPolicy: 'Avg' }),
    cause: unsupported('spec.behavior.scaleUp.selectPolicy', 'Avg', ['Disabled', 'Max', 'Min']),
  },
  {
    rule: 'H33 at least one policy',
    call: rules('vh-32', 'scaleDown', pods([])),
    cause: required('spec.behavior.scaleDown.policies', 'must specify at least one Policy'),
  },
  {
    rule: 'H34 policy type Percent or Pods',
    call: rules('vh-33', 'scaleUp', pods([{ type: 'Nodes', value: 1, periodSeconds: 15 }])),
    cause: unsupported('spec.behavior.scaleUp.policies[0].type', 'Nodes', ['Percent', 'Pods']),
  },
  {
    rule: 'H35 policy value above 0',
    call: rules('vh-34', 'scaleUp', pods([{ type: 'Pods', value: 0, periodSeconds: 15 }])),
    cause: invalidValue('spec.behavior.scaleUp.policies[0].value', '0', 'must be greater than zero'),
  },
  {
    rule: 'H36 policy periodSeconds above 0',
    call: rules('vh-35', 'scaleDown', pods([{ type: 'Percent', value: 10, periodSeconds: 0 }])),
    cause: invalidValue('spec.behavior.scaleDown.policies[0].periodSeconds', '0', 'must be greater than zero'),
  },
  {
    rule: 'H37 policy periodSeconds at most 1800',
    call: rules('vh-36', 'scaleDown', pods([{ type: 'Percent', value: 10, periodSeconds: 1801 }])),
    cause: invalidValue(
      'spec.behavior.scaleDown.policies[0].periodSeconds',
      '1801',
      'must be less than or equal to 1800',
    ),
  },
  {
    rule: 'H38 status.currentReplicas non-negative',
    setup: [hpa('vh-37')],
    call: status('vh-37', { currentReplicas: -1, desiredReplicas: 1 }),
    cause: invalidValue('status.currentReplicas', '-1', NEG),
  },
  {
    rule: 'H39 status.desiredReplicas non-negative',
    setup: [hpa('vh-38')],
    call: status('vh-38', { currentReplicas: 1, desiredReplicas: -1 }),
    cause: invalidValue('status.desiredReplicas', '-1', NEG),
  },
  {
    rule: 'H1 at autoscaling/v1: minReplicas at least 1',
    call: hpa('vh-v1', { minReplicas: 0 }, HPA_V1),
    cause: invalidValue('spec.minReplicas', '0', 'must be greater than or equal to 1'),
  },
];

const accepted: Call[] = [
  withMetric('vh-ok1', {
    type: 'Object',
    object: { describedObject: { kind: 'Ingress', name: 'i' }, metric, target: { type: 'Value', value: '10' } },
  }),
  withMetric('vh-ok2', { type: 'External', external: { metric, target: avg('500m') } }),
  withMetric('vh-ok3', {
    type: 'ContainerResource',
    containerResource: { name: 'memory', container: 'app', target: { type: 'AverageValue', averageValue: '100Mi' } },
  }),
  rules('vh-ok4', 'scaleDown', {
    stabilizationWindowSeconds: 3600,
    selectPolicy: 'Disabled',
    policies: [{ type: 'Pods', value: 1, periodSeconds: 1800 }],
  }),
  status('vh-ok4', { currentReplicas: 0, desiredReplicas: 0 }),
];

validationSuite('HorizontalPodAutoscaler validation (autoscaling/v2)', () => srv, cases, accepted);

describe('HorizontalPodAutoscaler generation', () => {
  it('counts spec changes only; /status leaves generation alone', async () => {
    const made = await srv.api(...hpa('vh-gen'));
    expect(made.status, made.text).toBe(201);
    expect(made.body.metadata.generation).toBe(1);
    const st = await srv.api(...status('vh-gen', { currentReplicas: 1, desiredReplicas: 2 }));
    expect(st.status, st.text).toBe(200);
    expect(st.body.metadata.generation).toBe(1);
    const changed = await srv.api('PATCH', `${HPA}/vh-gen`, { spec: { maxReplicas: 5 } }, MERGE);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.metadata.generation).toBe(2);
  });
});
