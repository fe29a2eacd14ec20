/**
 * NodeResourcesFit's filter, ported from upstream pkg/scheduler/framework/plugins/noderesources
 * fit_test.go (TestEnoughRequests, TestNotEnoughRequests, TestStorageRequests): the same node
 * (allocatable cpu 10m, memory 20, pods 32, example.com/aaa 5, ephemeral-storage 20,
 * hugepages-2Mi 5), the same pods, the same reasons. The ignored-resources case is not ported
 * (no plugin arguments here).
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { nodeResourcesFit, podRequests } from './resource-fit.js';
import type { ClusterView, NodeInfo } from './framework.js';

type R = { cpu?: number; mem?: number; storage?: number; scalars?: Record<string, number> };
const requests = (r: R) => {
  const out: Record<string, string> = {};
  if (r.cpu !== undefined) out.cpu = `${r.cpu}m`;
  if (r.mem !== undefined) out.memory = String(r.mem);
  if (r.storage !== undefined) out['ephemeral-storage'] = String(r.storage);
  for (const [k, v] of Object.entries(r.scalars ?? {})) out[k] = String(v);
  return out;
};
const containers = (rs: R[]) => rs.map((r, i) => ({ name: `c${i}`, image: 'i', resources: { requests: requests(r) } }));
const pod = (rs: R[], init: R[] = [], overhead?: Record<string, string>): Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns' },
    spec: { containers: containers(rs), initContainers: containers(init), overhead },
  }) as Pod;
const node = (pods: number): Node =>
  ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n' },
    status: {
      allocatable: {
        cpu: '10m',
        memory: '20',
        pods: String(pods),
        'example.com/aaa': '5',
        'ephemeral-storage': '20',
        'hugepages-2Mi': '5',
      },
    },
  }) as Node;
const filter = (p: Pod, info: NodeInfo) =>
  nodeResourcesFit.prepare(p, { nodes: [info], namespaceLabels: () => undefined } as ClusterView)(info);

const A = 'example.com/aaa';
const B = 'example.com/bbb';
const K8S_A = 'kubernetes.io/something';
const K8S_B = 'subdomain.kubernetes.io/something';
const HUGE = 'hugepages-2Mi';
const ins = (n: string) => `Insufficient ${n}`;

// [name, pod, the pod already on the node, reasons]
const enough: [string, Pod, R, string[]][] = [
  ['no resources requested always fits', pod([]), { cpu: 10, mem: 20 }, []],
  ['too many resources fails', pod([{ cpu: 1, mem: 1 }]), { cpu: 10, mem: 20 }, [ins('cpu'), ins('memory')]],
  [
    'too many resources fails due to init container cpu',
    pod([{ cpu: 1, mem: 1 }], [{ cpu: 3, mem: 1 }]),
    { cpu: 8, mem: 19 },
    [ins('cpu')],
  ],
  [
    'too many resources fails due to highest init container cpu',
    pod(
      [{ cpu: 1, mem: 1 }],
      [
        { cpu: 3, mem: 1 },
        { cpu: 2, mem: 1 },
      ],
    ),
    { cpu: 8, mem: 19 },
    [ins('cpu')],
  ],
  [
    'too many resources fails due to init container memory',
    pod([{ cpu: 1, mem: 1 }], [{ cpu: 1, mem: 3 }]),
    { cpu: 9, mem: 19 },
    [ins('memory')],
  ],
  [
    'too many resources fails due to highest init container memory',
    pod(
      [{ cpu: 1, mem: 1 }],
      [
        { cpu: 1, mem: 3 },
        { cpu: 1, mem: 2 },
      ],
    ),
    { cpu: 9, mem: 19 },
    [ins('memory')],
  ],
  [
    "init container fits because it's the max, not sum, of containers and init containers",
    pod([{ cpu: 1, mem: 1 }], [{ cpu: 1, mem: 1 }]),
    { cpu: 9, mem: 19 },
    [],
  ],
  [
    "multiple init containers fit because it's the max, not sum, of containers and init containers",
    pod(
      [{ cpu: 1, mem: 1 }],
      [
        { cpu: 1, mem: 1 },
        { cpu: 1, mem: 1 },
      ],
    ),
    { cpu: 9, mem: 19 },
    [],
  ],
  ['both resources fit', pod([{ cpu: 1, mem: 1 }]), { cpu: 5, mem: 5 }, []],
  ['one resource memory fits', pod([{ cpu: 2, mem: 1 }]), { cpu: 9, mem: 5 }, [ins('cpu')]],
  ['one resource cpu fits', pod([{ cpu: 1, mem: 2 }]), { cpu: 5, mem: 19 }, [ins('memory')]],
  ['equal edge case', pod([{ cpu: 5, mem: 1 }]), { cpu: 5, mem: 19 }, []],
  ['equal edge case for init container', pod([{ cpu: 4, mem: 1 }], [{ cpu: 5, mem: 1 }]), { cpu: 5, mem: 19 }, []],
  ['extended resource fits', pod([{ scalars: { [A]: 1 } }]), {}, []],
  ['extended resource fits for init container', pod([{}], [{ scalars: { [A]: 1 } }]), {}, []],
  [
    'extended resource capacity enforced',
    pod([{ cpu: 1, mem: 1, scalars: { [A]: 10 } }]),
    { scalars: { [A]: 0 } },
    [ins(A)],
  ],
  [
    'extended resource capacity enforced for init container',
    pod([{}], [{ cpu: 1, mem: 1, scalars: { [A]: 10 } }]),
    { scalars: { [A]: 0 } },
    [ins(A)],
  ],
  [
    'extended resource allocatable enforced',
    pod([{ cpu: 1, mem: 1, scalars: { [A]: 1 } }]),
    { scalars: { [A]: 5 } },
    [ins(A)],
  ],
  [
    'extended resource allocatable enforced for init container',
    pod([{}], [{ cpu: 1, mem: 1, scalars: { [A]: 1 } }]),
    { scalars: { [A]: 5 } },
    [ins(A)],
  ],
  [
    'extended resource allocatable enforced for multiple containers',
    pod([
      { cpu: 1, mem: 1, scalars: { [A]: 3 } },
      { cpu: 1, mem: 1, scalars: { [A]: 3 } },
    ]),
    { scalars: { [A]: 2 } },
    [ins(A)],
  ],
  [
    'extended resource allocatable admits multiple init containers',
    pod(
      [{}],
      [
        { cpu: 1, mem: 1, scalars: { [A]: 3 } },
        { cpu: 1, mem: 1, scalars: { [A]: 3 } },
      ],
    ),
    { scalars: { [A]: 2 } },
    [],
  ],
  [
    'extended resource allocatable enforced for multiple init containers',
    pod(
      [{}],
      [
        { cpu: 1, mem: 1, scalars: { [A]: 6 } },
        { cpu: 1, mem: 1, scalars: { [A]: 3 } },
      ],
    ),
    { scalars: { [A]: 2 } },
    [ins(A)],
  ],
  [
    'extended resource allocatable enforced for unknown resource',
    pod([{ cpu: 1, mem: 1, scalars: { [B]: 1 } }]),
    {},
    [ins(B)],
  ],
  [
    'extended resource allocatable enforced for unknown resource for init container',
    pod([{}], [{ cpu: 1, mem: 1, scalars: { [B]: 1 } }]),
    {},
    [ins(B)],
  ],
  ['kubernetes.io resource capacity enforced', pod([{ cpu: 1, mem: 1, scalars: { [K8S_A]: 10 } }]), {}, [ins(K8S_A)]],
  [
    'kubernetes.io resource capacity enforced for init container',
    pod([{}], [{ cpu: 1, mem: 1, scalars: { [K8S_B]: 10 } }]),
    {},
    [ins(K8S_B)],
  ],
  [
    'hugepages resource capacity enforced',
    pod([{ cpu: 1, mem: 1, scalars: { [HUGE]: 10 } }]),
    { scalars: { [HUGE]: 0 } },
    [ins(HUGE)],
  ],
  [
    'hugepages resource capacity enforced for init container',
    pod([{}], [{ cpu: 1, mem: 1, scalars: { [HUGE]: 10 } }]),
    { scalars: { [HUGE]: 0 } },
    [ins(HUGE)],
  ],
  [
    'hugepages resource allocatable enforced for multiple containers',
    pod([
      { cpu: 1, mem: 1, scalars: { [HUGE]: 3 } },
      { cpu: 1, mem: 1, scalars: { [HUGE]: 3 } },
    ]),
    { scalars: { [HUGE]: 2 } },
    [ins(HUGE)],
  ],
  ['resources + pod overhead fits', pod([{ cpu: 1, mem: 1 }], [], { cpu: '3m', memory: '13' }), { cpu: 5, mem: 5 }, []],
  [
    'requests + overhead does not fit for memory',
    pod([{ cpu: 1, mem: 1 }], [], { cpu: '1m', memory: '15' }),
    { cpu: 5, mem: 5 },
    [ins('memory')],
  ],
];

describe('NodeResourcesFit (upstream TestEnoughRequests)', () => {
  it.each(enough)('%s', (_name, p, existing, reasons) => {
    const status = filter(p, { node: node(32), pods: [pod([existing])] });
    if (!reasons.length) expect(status).toBeNull();
    else expect(status).toEqual({ plugin: 'NodeResourcesFit', code: 'Unschedulable', reasons });
  });
});

const notEnough: [string, Pod, R][] = [
  [
    "even without specified resources predicate fails when there's no space for additional pod",
    pod([]),
    { cpu: 10, mem: 20 },
  ],
  [
    "even if both resources fit predicate fails when there's no space for additional pod",
    pod([{ cpu: 1, mem: 1 }]),
    { cpu: 5, mem: 5 },
  ],
  [
    "even for equal edge case predicate fails when there's no space for additional pod",
    pod([{ cpu: 5, mem: 1 }]),
    { cpu: 5, mem: 19 },
  ],
  [
    "even for equal edge case predicate fails when there's no space for additional pod due to init container",
    pod([{ cpu: 5, mem: 1 }], [{ cpu: 5, mem: 1 }]),
    { cpu: 5, mem: 19 },
  ],
];

describe('NodeResourcesFit (upstream TestNotEnoughRequests: one pod slot, taken)', () => {
  it.each(notEnough)('%s', (_name, p, existing) => {
    expect(filter(p, { node: node(1), pods: [pod([existing])] })).toEqual({
      plugin: 'NodeResourcesFit',
      code: 'Unschedulable',
      reasons: ['Too many pods'],
    });
  });
});

const storage: [string, Pod, R, string[]][] = [
  ['due to container scratch disk', pod([{ cpu: 1, mem: 1 }]), { cpu: 10, mem: 10 }, [ins('cpu')]],
  ['pod fit', pod([{ cpu: 1, mem: 1 }]), { cpu: 2, mem: 10 }, []],
  [
    'storage ephemeral local storage request exceeds allocatable',
    pod([{ storage: 25 }]),
    { cpu: 2, mem: 2 },
    [ins('ephemeral-storage')],
  ],
  ['pod fits', pod([{ storage: 10 }]), { cpu: 2, mem: 2 }, []],
];

describe('NodeResourcesFit (upstream TestStorageRequests)', () => {
  it.each(storage)('%s', (_name, p, existing, reasons) => {
    const status = filter(p, { node: node(32), pods: [pod([existing])] });
    expect(status?.reasons ?? []).toEqual(reasons);
  });
});

describe('pod requests (component-helpers PodRequests)', () => {
  it('counts sidecar init containers beside the app containers and every later init container', () => {
    const p = pod([{ cpu: 100 }], [{ cpu: 50 }, { cpu: 300 }]);
    (p.spec!.initContainers![0] as { restartPolicy?: string }).restartPolicy = 'Always';
    // Containers 100 + sidecar 50 = 150; the second init container runs beside the sidecar: 350.
    expect(podRequests(p).get('cpu')).toBe(350);
  });

  it('gives containers without requests the scoring defaults (100m cpu, 200Mi memory)', () => {
    const p = pod([{}, { cpu: 20 }]);
    expect(podRequests(p, true).get('cpu')).toBe(120);
    expect(podRequests(p, true).get('memory')).toBe(2 * 200 * 1024 * 1024);
    expect(podRequests(p).get('cpu')).toBe(20);
  });
});
