/** One case per ControllerRevision rule of docs/validation/controllerrevisions.md (rules CR1-CR4). */
import { useTestServer } from '../helpers/in-process.js';
import {
  invalidValue,
  required,
  validationSuite,
  type Call,
  type ValidationCase,
} from '../helpers/validation-cases.js';
import { MERGE, NEG } from '../helpers/apps-workloads.js';

const srv = useTestServer();

const CR = '/apis/apps/v1/namespaces/default/controllerrevisions';
const cr = (name: string, body: object): Call => ['POST', CR, { metadata: { name }, ...body }];

const cases: ValidationCase[] = [
  { rule: 'CR1 data required', call: cr('vcr-1', { revision: 1 }), cause: required('data', 'data is mandatory') },
  {
    rule: 'CR2 data a JSON object',
    call: cr('vcr-2', { revision: 1, data: 'text' }),
    cause: invalidValue(
      'data',
      '"<value omitted>"',
      'error parsing data: json: cannot unmarshal string into Go value of type map[string]interface {}',
    ),
  },
  {
    rule: 'CR3 revision non-negative',
    call: cr('vcr-3', { revision: -1, data: {} }),
    cause: invalidValue('revision', '-1', NEG),
  },
  {
    rule: 'CR4 data immutable',
    setup: [cr('vcr-4', { revision: 1, data: { a: 1 } })],
    call: ['PATCH', `${CR}/vcr-4`, { data: { a: 2 } }, MERGE],
    cause: invalidValue(
      'data',
      'runtime.RawExtension{Raw:[]uint8{0x7b, 0x22, 0x61, 0x22, 0x3a, 0x32, 0x7d}, Object:runtime.Object(nil)}',
      'field is immutable',
    ),
  },
];

const accepted: Call[] = [
  cr('vcr-ok', { revision: 0, data: { spec: { template: {} } } }),
  ['PATCH', `${CR}/vcr-ok`, { revision: 2, metadata: { labels: { a: 'b' } } }, MERGE],
];

validationSuite('ControllerRevision validation (apps/v1)', () => srv, cases, accepted);
