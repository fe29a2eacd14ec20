/** One case per rule of docs/validation/storageclasses.md (StorageClass, storage.k8s.io/v1). */
import { useTestServer } from '../helpers/in-process.js';
import {
  duplicate,
  forbidden,
  immutable,
  invalidValue,
  merge,
  required,
  unsupported,
  validationSuite,
  type Call,
} from '../helpers/validation-cases.js';

const srv = useTestServer();
const SCS = '/apis/storage.k8s.io/v1/storageclasses';
const sc = (name: string, fields: object = {}): Call => [
  'POST',
  SCS,
  { metadata: { name }, provisioner: 'example.com/nfs', ...fields },
];
const patch = (name: string, body: object): Call => ['PATCH', `${SCS}/${name}`, body, merge];
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const zone = (...values: string[]) => ({ key: 'topology.kubernetes.io/zone', values });

validationSuite(
  'StorageClass validation (one case per rule)',
  () => srv,
  [
    { rule: '1 provisioner required', call: sc('vsc-1', { provisioner: '' }), cause: required('provisioner') },
    {
      rule: '2 provisioner a qualified name (lower-cased)',
      call: sc('vsc-2', { provisioner: 'Example.com/-NFS' }),
      cause: invalidValue('provisioner', '"example.com/-nfs"', NAME_PART),
    },
    {
      rule: '3 at most 512 parameters',
      call: sc('vsc-3', { parameters: Object.fromEntries(Array.from({ length: 513 }, (_, i) => [`k${i}`, 'v'])) }),
      cause: { field: 'parameters', reason: 'FieldValueTooLong', message: 'Too long: may not be more than 512 bytes' },
    },
    {
      rule: '4 parameter keys non-empty',
      call: sc('vsc-4', { parameters: { '': 'v' } }),
      cause: invalidValue('parameters', '""', 'field can not be empty.'),
    },
    {
      rule: '5 parameters at most 256 KiB',
      call: sc('vsc-5', { parameters: { big: 'x'.repeat(256 * 1024) } }),
      cause: {
        field: 'parameters',
        reason: 'FieldValueTooLong',
        message: 'Too long: may not be more than 262144 bytes',
      },
    },
    {
      rule: '6 reclaimPolicy Delete or Retain',
      call: sc('vsc-6', { reclaimPolicy: 'Recycle' }),
      cause: unsupported('reclaimPolicy', 'Recycle', ['Delete', 'Retain']),
    },
    {
      rule: '7 volumeBindingMode Immediate or WaitForFirstConsumer',
      call: sc('vsc-7', { volumeBindingMode: 'Later' }),
      cause: unsupported('volumeBindingMode', 'Later', ['Immediate', 'WaitForFirstConsumer']),
    },
    {
      rule: '8 topology requirement values required',
      call: sc('vsc-8', { allowedTopologies: [{ matchLabelExpressions: [zone()] }] }),
      cause: required('allowedTopologies[0].matchLabelExpressions[0].values'),
    },
    {
      rule: '9 topology requirement values a set',
      call: sc('vsc-9', { allowedTopologies: [{ matchLabelExpressions: [zone('a', 'a')] }] }),
      cause: duplicate('allowedTopologies[0].matchLabelExpressions[0].values[1]', 'Duplicate value: "a"'),
    },
    {
      rule: '10 topology requirement key a label name',
      call: sc('vsc-10', { allowedTopologies: [{ matchLabelExpressions: [{ key: 'bad key', values: ['a'] }] }] }),
      cause: invalidValue('allowedTopologies[0].matchLabelExpressions[0].key', '"bad key"', NAME_PART),
    },
    {
      rule: '11 topology keys once per term',
      call: sc('vsc-11', { allowedTopologies: [{ matchLabelExpressions: [zone('a'), zone('b')] }] }),
      cause: duplicate(
        'allowedTopologies[0].matchLabelExpressions[1].key',
        'Duplicate value: "topology.kubernetes.io/zone"',
      ),
    },
    {
      rule: '12 topology terms distinct',
      call: sc('vsc-12', {
        allowedTopologies: [{ matchLabelExpressions: [zone('a', 'b')] }, { matchLabelExpressions: [zone('b', 'a')] }],
      }),
      cause: duplicate('allowedTopologies[1].matchLabelExpressions', 'Duplicate value: ""'),
    },
    {
      rule: '13 parameters immutable',
      setup: [sc('vsc-13', { parameters: { a: '1' } })],
      call: patch('vsc-13', { parameters: { a: '2' } }),
      cause: forbidden('parameters', 'updates to parameters are forbidden.'),
    },
    {
      rule: '14 provisioner immutable',
      setup: [sc('vsc-14')],
      call: patch('vsc-14', { provisioner: 'example.com/other' }),
      cause: forbidden('provisioner', 'updates to provisioner are forbidden.'),
    },
    {
      rule: '15 reclaimPolicy immutable',
      setup: [sc('vsc-15')],
      call: patch('vsc-15', { reclaimPolicy: 'Retain' }),
      cause: forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'),
    },
    {
      rule: '16 volumeBindingMode immutable',
      setup: [sc('vsc-16')],
      call: patch('vsc-16', { volumeBindingMode: 'WaitForFirstConsumer' }),
      cause: immutable('volumeBindingMode', '"WaitForFirstConsumer"'),
    },
  ],
  [
    sc('vsc-ok-1'),
    sc('vsc-ok-2', {
      reclaimPolicy: 'Retain',
      volumeBindingMode: 'WaitForFirstConsumer',
      parameters: { type: 'gp3' },
      allowedTopologies: [{ matchLabelExpressions: [zone('a')] }, { matchLabelExpressions: [zone('b')] }],
    }),
    patch('vsc-ok-1', { allowVolumeExpansion: true, mountOptions: ['ro'], metadata: { labels: { a: 'b' } } }),
  ],
);
