/** One case per rule of docs/validation/volumeattachments.md (VolumeAttachment, storage.k8s.io v1 and v1beta1). */
import { useTestServer } from '../helpers/in-process.js';
import {
  forbidden,
  invalidValue,
  merge,
  required,
  unsupported,
  validationSuite,
  type Call,
} from '../helpers/validation-cases.js';

const srv = useTestServer();
const V1 = '/apis/storage.k8s.io/v1/volumeattachments';
const BETA = '/apis/storage.k8s.io/v1beta1/volumeattachments';
const spec = (fields: object = {}) => ({
  attacher: 'csi.example.com',
  nodeName: 'node-1',
  source: { persistentVolumeName: 'pv-1' },
  ...fields,
});
const va = (name: string, fields: object = {}, at = V1): Call => [
  'POST',
  at,
  { metadata: { name }, spec: spec(fields) },
];
const status = (name: string, body: object): Call => ['PATCH', `${V1}/${name}/status`, { status: body }, merge];
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const EXACTLY_ONE = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
const csi = { driver: 'csi.example.com', volumeHandle: 'vol-1' };
const tooLong = (field: string, max: number) => ({
  field,
  reason: 'FieldValueTooLong',
  message: `Too long: may not be more than ${max} bytes`,
});

validationSuite(
  'VolumeAttachment validation (one case per rule)',
  () => srv,
  [
    { rule: '1 attacher required', call: va('vva-1', { attacher: '' }, BETA), cause: required('spec.attacher') },
    {
      rule: '2 a source required',
      call: va('vva-2', { source: {} }),
      cause: required('spec.source', EXACTLY_ONE),
    },
    {
      rule: '3 at most one source',
      call: va('vva-3', {
        source: { persistentVolumeName: 'pv', inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], csi } },
      }),
      cause: forbidden('spec.source', EXACTLY_ONE),
    },
    {
      rule: '4 persistentVolumeName non-empty',
      call: va('vva-4', { source: { persistentVolumeName: '' } }, BETA),
      cause: required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName'),
    },
    {
      rule: '5 inline spec without claimRef',
      call: va('vva-5', {
        source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], csi, claimRef: { name: 'c' } } },
      }),
      cause: forbidden(
        'spec.source.inlineVolumeSpec.claimRef',
        'may not be specified in the context of inline volumes',
      ),
    },
    {
      rule: '6 inline spec without capacity',
      call: va('vva-6', {
        source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], csi, capacity: { storage: '1Gi' } } },
      }),
      cause: forbidden(
        'spec.source.inlineVolumeSpec.capacity',
        'may not be specified in the context of inline volumes',
      ),
    },
    {
      rule: '7 inline spec a csi source',
      call: va('vva-7', {
        source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], nfs: { server: 's', path: '/' } } },
      }),
      cause: required('spec.source.inlineVolumeSpec.csi', 'has to be specified in the context of inline volumes'),
    },
    {
      rule: '8 inline spec access modes required',
      call: va('vva-8', { source: { inlineVolumeSpec: { csi } } }),
      cause: required('spec.source.inlineVolumeSpec.accessModes'),
    },
    {
      rule: '9 inline spec access modes supported (the PersistentVolumeSpec schema answers)',
      call: va('vva-9', { source: { inlineVolumeSpec: { csi, accessModes: ['ReadWriteSometimes'] } } }),
      cause: unsupported('spec.source.inlineVolumeSpec.accessModes[0]', 'ReadWriteSometimes', [
        'ReadWriteOnce',
        'ReadOnlyMany',
        'ReadWriteMany',
        'ReadWriteOncePod',
      ]),
    },
    {
      rule: '10 inline csi source driver and volumeHandle',
      call: va('vva-10', { source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], csi: { driver: 'd' } } } }),
      cause: required('spec.source.inlineVolumeSpec.csi.volumeHandle'),
    },
    {
      rule: '11 nodeName a node name',
      call: va('vva-11', { nodeName: 'Node_1' }),
      cause: invalidValue('spec.nodeName', '"Node_1"', SUBDOMAIN),
    },
    {
      rule: '12 attachmentMetadata at most 256 KiB',
      setup: [va('vva-12')],
      call: status('vva-12', { attachmentMetadata: { big: 'x'.repeat(256 * 1024) } }),
      cause: tooLong('status.attachmentMetadata', 262144),
    },
    {
      rule: '13 attachError message at most 1024 bytes',
      setup: [va('vva-13')],
      call: status('vva-13', { attachError: { message: 'x'.repeat(1025) } }),
      cause: tooLong('status.attachError.message', 262144),
    },
    {
      rule: '14 detachError message at most 1024 bytes',
      setup: [va('vva-14')],
      call: status('vva-14', { detachError: { message: 'x'.repeat(1025) } }),
      cause: tooLong('status.detachError.message', 262144),
    },
    {
      rule: '15 v1: attacher a CSI driver name',
      call: va('vva-15', { attacher: 'CSI_Driver' }),
      cause: invalidValue('spec.attacher', '"CSI_Driver"', SUBDOMAIN),
    },
    {
      rule: '16 v1: attacher at most 63 bytes',
      call: va('vva-16', { attacher: `${'a'.repeat(60)}.example` }),
      cause: tooLong('spec.attacher', 63),
    },
    {
      rule: '17 v1: persistentVolumeName a volume name',
      call: va('vva-17', { source: { persistentVolumeName: 'PV_1' } }),
      cause: invalidValue('spec.source.persistentVolumeName', '"PV_1"', SUBDOMAIN),
    },
    {
      rule: '18 spec immutable',
      setup: [va('vva-18')],
      call: ['PATCH', `${V1}/vva-18`, { spec: { nodeName: 'node-2' } }, merge],
      cause: invalidValue('spec', JSON.stringify(spec({ nodeName: 'node-2' })), 'field is immutable'),
    },
  ],
  [
    va('vva-ok-1'),
    va('vva-ok-2', { attacher: 'CSI_Driver', source: { persistentVolumeName: 'PV_1' } }, BETA),
    va('vva-ok-3', { source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], csi } } }),
    status('vva-ok-1', { attached: true, attachError: { message: 'timeout', errorCode: 4 } }),
  ],
);
