/**
 * The endpoints, ports and address types of slices, ported from upstream 1.33
 * k8s.io/endpointslice/utils_test.go (TestPodToEndpoint, TestServiceControllerKey,
 * TestSupportedServiceAddressType, TestGetEndpointPorts essentials, TestSetEndpointSliceLabels
 * essentials, TestNewEndpointSlice) and util/controller_utils_test.go TestEndpointsEqualBeyondHash
 * (essentials).
 */
import { describe, expect, it } from 'vitest';
import type { EndpointSlice } from '../../resources/endpointslices/endpointslices.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import {
  addressTypesForService,
  endpointPorts,
  endpointsEqualBeyondHash,
  podToEndpoint,
  serviceControllerKey,
  type Endpoint,
} from './endpoint.js';
import { newPod, newService } from './slices.fixture.js';
import { newEndpointSlice, sliceLabels } from './slice.js';

const ns = 'test';
const ref = (name: string) => ({ kind: 'Pod', namespace: ns, name });
const cond = (ready: boolean, serving: boolean, terminating: boolean) => ({ ready, serving, terminating });

describe('podToEndpoint (TestPodToEndpoint)', () => {
  const svc = newService('foo', ns);
  const publish = newService('publishnotready', ns);
  publish.spec!.publishNotReadyAddresses = true;
  const ready = newPod(1, ns, true, 1, false);
  const hostnamed = newPod(1, ns, true, 1, false);
  hostnamed.spec = { ...hostnamed.spec!, subdomain: 'foo', hostname: 'example-hostname' };
  const multiIP = newPod(1, ns, true, 1, false);
  multiIP.status!.podIPs = [{ ip: '1.2.3.4' }, { ip: '1234::5678:0000:0000:9abc:def0' }];
  const node1: Node = {
    metadata: {
      name: 'node-1',
      labels: { 'topology.kubernetes.io/zone': 'us-central1-a', 'topology.kubernetes.io/region': 'us-central1' },
    },
  };
  const ep = (addresses: string[], c: ReturnType<typeof cond>, extra: Partial<Endpoint> = {}): Endpoint => ({
    addresses,
    conditions: c,
    nodeName: 'node-1',
    targetRef: ref('pod1'),
    ...extra,
  });
  it.each([
    ['Ready pod', ready, undefined, svc, ep(['1.2.3.5'], cond(true, true, false))],
    ['Ready pod + publishNotReadyAddresses', ready, undefined, publish, ep(['1.2.3.5'], cond(true, true, false))],
    ['Unready pod', newPod(1, ns, false, 1, false), undefined, svc, ep(['1.2.3.5'], cond(false, false, false))],
    [
      'Unready pod + publishNotReadyAddresses',
      newPod(1, ns, false, 1, false),
      undefined,
      publish,
      ep(['1.2.3.5'], cond(true, false, false)),
    ],
    ['Ready pod + node labels', ready, node1, svc, ep(['1.2.3.5'], cond(true, true, false), { zone: 'us-central1-a' })],
    [
      'Multi IP Ready pod + node labels',
      multiIP,
      node1,
      svc,
      ep(['1.2.3.4'], cond(true, true, false), { zone: 'us-central1-a' }),
    ],
    [
      'Ready pod + hostname',
      hostnamed,
      node1,
      svc,
      ep(['1.2.3.5'], cond(true, true, false), { hostname: 'example-hostname', zone: 'us-central1-a' }),
    ],
    ['Ready terminating pod', newPod(1, ns, true, 1, true), undefined, svc, ep(['1.2.3.5'], cond(false, true, true))],
    [
      'Not ready terminating pod',
      newPod(1, ns, false, 1, true),
      undefined,
      svc,
      ep(['1.2.3.5'], cond(false, false, true)),
    ],
  ])('%s', (_n, pod, node, service, want) => {
    expect(podToEndpoint(pod, node, service, 'IPv4')).toEqual(want);
  });

  it('writes IPv6 addresses in canonical form for an IPv6 slice', () => {
    expect(podToEndpoint(multiIP, undefined, svc, 'IPv6').addresses).toEqual(['1234::5678:0:0:9abc:def0']);
  });
});

describe('serviceControllerKey (TestServiceControllerKey)', () => {
  it('throws for no slice and for a slice without the service-name label', () => {
    expect(() => serviceControllerKey(undefined)).toThrow('nil EndpointSlice passed to ServiceControllerKey()');
    expect(() => serviceControllerKey({ metadata: {} })).toThrow(
      'EndpointSlice missing kubernetes.io/service-name label',
    );
  });
  it('answers namespace/service for a labelled slice', () => {
    const slice: EndpointSlice = { metadata: { namespace: 'ns', labels: { 'kubernetes.io/service-name': 'svc' } } };
    expect(serviceControllerKey(slice)).toBe('ns/svc');
  });
});

