/**
 * One case per rule of docs/validation/cluster-storage-policy.md: each request is refused with
 * 422 Invalid and carries upstream's cause {field, reason, message}. LimitRanges and quotas
 * live in this file's own namespace, so admission elsewhere is not affected.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { validateDns1123Subdomain, validateLabelValue, validateQualifiedName } from '../../src/api/names.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const NS = 'vcsp';
const ns = `/api/v1/namespaces/${NS}`;
const merge = { 'content-type': 'application/merge-patch+json' };

type Cause = { field: string; reason: string; message: string };
type Call = [method: string, path: string, body: unknown, headers?: Record<string, string>];
interface Case {
  rule: string;
  setup?: Call[];
  call: Call;
  cause: Cause;
}

const inv = (field: string, message: string): Cause => ({ field, reason: 'FieldValueInvalid', message });
const req = (field: string, detail = ''): Cause => ({
  field,
  reason: 'FieldValueRequired',
  message: detail ? `Required value: ${detail}` : 'Required value',
});
const forb = (field: string, detail: string): Cause => ({
  field,
  reason: 'FieldValueForbidden',
  message: `Forbidden: ${detail}`,
});
const unsup = (field: string, message: string): Cause => ({ field, reason: 'FieldValueNotSupported', message });
const dup = (field: string, message: string): Cause => ({ field, reason: 'FieldValueDuplicate', message });
const goQ = (value: number, scale: number, s: string, format = 'DecimalSI') =>
  `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:${JSON.stringify(s)}, Format:"${format}"}`;
const qualified = (v: string) => validateQualifiedName(v)[0]!;
const subdomain = (v: string) => validateDns1123Subdomain(v)[0]!;

const post = (path: string, body: unknown): Call => ['POST', path, body];
const node = (name: string, spec: object = {}, status?: object) => ({
  metadata: { name },
  spec,
  ...(status ? { status } : {}),
});
const pv = (name: string, spec: object, metadata: object = {}) => ({
  metadata: { name, ...metadata },
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], ...spec },
});
const hostPv = (name: string, spec: object = {}, metadata: object = {}) =>
  pv(name, { hostPath: { path: '/data' }, ...spec }, metadata);
const pvc = (name: string, spec: object = {}, metadata: object = {}) => ({
  metadata: { name, ...metadata },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const lr = (name: string, ...limits: object[]) => ({ metadata: { name }, spec: { limits } });
const quota = (name: string, spec: object) => ({ metadata: { name }, spec });
const ev = (name: string, extra: object) => ({
  metadata: { name },
  involvedObject: { kind: 'Pod', name: 'p', namespace: NS },
  reason: 'Started',
  ...extra,
});
const newEv = (name: string, extra: object) =>
  ev(name, {
    eventTime: '2018-03-26T15:04:05.000000Z',
    reportingComponent: 'kubelet',
    reportingInstance: 'node-1',
    action: 'Start',
    ...extra,
  });
const scc = (name: string, extra: object) => ({
  metadata: { name },
  runAsUser: { type: 'RunAsAny' },
  seLinuxContext: { type: 'RunAsAny' },
  ...extra,
});
const SCC = '/api/v1/securitycontextconstraints';
const long = (n: number) => 'x'.repeat(n);

const cases: Case[] = [
  // Namespace
  {
    rule: 'namespace finalizer standard or qualified',
    call: post('/api/v1/namespaces', { metadata: { name: 'vcsp-fin' }, spec: { finalizers: ['foo'] } }),
    cause: inv(
      'spec.finalizers',
      'Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified',
    ),
  },
  {
    rule: 'namespace finalizer qualified name',
    call: post('/api/v1/namespaces', { metadata: { name: 'vcsp-fin2' }, spec: { finalizers: ['a/b/c'] } }),
    cause: inv('spec.finalizers', `Invalid value: "a/b/c": ${qualified('a/b/c')}`),
  },
  {
    rule: 'namespace finalize update',
    setup: [post('/api/v1/namespaces', { metadata: { name: 'vcsp-fz' } })],
    call: [
      'PUT',
      '/api/v1/namespaces/vcsp-fz/finalize',
      { metadata: { name: 'vcsp-fz' }, spec: { finalizers: ['bad'] } },
    ],
    cause: inv(
      'spec.finalizers[0]',
      'Invalid value: "bad": name is neither a standard finalizer name nor is it fully qualified',
    ),
  },
  {
    rule: 'namespace status phase',
    setup: [post('/api/v1/namespaces', { metadata: { name: 'vcsp-st' } })],
    call: ['PATCH', '/api/v1/namespaces/vcsp-st/status', { status: { phase: 'Terminating' } }, merge],
    cause: inv('status.Phase', 'Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty'),
  },
  // Node
  {
    rule: 'node podCIDR',
    call: post('/api/v1/nodes', node('vn-cidr', { podCIDR: '10.0.0.0' })),
    // Upstream 1.33: podCIDR is checked as podCIDRs[0], with IsValidCIDR's wording.
    cause: inv(
      'spec.podCIDRs[0]',
      'Invalid value: "10.0.0.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ),
  },
  {
    rule: 'node taint key',
    call: post('/api/v1/nodes', node('vn-tk', { taints: [{ key: 'bad key', effect: 'NoSchedule' }] })),
    cause: inv('metadata.taints[0].key', `Invalid value: "bad key": ${qualified('bad key')}`),
  },
  {
    rule: 'node taint value',
    call: post('/api/v1/nodes', node('vn-tv', { taints: [{ key: 'k', value: 'bad value!', effect: 'NoSchedule' }] })),
    cause: inv(
      'metadata.taints[0].value',
      `Invalid value: "bad value!": ${validateLabelValue('bad value!').join(';')}`,
    ),
  },
  {
    rule: 'node taint effect supported',
    call: post('/api/v1/nodes', node('vn-te', { taints: [{ key: 'k', effect: 'Sometimes' }] })),
    cause: unsup(
      'metadata.taints[0].effect',
      'Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ),
  },
  {
    rule: 'node taint effect required',
    call: post('/api/v1/nodes', node('vn-te2', { taints: [{ key: 'k', effect: '' }] })),
    cause: req('metadata.taints[0].effect'),
  },
  {
    rule: 'node taints unique',
    call: post(
      '/api/v1/nodes',
      node('vn-td', {
        taints: [
          { key: 'k', effect: 'NoSchedule' },
          { key: 'k', effect: 'NoSchedule' },
        ],
      }),
    ),
    cause: dup(
      'metadata.taints[1]',
      'Duplicate value: core.Taint{Key:"k", Value:"", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
    ),
  },
  {
    rule: 'node capacity non-negative',
    call: post('/api/v1/nodes', node('vn-cap', {}, { capacity: { cpu: '-1' } })),
    cause: inv('status.capacity.cpu', 'Invalid value: "-1": must be greater than or equal to 0'),
  },
  {
    rule: 'node allocatable integer',
    call: post('/api/v1/nodes', node('vn-alloc', {}, { allocatable: { pods: '1.5' } })),
    cause: inv('status.allocatable.pods', `Invalid value: ${goQ(15, -1, '')}: must be an integer`),
  },
  {
    // Upstream 1.33 no longer requires externalID; it may not change instead.
    rule: 'node externalID required',
    setup: [post('/api/v1/nodes', node('vn-ext'))],
    call: ['PATCH', '/api/v1/nodes/vn-ext', { spec: { externalID: 'other' } }, merge],
    cause: forb('spec.externalID', 'may not be updated'),
  },
  {
    rule: 'node update podCIDR',
    setup: [post('/api/v1/nodes', node('vn-u1', { podCIDR: '10.1.0.0/24' }))],
    call: ['PATCH', '/api/v1/nodes/vn-u1', { spec: { podCIDR: '10.2.0.0/24', podCIDRs: ['10.2.0.0/24'] } }, merge],
    cause: forb('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'),
  },
  {
    rule: 'node update providerID',
    setup: [post('/api/v1/nodes', node('vn-u2', { providerID: 'aws://a' }))],
    call: ['PATCH', '/api/v1/nodes/vn-u2', { spec: { providerID: 'aws://b' } }, merge],
    cause: forb('spec.providerID', 'node updates may not change providerID except from "" to valid'),
  },
  {
    rule: 'node update duplicate addresses',
    setup: [post('/api/v1/nodes', node('vn-u4'))],
    call: [
      'PATCH',
      '/api/v1/nodes/vn-u4/status',
      {
        status: {
          addresses: [
            { type: 'InternalIP', address: '10.0.0.1' },
            { type: 'InternalIP', address: '10.0.0.1' },
          ],
        },
      },
      merge,
    ],
    cause: dup('status.addresses[1]', 'Duplicate value: core.NodeAddress{Type:"InternalIP", Address:"10.0.0.1"}'),
  },
  // PersistentVolume
  {
    rule: 'pv accessModes required',
    call: post('/api/v1/persistentvolumes', hostPv('vpv-am', { accessModes: [] })),
    cause: req('spec.accessModes'),
  },
  {
    rule: 'pv capacity required',
    call: post('/api/v1/persistentvolumes', {
      metadata: { name: 'vpv-cap' },
      spec: { accessModes: ['ReadWriteOnce'], hostPath: { path: '/d' } },
    }),
    cause: req('spec.capacity'),
  },
  {
    rule: 'pv capacity storage only',
    call: post('/api/v1/persistentvolumes', hostPv('vpv-cap2', { capacity: { cpu: '1' } })),
    cause: unsup(
      'spec.capacity',
      `Unsupported value: core.ResourceList{"cpu":${goQ(1, 0, '1')}}: supported values: "storage"`,
    ),
  },
  {
    rule: 'pv capacity quantity',
    call: post('/api/v1/persistentvolumes', hostPv('vpv-cap3', { capacity: { storage: '-1' } })),
    cause: inv('spec.capacity[storage]', 'Invalid value: -1: must be a valid resource quantity'),
  },
  {
    rule: 'pv volume type required',
    call: post('/api/v1/persistentvolumes', pv('vpv-none', {})),
    cause: req('spec', 'must specify a volume type'),
  },
  {
    rule: 'pv one volume type',
    call: post('/api/v1/persistentvolumes', hostPv('vpv-two', { nfs: { server: 's', path: '/x' } })),
    cause: forb('spec.nfs', 'may not specify more than 1 volume type'),
  },
  {
    rule: 'pv hostPath path required',
    call: post('/api/v1/persistentvolumes', pv('vpv-hp', { hostPath: { path: '' } })),
    cause: req('spec.hostPath.path'),
  },
  {
    rule: 'pv hostPath no backsteps',
    call: post('/api/v1/persistentvolumes', pv('vpv-hp2', { hostPath: { path: '/a/../b' } })),
    cause: inv('spec.hostPath.path', 'Invalid value: "/a/../b": must not contain \'..\''),
  },
  {
    rule: 'pv hostPath type',
    call: post('/api/v1/persistentvolumes', pv('vpv-hp3', { hostPath: { path: '/a', type: 'Pipe' } })),
    cause: unsup(
      'spec.hostPath.type',
      'Unsupported value: "Pipe": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
    ),
  },
  {
    rule: 'pv nfs server required',
    call: post('/api/v1/persistentvolumes', pv('vpv-nfs', { nfs: { server: '', path: '/x' } })),
    cause: req('spec.nfs.server'),
  },
  {
    rule: 'pv nfs path absolute',
    call: post('/api/v1/persistentvolumes', pv('vpv-nfs2', { nfs: { server: 's', path: 'x' } })),
    cause: inv('spec.nfs.path', 'Invalid value: "x": must be an absolute path'),
  },
  {
    rule: 'pv local path required',
    call: post('/api/v1/persistentvolumes', pv('vpv-local', { local: { path: '' } })),
    cause: req('spec.local.path'),
  },
  {
    rule: 'pv per-source required fields',
    call: post('/api/v1/persistentvolumes', pv('vpv-rbd', { rbd: { image: 'i', monitors: [] } })),
    cause: req('spec.rbd.monitors'),
  },
  {
    rule: 'pv gce partition',
    call: post('/api/v1/persistentvolumes', pv('vpv-gce', { gcePersistentDisk: { pdName: 'd', partition: 300 } })),
    cause: inv('spec.persistentDisk.partition', 'Invalid value: 300: must be between 1 and 255, inclusive'),
  },
  {
    rule: 'pv recycle of hostPath /',
    call: post(
      '/api/v1/persistentvolumes',
      pv('vpv-rec', { hostPath: { path: '/' }, persistentVolumeReclaimPolicy: 'Recycle' }),
    ),
    cause: forb('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"),
  },
  {
    rule: 'pv storageClassName',
    call: post('/api/v1/persistentvolumes', hostPv('vpv-sc', { storageClassName: 'Bad_Class' })),
    cause: inv('spec.storageClassName', `Invalid value: "Bad_Class": ${subdomain('Bad_Class')}`),
  },
  {
    rule: 'pv mount options',
    call: post(
      '/api/v1/persistentvolumes',
      hostPv('vpv-mo', {}, { annotations: { 'volume.beta.kubernetes.io/mount-options': 'ro' } }),
    ),
    cause: forb(
      'metadata.annotations.volume.beta.kubernetes.io/mount-options',
      'may not specify mount options for this volume type',
    ),
  },
  // PersistentVolumeClaim
  {
    rule: 'pvc accessModes required',
    call: post(`${ns}/persistentvolumeclaims`, pvc('vc-am', { accessModes: [] })),
    cause: req('spec.accessModes', 'at least 1 access mode is required'),
  },
  {
    rule: 'pvc storage request required',
    call: post(`${ns}/persistentvolumeclaims`, pvc('vc-st', { resources: {} })),
    cause: req('spec.resources[storage]'),
  },
  {
    rule: 'pvc storage non-negative',
    call: post(`${ns}/persistentvolumeclaims`, pvc('vc-neg', { resources: { requests: { storage: '-1Gi' } } })),
    // Upstream 1.33 ValidatePositiveQuantityValue.
    cause: inv('spec.resources[storage]', 'Invalid value: "-1Gi": must be greater than zero'),
  },
  {
    rule: 'pvc selector operator',
    call: post(
      `${ns}/persistentvolumeclaims`,
      pvc('vc-sel', { selector: { matchExpressions: [{ key: 'k', operator: 'Near' }] } }),
    ),
    cause: inv('spec.selector.matchExpressions[0].operator', 'Invalid value: "Near": not a valid selector operator'),
  },
  {
    rule: 'pvc selector values',
    call: post(
      `${ns}/persistentvolumeclaims`,
      pvc('vc-sel2', { selector: { matchExpressions: [{ key: 'k', operator: 'In' }] } }),
    ),
    cause: req('spec.selector.matchExpressions[0].values', "must be specified when `operator` is 'In' or 'NotIn'"),
  },
  {
    rule: 'pvc storageClassName',
    call: post(`${ns}/persistentvolumeclaims`, pvc('vc-sc', { storageClassName: 'Bad_Class' })),
    cause: inv('spec.storageClassName', `Invalid value: "Bad_Class": ${subdomain('Bad_Class')}`),
  },
  {
    rule: 'pvc update storage not below previous',
    setup: [
      post(`${ns}/persistentvolumeclaims`, pvc('vc-u2', { resources: { requests: { storage: '2Gi' } } })),
      [
        'PATCH',
        `${ns}/persistentvolumeclaims/vc-u2/status`,
        { status: { phase: 'Bound', capacity: { storage: '2Gi' } } },
        merge,
      ],
    ],
    call: [
      'PATCH',
      `${ns}/persistentvolumeclaims/vc-u2`,
      { spec: { resources: { requests: { storage: '1Gi' } } } },
      merge,
    ],
    cause: forb('spec.resources.requests.storage', 'field can not be less than status.capacity'),
  },
  {
    rule: 'pvc update storage-class annotation',
    setup: [
      post(
        `${ns}/persistentvolumeclaims`,
        pvc('vc-u3', {}, { annotations: { 'volume.beta.kubernetes.io/storage-class': 'a' } }),
      ),
    ],
    call: [
      'PATCH',
      `${ns}/persistentvolumeclaims/vc-u3`,
      { metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 'b' } } },
      merge,
    ],
    cause: inv(
      'metadata.annotations.volume.beta.kubernetes.io/storage-class',
      'Invalid value: "b": field is immutable',
    ),
  },
  // LimitRange
  {
    rule: 'limit type standard',
    call: post(`${ns}/limitranges`, lr('vl-type', { type: 'Node' })),
    cause: inv('spec.limits[0].type', 'Invalid value: "Node": must be a standard limit type or fully qualified'),
  },
  {
    rule: 'limit type unique',
    call: post(`${ns}/limitranges`, lr('vl-dup', { type: 'Pod' }, { type: 'Pod' })),
    cause: dup('spec.limits[1].type', 'Duplicate value: "Pod"'),
  },
  {
    rule: 'limit resource name qualified',
    call: post(`${ns}/limitranges`, lr('vl-rn', { type: 'Pod', max: { 'bad name': '1' } })),
    cause: inv('spec.limits[0].max[bad name]', `Invalid value: "bad name": ${qualified('bad name')}`),
  },
  {
    rule: 'limit container resource',
    call: post(`${ns}/limitranges`, lr('vl-cr', { type: 'Container', max: { storage: '1Gi' } })),
    cause: inv('spec.limits[0].max[storage]', 'Invalid value: "storage": must be a standard resource for containers'),
  },
  {
    rule: 'limit standard resource',
    call: post(`${ns}/limitranges`, lr('vl-sr', { type: 'PersistentVolumeClaim', max: { storage: '1Gi', foo: '1' } })),
    cause: inv('spec.limits[0].max[foo]', 'Invalid value: "foo": must be a standard resource type or fully qualified'),
  },
  {
    rule: 'limit pod default',
    call: post(`${ns}/limitranges`, lr('vl-pd', { type: 'Pod', default: { cpu: '1' } })),
    cause: forb('spec.limits[0].default', "may not be specified when `type` is 'Pod'"),
  },
  {
    rule: 'limit pod defaultRequest',
    call: post(`${ns}/limitranges`, lr('vl-pdr', { type: 'Pod', defaultRequest: { cpu: '1' } })),
    cause: forb('spec.limits[0].defaultRequest', "may not be specified when `type` is 'Pod'"),
  },
  {
    rule: 'limit pvc storage bound',
    call: post(`${ns}/limitranges`, lr('vl-pvc', { type: 'PersistentVolumeClaim' })),
    cause: req(
      'spec.limits[0].limits',
      'either minimum or maximum storage value is required, but neither was provided',
    ),
  },
  {
    rule: 'limit min <= max',
    call: post(`${ns}/limitranges`, lr('vl-mm', { type: 'Pod', min: { cpu: '1' }, max: { cpu: '500m' } })),
    cause: inv(
      'spec.limits[0].min[cpu]',
      `Invalid value: ${goQ(1, 0, '1')}: min value 1 is greater than max value 500m`,
    ),
  },
  {
    rule: 'limit min <= defaultRequest',
    call: post(
      `${ns}/limitranges`,
      lr('vl-mdr', { type: 'Container', min: { cpu: '1' }, defaultRequest: { cpu: '500m' } }),
    ),
    cause: inv(
      'spec.limits[0].defaultRequest[cpu]',
      `Invalid value: ${goQ(500, -3, '500m')}: min value 1 is greater than default request value 500m`,
    ),
  },
  {
    rule: 'limit defaultRequest <= max',
    call: post(
      `${ns}/limitranges`,
      lr('vl-drm', { type: 'Container', max: { cpu: '1' }, defaultRequest: { cpu: '2' } }),
    ),
    cause: inv(
      'spec.limits[0].defaultRequest[cpu]',
      `Invalid value: ${goQ(2, 0, '2')}: default request value 2 is greater than max value 1`,
    ),
  },
  {
    rule: 'limit defaultRequest <= default',
    call: post(
      `${ns}/limitranges`,
      lr('vl-drd', { type: 'Container', default: { cpu: '1' }, defaultRequest: { cpu: '2' } }),
    ),
    cause: inv(
      'spec.limits[0].defaultRequest[cpu]',
      `Invalid value: ${goQ(2, 0, '2')}: default request value 2 is greater than default limit value 1`,
    ),
  },
  {
    rule: 'limit min <= default',
    call: post(`${ns}/limitranges`, lr('vl-md', { type: 'Container', min: { cpu: '2' }, default: { cpu: '1' } })),
    cause: inv(
      'spec.limits[0].default[cpu]',
      `Invalid value: ${goQ(2, 0, '2')}: min value 2 is greater than default value 1`,
    ),
  },
  {
    rule: 'limit default <= max',
    call: post(`${ns}/limitranges`, lr('vl-dm', { type: 'Container', max: { cpu: '1' }, default: { cpu: '2' } })),
    cause: inv(
      'spec.limits[0].default[cpu]',
      `Invalid value: ${goQ(1, 0, '1')}: default value 2 is greater than max value 1`,
    ),
  },
  {
    rule: 'limit ratio >= 1',
    call: post(`${ns}/limitranges`, lr('vl-r1', { type: 'Pod', maxLimitRequestRatio: { cpu: '500m' } })),
    cause: inv(
      'spec.limits[0].maxLimitRequestRatio[cpu]',
      `Invalid value: ${goQ(500, -3, '500m')}: ratio 500m is less than 1`,
    ),
  },
  {
    rule: 'limit ratio <= max/min',
    call: post(
      `${ns}/limitranges`,
      lr('vl-r2', { type: 'Pod', min: { cpu: '1' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '3' } }),
    ),
    cause: inv(
      'spec.limits[0].maxLimitRequestRatio[cpu]',
      `Invalid value: ${goQ(3, 0, '3')}: ratio 3 is greater than max/min = 2.000000`,
    ),
  },
  {
    rule: 'limit non-overcommit default == defaultRequest',
    call: post(
      `${ns}/limitranges`,
      lr('vl-oc', {
        type: 'Container',
        default: { 'example.com/gpu': '2' },
        defaultRequest: { 'example.com/gpu': '1' },
      }),
    ),
    cause: inv(
      'spec.limits[0].defaultRequest[example.com/gpu]',
      `Invalid value: ${goQ(1, 0, '1')}: default value 2 must equal to defaultRequest value 1 in example.com/gpu`,
    ),
  },
  // ResourceQuota
  {
    rule: 'quota resource name standard',
    call: post(`${ns}/resourcequotas`, quota('vq-rn', { hard: { foo: '1' } })),
    cause: inv('spec.hard[foo]', 'Invalid value: "foo": must be a standard resource type or fully qualified'),
  },
  {
    rule: 'quota resource name for quota',
    call: post(`${ns}/resourcequotas`, quota('vq-rq', { hard: { storage: '1Gi' } })),
    cause: inv('spec.hard[storage]', 'Invalid value: "storage": must be a standard resource for quota'),
  },
  {
    rule: 'quota quantity non-negative',
    call: post(`${ns}/resourcequotas`, quota('vq-neg', { hard: { cpu: '-1' } })),
    cause: inv('spec.hard[cpu]', 'Invalid value: "-1": must be greater than or equal to 0'),
  },
  {
    rule: 'quota integer resource',
    call: post(`${ns}/resourcequotas`, quota('vq-int', { hard: { pods: '1.5' } })),
    cause: inv('spec.hard[pods]', `Invalid value: ${goQ(15, -1, '')}: must be an integer`),
  },
  {
    rule: 'quota scope supported',
    call: post(`${ns}/resourcequotas`, quota('vq-sc', { hard: { pods: '1' }, scopes: ['Sometimes'] })),
    cause: inv('spec.scopes', 'Invalid value: []core.ResourceQuotaScope{"Sometimes"}: unsupported scope'),
  },
  {
    rule: 'quota scope valid for resource',
    call: post(`${ns}/resourcequotas`, quota('vq-be', { hard: { cpu: '1' }, scopes: ['BestEffort'] })),
    cause: inv(
      'spec.scopes',
      'Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource',
    ),
  },
  {
    rule: 'quota conflicting scopes',
    call: post(
      `${ns}/resourcequotas`,
      quota('vq-cf', { hard: { pods: '1' }, scopes: ['Terminating', 'NotTerminating'] }),
    ),
    cause: inv(
      'spec.scopes',
      'Invalid value: []core.ResourceQuotaScope{"Terminating", "NotTerminating"}: conflicting scopes',
    ),
  },
  {
    rule: 'quota update scopes immutable',
    setup: [post(`${ns}/resourcequotas`, quota('vq-u1', { hard: { pods: '100' }, scopes: ['NotTerminating'] }))],
    call: ['PATCH', `${ns}/resourcequotas/vq-u1`, { spec: { scopes: ['Terminating'] } }, merge],
    cause: inv('spec.scopes', 'Invalid value: []core.ResourceQuotaScope{"Terminating"}: field is immutable'),
  },
  {
    rule: 'quota status update names',
    setup: [post(`${ns}/resourcequotas`, quota('vq-u2', { hard: { pods: '100' } }))],
    call: ['PATCH', `${ns}/resourcequotas/vq-u2/status`, { status: { hard: { foo: '1' } } }, merge],
    cause: inv('status.hard[foo]', 'Invalid value: "foo": must be a standard resource type or fully qualified'),
  },
  // Event
  {
    rule: 'event involvedObject namespace matches',
    call: post(`${ns}/events`, ev('ve-ns', { involvedObject: { kind: 'Pod', name: 'p', namespace: 'other' } })),
    cause: inv('involvedObject.namespace', 'Invalid value: "other": does not match event.namespace'),
  },
  {
    rule: 'event involvedObject namespace empty outside default',
    call: post(`${ns}/events`, ev('ve-ns2', { involvedObject: { kind: 'Node', name: 'n' } })),
    cause: inv('involvedObject.namespace', 'Invalid value: "": does not match event.namespace'),
  },
  {
    rule: 'new event involvedObject namespace',
    call: post(`${ns}/events`, newEv('ve-ns3', { involvedObject: { kind: 'Node', name: 'n' } })),
    cause: inv('involvedObject.namespace', 'Invalid value: "": does not match event.namespace'),
  },
  {
    rule: 'new event reportingController required',
    call: post(`${ns}/events`, newEv('ve-rc', { reportingComponent: '' })),
    cause: req('reportingController'),
  },
  {
    rule: 'new event reportingController qualified',
    call: post(`${ns}/events`, newEv('ve-rc2', { reportingComponent: 'bad controller' })),
    cause: inv('reportingController', `Invalid value: "bad controller": ${qualified('bad controller')}`),
  },
  {
    rule: 'new event reportingInstance required',
    call: post(`${ns}/events`, newEv('ve-ri', { reportingInstance: '' })),
    cause: req('reportingInstance'),
  },
  {
    rule: 'new event reportingInstance length',
    call: post(`${ns}/events`, newEv('ve-ri2', { reportingInstance: long(129) })),
    cause: inv('repotingIntance', 'Invalid value: "": can have at most 128 characters'),
  },
  {
    rule: 'new event action required',
    call: post(`${ns}/events`, newEv('ve-ac', { action: '' })),
    cause: req('action'),
  },
  {
    rule: 'new event action length',
    call: post(`${ns}/events`, newEv('ve-ac2', { action: long(129) })),
    cause: inv('action', 'Invalid value: "": can have at most 128 characters'),
  },
  {
    rule: 'new event reason required',
    call: post(`${ns}/events`, newEv('ve-re', { reason: '' })),
    cause: req('reason'),
  },
  {
    rule: 'new event reason length',
    call: post(`${ns}/events`, newEv('ve-re2', { reason: long(129) })),
    cause: inv('reason', 'Invalid value: "": can have at most 128 characters'),
  },
  {
    rule: 'new event message length',
    call: post(`${ns}/events`, newEv('ve-msg', { message: long(1025) })),
    cause: inv('message', 'Invalid value: "": can have at most 1024 characters'),
  },
  // SecurityContextConstraints
  {
    rule: 'scc priority non-negative',
    call: post(SCC, scc('vs-pri', { priority: -1 })),
    cause: inv('priority', 'Invalid value: -1: priority cannot be negative'),
  },
  {
    rule: 'scc runAsUser type',
    call: post(SCC, scc('vs-rau', { runAsUser: { type: 'Sometimes' } })),
    cause: inv(
      'runAsUser.type',
      'Invalid value: "Sometimes": invalid strategy type.  Valid values are MustRunAs, MustRunAsNonRoot, MustRunAsRange, RunAsAny',
    ),
  },
  {
    rule: 'scc uid non-negative',
    call: post(SCC, scc('vs-uid', { runAsUser: { type: 'MustRunAs', uid: -1 } })),
    cause: inv('runAsUser.uid', 'Invalid value: -1: uid cannot be negative'),
  },
  {
    rule: 'scc seLinux type',
    call: post(SCC, scc('vs-sel', { seLinuxContext: { type: 'Sometimes' } })),
    cause: inv(
      'seLinuxContext.type',
      'Invalid value: "Sometimes": invalid strategy type.  Valid values are MustRunAs, RunAsAny',
    ),
  },
  {
    rule: 'scc fsGroup type',
    call: post(SCC, scc('vs-fsg', { fsGroup: { type: 'Sometimes' } })),
    cause: unsup('fsGroup.type', 'Unsupported value: "Sometimes": supported values: "MustRunAs", "RunAsAny"'),
  },
  {
    rule: 'scc supplementalGroups type',
    call: post(SCC, scc('vs-sup', { supplementalGroups: { type: 'Sometimes' } })),
    cause: unsup(
      'supplementalGroups.type',
      'Unsupported value: "Sometimes": supported values: "MustRunAs", "RunAsAny"',
    ),
  },
  {
    rule: 'scc range min non-negative',
    call: post(SCC, scc('vs-r1', { fsGroup: { type: 'MustRunAs', ranges: [{ min: -1, max: 5 }] } })),
    cause: inv('fsGroup.ranges[0].min', 'Invalid value: -1: min cannot be negative'),
  },
  {
    rule: 'scc range max non-negative',
    call: post(SCC, scc('vs-r2', { supplementalGroups: { type: 'MustRunAs', ranges: [{ min: -5, max: -1 }] } })),
    cause: inv('supplementalGroups.ranges[0].max', 'Invalid value: -1: max cannot be negative'),
  },
  {
    rule: 'scc range min <= max',
    call: post(SCC, scc('vs-r3', { fsGroup: { type: 'MustRunAs', ranges: [{ min: 5, max: 1 }] } })),
    cause: inv(
      'fsGroup.ranges[0].min',
      'Invalid value: security.IDRange{Min:5, Max:1}: min cannot be greater than max',
    ),
  },
  {
    rule: 'scc default-add vs required-drop',
    call: post(SCC, scc('vs-c1', { defaultAddCapabilities: ['KILL'], requiredDropCapabilities: ['KILL'] })),
    cause: inv(
      'defaultAddCapabilities',
      'Invalid value: "KILL": capability is listed in defaultAddCapabilities and requiredDropCapabilities',
    ),
  },
  {
    rule: 'scc allowed vs required-drop',
    call: post(SCC, scc('vs-c2', { allowedCapabilities: ['KILL'], requiredDropCapabilities: ['KILL'] })),
    cause: inv(
      'allowedCapabilities',
      'Invalid value: "KILL": capability is listed in allowedCapabilities and requiredDropCapabilities',
    ),
  },
  {
    rule: 'scc wildcard without drops',
    call: post(SCC, scc('vs-c3', { allowedCapabilities: ['*'], requiredDropCapabilities: ['KILL'] })),
    cause: inv(
      'requiredDropCapabilities',
      'Invalid value: []core.Capability{"KILL"}: required capabilities must be empty when all capabilities are allowed by a wildcard',
    ),
  },
  {
    rule: 'scc none volume alone',
    call: post(SCC, scc('vs-v1', { volumes: ['none', 'secret'] })),
    cause: inv(
      'volumes',
      'Invalid value: []security.FSType{"none", "secret"}: if \'none\' is specified, no other values are allowed',
    ),
  },
  {
    rule: 'scc flex volume driver',
    call: post(SCC, scc('vs-f1', { volumes: ['flexVolume'], allowedFlexVolumes: [{ driver: '' }] })),
    cause: req('allowedFlexVolumes[0].driver', 'must specify a driver'),
  },
  {
    rule: 'scc flex volumes need flexVolume',
    call: post(SCC, scc('vs-f2', { volumes: ['secret'], allowedFlexVolumes: [{ driver: 'd' }] })),
    cause: inv(
      'allowedFlexVolumes',
      "Invalid value: []security.AllowedFlexVolume{security.AllowedFlexVolume{Driver:\"d\"}}: volumes does not include 'flexVolume' or '*', so no flex volumes are allowed",
    ),
  },
];

beforeAll(async () => {
  await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } });
});

describe('cluster, storage and policy validation (one case per rule)', () => {
  it.each(cases.map((c) => [c.rule, c] as const))('%s', async (_rule, c) => {
    for (const [method, path, body, headers] of c.setup ?? []) {
      const res = await srv.api(method, path, body, headers);
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    }
    const [method, path, body, headers] = c.call;
    const res = await srv.api(method, path, body, headers);
    expect(res.status, res.text).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    const causes = (res.body.details?.causes ?? []).map((x: Partial<Cause>) => ({
      field: x.field ?? '',
      reason: x.reason,
      message: x.message,
    }));
    expect(causes).toContainEqual(c.cause);
  });

  it('accepts the valid neighbours of these rules', async () => {
    const ok = [
      post(
        `${ns}/limitranges`,
        lr(
          'vl-ok',
          {
            type: 'Container',
            min: { cpu: '100m' },
            max: { cpu: '2' },
            default: { cpu: '1' },
            defaultRequest: { cpu: '500m' },
            maxLimitRequestRatio: { cpu: '4' },
          },
          { type: 'PersistentVolumeClaim', max: { storage: '1Ti' } },
        ),
      ),
      post(
        `${ns}/resourcequotas`,
        quota('vq-ok', {
          hard: { pods: '1000', 'count/widgets.example.com': '5', 'requests.nvidia.com/gpu': '1' },
          scopes: ['NotTerminating', 'NotBestEffort'],
        }),
      ),
      post(`${ns}/events`, ev('ve-ok', {})),
      post(
        SCC,
        scc('vs-ok', {
          volumes: ['*'],
          allowedFlexVolumes: [{ driver: 'd' }],
          requiredDropCapabilities: ['KILL'],
          allowedCapabilities: ['NET_ADMIN'],
        }),
      ),
      post(
        '/api/v1/persistentvolumes',
        pv('vpv-ok', { nfs: { server: 's', path: '/' }, mountOptions: ['nfsvers=4.2'] }),
      ),
    ];
    for (const [method, path, body] of ok) {
      const res = await srv.api(method, path, body);
      expect(res.status, res.text).toBe(201);
    }
  });
});
