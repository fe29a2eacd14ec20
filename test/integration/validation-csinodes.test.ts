/** One case per rule of docs/validation/csinodes.md (CSINode, storage.k8s.io/v1). */
import { useTestServer } from '../helpers/in-process.js';
import {
  duplicate,
  invalid,
  invalidValue,
  merge,
  required,
  validationSuite,
  type Call,
} from '../helpers/validation-cases.js';

const srv = useTestServer();
const NODES = '/apis/storage.k8s.io/v1/csinodes';
const drv = (fields: object = {}) => ({ name: 'csi.example.com', nodeID: 'n1', ...fields });
const node = (name: string, ...drivers: object[]): Call => ['POST', NODES, { metadata: { name }, spec: { drivers } }];
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

validationSuite(
  'CSINode validation (one case per rule)',
  () => srv,
  [
    { rule: '1 driver name required', call: node('vcn-1', drv({ name: '' })), cause: required('spec.drivers[0].name') },
    {
      rule: '2 driver name at most 63 bytes',
      call: node('vcn-2', drv({ name: `${'a'.repeat(60)}.example` })),
      cause: {
        field: 'spec.drivers[0].name',
        reason: 'FieldValueTooLong',
        message: 'Too long: may not be more than 63 bytes',
      },
    },
    {
      rule: '3 driver name a DNS subdomain',
      call: node('vcn-3', drv({ name: 'csi_driver' })),
      cause: invalidValue('spec.drivers[0].name', '"csi_driver"', SUBDOMAIN),
    },
    { rule: '4 nodeID required', call: node('vcn-4', drv({ nodeID: '' })), cause: required('spec.drivers[0].nodeID') },
    {
      rule: '5 nodeID at most 256 characters',
      call: node('vcn-5', drv({ nodeID: 'n'.repeat(257) })),
      cause: invalidValue('spec.drivers[0].nodeID', JSON.stringify('n'.repeat(257)), 'must be 256 characters or less'),
    },
    {
      rule: '6 allocatable count non-negative',
      call: node('vcn-6', drv({ allocatable: { count: -1 } })),
      cause: invalidValue('spec.drivers[0].allocatable.count', '-1', 'must be greater than or equal to 0'),
    },
    {
      rule: '7 driver names distinct',
      call: node('vcn-7', drv(), drv({ nodeID: 'n2' })),
      cause: duplicate('spec.drivers[1].name', 'Duplicate value: "csi.example.com"'),
    },
    {
      rule: '8 topology keys non-empty',
      call: node('vcn-8', drv({ topologyKeys: [''] })),
      cause: required('spec.drivers[0]'),
    },
    {
      rule: '9 topology keys distinct',
      call: node('vcn-9', drv({ topologyKeys: ['zone', 'zone'] })),
      cause: duplicate('spec.drivers[0]', 'Duplicate value: "zone"'),
    },
    {
      rule: '10 topology keys qualified names',
      call: node('vcn-10', drv({ topologyKeys: ['bad key'] })),
      cause: invalidValue('spec.drivers[0]', '"bad key"', NAME_PART),
    },
    {
      rule: '11 a listed driver immutable',
      setup: [node('vcn-11', drv())],
      call: ['PUT', `${NODES}/vcn-11`, { metadata: { name: 'vcn-11' }, spec: { drivers: [drv({ nodeID: 'n2' })] } }],
      cause: invalid(
        'spec.drivers',
        'Invalid value: storage.CSINodeDriver{Name:"csi.example.com", NodeID:"n2", TopologyKeys:[]string(nil), Allocatable:(*storage.VolumeNodeResources)(nil)}: field is immutable',
      ),
    },
  ],
  [
    node('vcn-ok-1', drv({ topologyKeys: ['topology.kubernetes.io/zone'], allocatable: { count: 0 } })),
    node('vcn-ok-2'),
    ['PATCH', `${NODES}/vcn-ok-2`, { spec: { drivers: [drv()] } }, merge],
    ['PUT', `${NODES}/vcn-ok-2`, { metadata: { name: 'vcn-ok-2' }, spec: { drivers: [] } }],
  ],
);
