/** One case per rule of docs/validation/csidrivers.md (CSIDriver, storage.k8s.io/v1). */
import { useTestServer } from '../helpers/in-process.js';
import {
  duplicate,
  invalid,
  invalidValue,
  merge,
  unsupported,
  validationSuite,
  type Call,
} from '../helpers/validation-cases.js';

const srv = useTestServer();
const DRIVERS = '/apis/storage.k8s.io/v1/csidrivers';
const driver = (name: string, spec: object = {}): Call => ['POST', DRIVERS, { metadata: { name }, spec }];
const patch = (name: string, spec: object): Call => ['PATCH', `${DRIVERS}/${name}`, { spec }, merge];

validationSuite(
  'CSIDriver validation (one case per rule)',
  () => srv,
  [
    {
      rule: '1 fsGroupPolicy supported',
      call: driver('vcd-1.example.com', { fsGroupPolicy: 'Sometimes' }),
      cause: unsupported('spec.fsGroupPolicy', 'Sometimes', ['File', 'None', 'ReadWriteOnceWithFSType']),
    },
    {
      rule: '2 token audiences distinct',
      call: driver('vcd-2.example.com', { tokenRequests: [{ audience: 'a' }, { audience: 'a' }] }),
      cause: duplicate('spec.tokenRequests[1].audience', 'Duplicate value: "a"'),
    },
    {
      rule: '3 token expiration at least 10 minutes',
      call: driver('vcd-3.example.com', { tokenRequests: [{ audience: 'a', expirationSeconds: 599 }] }),
      cause: invalidValue(
        'spec.tokenRequests[0].expirationSeconds',
        '599',
        'may not specify a duration less than 10 minutes',
      ),
    },
    {
      rule: '4 token expiration at most 2^32 seconds',
      call: driver('vcd-4.example.com', { tokenRequests: [{ audience: 'a', expirationSeconds: 2 ** 32 + 1 }] }),
      cause: invalidValue(
        'spec.tokenRequests[0].expirationSeconds',
        String(2 ** 32 + 1),
        'may not specify a duration larger than 2^32 seconds',
      ),
    },
    {
      rule: '5 volumeLifecycleModes supported',
      call: driver('vcd-5.example.com', { volumeLifecycleModes: ['Transient'] }),
      cause: unsupported('spec.volumeLifecycleModes', 'Transient', ['Persistent', 'Ephemeral']),
    },
    {
      rule: '6 attachRequired immutable',
      setup: [driver('vcd-6.example.com')],
      call: patch('vcd-6.example.com', { attachRequired: false }),
      cause: invalidValue('spec.attachedRequired', 'false', 'field is immutable'),
    },
    {
      rule: '7 volumeLifecycleModes immutable',
      setup: [driver('vcd-7.example.com')],
      call: patch('vcd-7.example.com', { volumeLifecycleModes: ['Persistent', 'Ephemeral'] }),
      cause: invalid(
        'spec.volumeLifecycleModes',
        'Invalid value: []storage.VolumeLifecycleMode{"Persistent", "Ephemeral"}: field is immutable',
      ),
    },
    {
      rule: '8 the spec rules again on update',
      setup: [driver('vcd-8.example.com')],
      call: patch('vcd-8.example.com', { fsGroupPolicy: 'Sometimes' }),
      cause: unsupported('spec.fsGroupPolicy', 'Sometimes', ['File', 'None', 'ReadWriteOnceWithFSType']),
    },
  ],
  [
    driver('vcd-ok-1.example.com'),
    driver('vcd-ok-2.example.com', {
      fsGroupPolicy: 'File',
      tokenRequests: [{ audience: 'a', expirationSeconds: 600 }, { audience: '' }],
      volumeLifecycleModes: ['Ephemeral'],
    }),
    patch('vcd-ok-1.example.com', { podInfoOnMount: true, fsGroupPolicy: 'None', requiresRepublish: true }),
  ],
);
