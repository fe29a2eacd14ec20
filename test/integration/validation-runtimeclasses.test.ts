/** One case per rule of docs/validation/runtimeclasses.md (RuntimeClass, node.k8s.io/v1). */
import { validateDns1123Label, validateLabelValue, validateQualifiedName } from '../../src/api/names.js';
import { useTestServer } from '../helpers/in-process.js';
import { immutable, invalidValue, merge, validationSuite, type Call } from '../helpers/validation-cases.js';

const srv = useTestServer();
const RCS = '/apis/node.k8s.io/v1/runtimeclasses';
const rc = (name: string, fields: object = {}): Call => [
  'POST',
  RCS,
  { metadata: { name }, handler: 'runc', ...fields },
];
const sched = (s: object) => ({ scheduling: s });

validationSuite(
  'RuntimeClass validation (one case per rule)',
  () => srv,
  [
    {
      rule: '1 handler a DNS-1123 label',
      call: rc('vrc-1', { handler: 'Run_C' }),
      cause: invalidValue('handler', '"Run_C"', validateDns1123Label('Run_C')[0]!),
    },
    {
      rule: '2 handler at most 63 characters',
      call: rc('vrc-2', { handler: 'h'.repeat(64) }),
      cause: invalidValue('handler', JSON.stringify('h'.repeat(64)), 'must be no more than 63 characters'),
    },
    {
      rule: '3 overhead quantities non-negative',
      call: rc('vrc-3', { overhead: { podFixed: { cpu: '-1' } } }),
      cause: invalidValue('overhead.limits[cpu]', '"-1"', 'must be greater than or equal to 0'),
    },
    {
      rule: '4 overhead resources standard for containers',
      call: rc('vrc-4', { overhead: { podFixed: { pods: '1' } } }),
      cause: invalidValue('overhead.limits[pods]', '"pods"', 'must be a standard resource for containers'),
    },
    {
      rule: '5 nodeSelector keys are label names',
      call: rc('vrc-5', sched({ nodeSelector: { 'bad key': 'x' } })),
      cause: invalidValue('scheduling.nodeSelector', '"bad key"', validateQualifiedName('bad key')[0]!),
    },
    {
      rule: '6 nodeSelector values are label values',
      call: rc('vrc-6', sched({ nodeSelector: { k: 'bad value' } })),
      cause: invalidValue('scheduling.nodeSelector', '"bad value"', validateLabelValue('bad value')[0]!),
    },
    {
      rule: '7 tolerations as a pod’s (tolerationSeconds only with NoExecute)',
      call: rc(
        'vrc-7',
        sched({ tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }] }),
      ),
      cause: invalidValue(
        'scheduling.tolerations[0].effect',
        '"NoSchedule"',
        "effect must be 'NoExecute' when `tolerationSeconds` is set",
      ),
    },
    {
      rule: '8 handler immutable',
      setup: [rc('vrc-8')],
      call: ['PATCH', `${RCS}/vrc-8`, { handler: 'kata' }, merge],
      cause: immutable('handler', '"kata"'),
    },
  ],
  [
    rc('vrc-ok-1', { overhead: { podFixed: { cpu: '100m', memory: '10Mi' } } }),
    rc('vrc-ok-2', sched({ nodeSelector: { 'example.com/x': 'y' }, tolerations: [{ operator: 'Exists' }] })),
  ],
);