describe('addressTypesForService (TestSupportedServiceAddressType)', () => {
  it.each([
    ['v4 service with no ip families', { clusterIP: '10.0.0.10' }, ['IPv4']],
    ['v6 service with no ip families', { clusterIP: '2000::1' }, ['IPv6']],
    ['v4 service', { ipFamilies: ['IPv4'] }, ['IPv4']],
    ['v6 service', { ipFamilies: ['IPv6'] }, ['IPv6']],
    ['v4,v6 service', { ipFamilies: ['IPv4', 'IPv6'] }, ['IPv4', 'IPv6']],
    ['v6,v4 service', { ipFamilies: ['IPv6', 'IPv4'] }, ['IPv4', 'IPv6']],
    ['headless, no families (old api-server)', { clusterIP: 'None' }, ['IPv4', 'IPv6']],
    ['headless with families', { clusterIP: 'None', ipFamilies: ['IPv4', 'IPv6'] }, ['IPv4', 'IPv6']],
  ])('%s', (_n, spec, want) => {
    expect([...addressTypesForService({ metadata: {}, spec })].sort()).toEqual(want);
  });
});

describe('endpointPorts (TestGetEndpointPorts essentials)', () => {
  const pod = newPod(1, ns, true, 0, false);
  pod.spec!.containers = [{ name: 'c', ports: [{ name: 'http', containerPort: 80 }], image: 'x' }];
  it('resolves named and numbered ports, drops unknown names, keeps appProtocol', () => {
    const svc = newService('foo', ns);
    svc.spec!.ports = [
      { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP', appProtocol: 'http' },
      { name: 'https', port: 443, targetPort: 'https', protocol: 'TCP' },
      { name: 'num', port: 81, targetPort: 8081, protocol: 'UDP' },
    ];
    expect(endpointPorts(svc, pod)).toEqual([
      { name: 'http', port: 80, protocol: 'TCP', appProtocol: 'http' },
      { name: 'num', port: 8081, protocol: 'UDP' },
    ]);
  });
  it('gives a headless Service without ports no ports', () => {
    expect(endpointPorts({ metadata: {}, spec: { clusterIP: 'None' } }, pod)).toEqual([]);
  });
});

describe('sliceLabels and newEndpointSlice (TestSetEndpointSliceLabels, TestNewEndpointSlice essentials)', () => {
  it('copies the Service’s labels but the reserved ones and sets its own', () => {
    const svc = newService('foo', ns);
    svc.metadata.labels = {
      foo: 'bar',
      'kubernetes.io/service-name': 'bad',
      'endpointslice.kubernetes.io/managed-by': 'actor',
    };
    svc.spec!.clusterIP = '10.0.0.1';
    const slice = newEndpointSlice(svc, { ports: [{ name: 'foo', port: 80, protocol: 'TCP' }], addressType: 'IPv4' });
    expect(slice.metadata).toMatchObject({
      generateName: 'foo-',
      namespace: ns,
      labels: {
        foo: 'bar',
        'kubernetes.io/service-name': 'foo',
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      },
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Service', name: 'foo', uid: 'test-foo', controller: true, blockOwnerDeletion: true },
      ],
    });
    expect(slice).toMatchObject({
      addressType: 'IPv4',
      endpoints: [],
      ports: [{ name: 'foo', port: 80, protocol: 'TCP' }],
    });
    expect(sliceLabels(slice, svc).changed).toBe(false);
  });
  it('marks a headless Service’s slices and says when its labels changed', () => {
    const svc = newService('foo', ns);
    const { labels, changed } = sliceLabels(
      { metadata: { labels: { old: 'x', 'service.kubernetes.io/headless': '' } } },
      svc,
    );
    expect(labels).toEqual({
      'service.kubernetes.io/headless': '',
      'kubernetes.io/service-name': 'foo',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    expect(changed).toBe(true);
  });
});

describe('endpointsEqualBeyondHash (TestEndpointsEqualBeyondHash essentials)', () => {
  const base: Endpoint = {
    addresses: ['10.1.2.1'],
    conditions: { ready: true, serving: true, terminating: false },
    nodeName: 'node-1',
    zone: 'zone-1',
    targetRef: { kind: 'Pod', namespace: 'default', name: 'pod0', resourceVersion: '1' },
  };
  it.each([
    ['identical', {}, true],
    ['different resourceVersion of the target', { targetRef: { ...base.targetRef, resourceVersion: '2' } }, true],
    ['different ready condition', { conditions: { ...base.conditions, ready: false } }, false],
    ['different serving condition', { conditions: { ...base.conditions, serving: false } }, false],
    ['different terminating condition', { conditions: { ...base.conditions, terminating: true } }, false],
    ['different node', { nodeName: 'node-2' }, false],
    ['different zone', { zone: 'zone-2' }, false],
    ['different target', { targetRef: { ...base.targetRef, name: 'pod1' } }, false],
  ])('%s', (_n, change, want) => {
    expect(endpointsEqualBeyondHash(base, { ...base, ...change } as Endpoint)).toBe(want);
  });
});
