/**
 * Which pods make endpoints and which Services a pod change queues, ported from upstream 1.33
 * k8s.io/endpointslice/util/controller_utils_test.go: TestDetermineNeededServiceUpdates,
 * TestShouldPodBeInEndpoints, TestShouldSetHostname, TestGetPodServiceMemberships (essentials),
 * Test_podChanged (essentials); and utils.go findPort through named ports.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import {
  determineNeededServiceUpdates,
  findPort,
  podEndpointsChanged,
  podServiceMemberships,
  servicesToUpdateOnPodChange,
  shouldPodBeInEndpoints,
  shouldSetHostname,
} from './pod-util.js';

const pod = (status: Pod['status'], extra: Partial<Pod> = {}): Pod => ({
  metadata: {},
  spec: { containers: [] },
  status,
  ...extra,
});
const now = new Date().toISOString();

describe('determineNeededServiceUpdates (TestDetermineNeededServiceUpdates)', () => {
  it.each([
    ['no services changed', 'abc', 'abc', '', 'abc'],
    ['all old removed, new added', 'abc', 'def', 'abcdef', 'abcdef'],
    ['all old removed, none added', 'abc', '', 'abc', 'abc'],
    ['no old, new added', '', 'abc', 'abc', 'abc'],
    ['one removed, one added, two unchanged', 'abc', 'bcd', 'ad', 'abcd'],
    ['no services', '', '', '', ''],
  ])('%s', (_n, a, b, xor, union) => {
    const set = (s: string) => new Set(s.split('').filter(Boolean));
    expect([...determineNeededServiceUpdates(set(a), set(b), false)].sort()).toEqual([...set(xor)].sort());
    expect([...determineNeededServiceUpdates(set(a), set(b), true)].sort()).toEqual([...set(union)].sort());
  });
});

describe('shouldPodBeInEndpoints (TestShouldPodBeInEndpoints)', () => {
  const deleting = { metadata: { deletionTimestamp: now } };
  it.each([
    ['Failed pod, Never', pod({ phase: 'Failed', podIP: '1.2.3.4' }), false, false],
    ['Succeeded pod, Never', pod({ phase: 'Succeeded', podIP: '1.2.3.4' }), false, false],
    ['Succeeded pod, OnFailure', pod({ phase: 'Succeeded', podIP: '1.2.3.4' }), false, false],
    ['empty pod IPs, Running', pod({ phase: 'Running', podIP: '', podIPs: [] }), false, false],
    ['terminating, includeTerminating=false', pod({ phase: 'Running', podIP: '1.2.3.4' }, deleting), false, false],
    ['Failed pod, Always', pod({ phase: 'Failed', podIP: '1.2.3.4' }), false, false],
    ['Pending pod', pod({ phase: 'Pending', podIP: '1.2.3.4' }), false, true],
    ['Unknown pod', pod({ phase: 'Unknown', podIP: '1.2.3.4' }), false, true],
    ['Running pod', pod({ phase: 'Running', podIP: '1.2.3.4' }), false, true],
    [
      'multiple pod IPs, Running',
      pod({ phase: 'Running', podIPs: [{ ip: '1.2.3.4' }, { ip: '1234::5678:0000:0000:9abc:def0' }] }),
      false,
      true,
    ],
    ['terminating, includeTerminating=true', pod({ phase: 'Running', podIP: '1.2.3.4' }, deleting), true, true],
  ])('%s', (_n, p, includeTerminating, want) => {
    expect(shouldPodBeInEndpoints(p, includeTerminating)).toBe(want);
  });
});

describe('shouldSetHostname (TestShouldSetHostname)', () => {
  const p = (ns: string, hostname: string, subdomain: string): Pod => ({
    metadata: { namespace: ns, name: 'foo' },
    spec: { containers: [], hostname, subdomain },
  });
  const svc = (ns: string, name: string): Service => ({ metadata: { namespace: ns, name } });
  it.each([
    ['all matching', p('ns', 'foo', 'svc-name'), svc('ns', 'svc-name'), true],
    ['all matching, hostname not set', p('ns', '', 'svc-name'), svc('ns', 'svc-name'), false],
    ['all set, different name/subdomain', p('ns', 'hostname', 'subdomain'), svc('ns', 'name'), false],
    ['all set, different namespace', p('ns1', 'hostname', 'svc-name'), svc('ns2', 'svc-name'), false],
  ])('%s', (_n, po, sv, want) => expect(shouldSetHostname(po, sv)).toBe(want));
});

const labelled = (labels: Record<string, string>, rv = '1', extra: Partial<Pod['status']> = {}): Pod => ({
  metadata: { namespace: 'test', name: 'pod', labels, resourceVersion: rv },
  spec: { containers: [] },
  status: { podIPs: [{ ip: '1.2.3.4' }], conditions: [{ type: 'Ready', status: 'True' }], ...extra },
});
const svcSel = (name: string, selector?: Record<string, string>, ns = 'test'): Service => ({
  metadata: { namespace: ns, name },
  spec: { ...(selector ? { selector } : {}) },
});

describe('podServiceMemberships (TestGetPodServiceMemberships essentials)', () => {
  const services = [
    svcSel('selects-foo', { foo: 'bar' }),
    svcSel('selects-all', {}),
    svcSel('no-selector'),
    svcSel('other-ns', { foo: 'bar' }, 'other'),
    svcSel('selects-baz', { baz: 'x' }),
  ];
  it('a map selector selects by its labels, an empty one selects all, none selects nothing, across namespaces none', () => {
    expect([...podServiceMemberships(services, labelled({ foo: 'bar' }))].sort()).toEqual([
      'test/selects-all',
      'test/selects-foo',
    ]);
    expect([...podServiceMemberships(services, labelled({}))]).toEqual(['test/selects-all']);
  });
});

describe('podEndpointsChanged and servicesToUpdateOnPodChange (Test_podChanged essentials)', () => {
  const base = labelled({ foo: 'bar' });
  it.each([
    ['nothing changed', base, false, false],
    ['pod IP changed', labelled({ foo: 'bar' }, '2', { podIPs: [{ ip: '1.2.3.5' }] }), true, false],
    [
      'readiness changed',
      labelled({ foo: 'bar' }, '2', { conditions: [{ type: 'Ready', status: 'False' }] }),
      true,
      false,
    ],
    ['deletion timestamp set', { ...base, metadata: { ...base.metadata, deletionTimestamp: now } }, true, false],
    ['labels changed', labelled({ foo: 'baz' }, '2'), false, true],
    ['hostname changed', { ...base, spec: { containers: [], hostname: 'h' } }, false, true],
  ])('%s', (_n, next, podChanged, labelsChanged) => {
    expect(podEndpointsChanged(base, next)).toEqual({ podChanged, labelsChanged });
  });

  it('queues nothing for the same resourceVersion, the old and new Services when labels move', () => {
    const services = [svcSel('a', { foo: 'bar' }), svcSel('b', { foo: 'baz' })];
    expect(servicesToUpdateOnPodChange(services, base, { ...base, status: {} })).toEqual(new Set());
    expect(servicesToUpdateOnPodChange(services, base, labelled({ foo: 'baz' }, '2'))).toEqual(
      new Set(['test/a', 'test/b']),
    );
    expect(servicesToUpdateOnPodChange(services, base, labelled({ foo: 'bar' }, '2', { podIPs: [] }))).toEqual(
      new Set(['test/a']),
    );
  });
});

describe('findPort', () => {
  const p: Pod = {
    metadata: {},
    spec: {
      containers: [
        {
          name: 'c',
          ports: [
            { name: 'http', containerPort: 8080 },
            { name: 'dns', containerPort: 53, protocol: 'UDP' },
          ],
        },
      ],
      initContainers: [
        { name: 'side', restartPolicy: 'Always', ports: [{ name: 'metrics', containerPort: 9090 }] },
        { name: 'init', ports: [{ name: 'setup', containerPort: 7070 }] },
      ],
    },
  };
  it.each([
    ['a number', { port: 80, targetPort: 8081 }, 8081],
    ['unset: the port', { port: 80 }, 80],
    ['a name', { port: 80, targetPort: 'http' }, 8080],
    ['a name of another protocol', { port: 53, targetPort: 'dns' }, undefined],
    ['a name with its protocol', { port: 53, targetPort: 'dns', protocol: 'UDP' }, 53],
    ['a sidecar’s name', { port: 90, targetPort: 'metrics' }, 9090],
    ['a plain init container’s name', { port: 70, targetPort: 'setup' }, undefined],
    ['a missing name', { port: 80, targetPort: 'nope' }, undefined],
  ])('resolves %s', (_n, svcPort, want) => expect(findPort(p, svcPort)).toBe(want));
});
