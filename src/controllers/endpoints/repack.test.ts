/**
 * RepackSubsets, ported from upstream pkg/api/v1/endpoints/util_test.go TestPackSubsets (each
 * result compared with the expectation sorted by sortSubsets, as upstream compares with
 * SortSubsets(expect)). The "empty ports" cases follow 1.33's RepackSubsets, which keeps the
 * addresses of a subset without ports (older releases dropped them).
 */
import { describe, expect, it } from 'vitest';
import { repackSubsets, sortSubsets, type EndpointSubset } from './repack.js';

const ip = (a: string, uid?: string) => (uid === undefined ? { ip: a } : { ip: a, targetRef: { uid } });
const named = (a: string, name: string) => ({ ip: a, targetRef: { name } });
const p = (...ports: number[]) => ports.map((port) => ({ port }));

const cases: [string, EndpointSubset[], EndpointSubset[]][] = [
  ['empty everything', [{ addresses: [], ports: [] }], []],
  ['empty addresses', [{ addresses: [], ports: p(111) }], []],
  ['empty ports', [{ addresses: [ip('1.2.3.4')], ports: [] }], [{ addresses: [ip('1.2.3.4')] }]],
  [
    'empty ports, not ready',
    [{ notReadyAddresses: [ip('1.2.3.4')], ports: [] }],
    [{ notReadyAddresses: [ip('1.2.3.4')] }],
  ],
  [
    'one set, one ip, one port',
    [{ addresses: [ip('1.2.3.4')], ports: p(111) }],
    [{ addresses: [ip('1.2.3.4')], ports: p(111) }],
  ],
  [
    'one set, one ip, one port (IPv6)',
    [{ addresses: [ip('beef::1:2:3:4')], ports: p(111) }],
    [{ addresses: [ip('beef::1:2:3:4')], ports: p(111) }],
  ],
  [
    'one set, one notReady ip, one port',
    [{ notReadyAddresses: [ip('1.2.3.4')], ports: p(111) }],
    [{ notReadyAddresses: [ip('1.2.3.4')], ports: p(111) }],
  ],
  [
    'one set, one ip, one UID, one port',
    [{ addresses: [ip('1.2.3.4', 'uid-1')], ports: p(111) }],
    [{ addresses: [ip('1.2.3.4', 'uid-1')], ports: p(111) }],
  ],
  [
    'one set, one notReady ip, one UID, one port',
    [{ notReadyAddresses: [ip('1.2.3.4', 'uid-1')], ports: p(111) }],
    [{ notReadyAddresses: [ip('1.2.3.4', 'uid-1')], ports: p(111) }],
  ],
  [
    'one set, one ip, empty UID, one port',
    [{ addresses: [ip('1.2.3.4', '')], ports: p(111) }],
    [{ addresses: [ip('1.2.3.4', '')], ports: p(111) }],
  ],
  [
    'one set, one notReady ip, empty UID, one port',
    [{ notReadyAddresses: [ip('1.2.3.4', '')], ports: p(111) }],
    [{ notReadyAddresses: [ip('1.2.3.4', '')], ports: p(111) }],
  ],
  [
    'one set, two ips, one port',
    [{ addresses: [ip('1.2.3.4'), ip('5.6.7.8')], ports: p(111) }],
    [{ addresses: [ip('1.2.3.4'), ip('5.6.7.8')], ports: p(111) }],
  ],
  [
    'one set, two mixed ips, one port',
    [{ addresses: [ip('1.2.3.4')], notReadyAddresses: [ip('5.6.7.8')], ports: p(111) }],
    [{ addresses: [ip('1.2.3.4')], notReadyAddresses: [ip('5.6.7.8')], ports: p(111) }],
  ],
  [
    'one set, two duplicate ips, one port, notReady is covered by ready',
    [{ addresses: [ip('1.2.3.4')], notReadyAddresses: [ip('1.2.3.4')], ports: p(111) }],
    [{ notReadyAddresses: [ip('1.2.3.4')], ports: p(111) }],
  ],
  [
    'one set, one ip, two ports',
    [{ addresses: [ip('1.2.3.4')], ports: p(111, 222) }],
    [{ addresses: [ip('1.2.3.4')], ports: p(111, 222) }],
  ],
  [
    'one set, dup ips, one port',
    [{ addresses: [ip('1.2.3.4'), ip('1.2.3.4')], ports: p(111) }],
    [{ addresses: [ip('1.2.3.4')], ports: p(111) }],
  ],
  [
    'one set, dup ips, one port (IPv6)',
    [{ addresses: [ip('beef::1'), ip('beef::1')], ports: p(111) }],
    [{ addresses: [ip('beef::1')], ports: p(111) }],
  ],
  [
    'one set, dup ips with target-refs, one port',
    [{ addresses: [named('1.2.3.4', 'foo'), named('1.2.3.4', 'bar')], ports: p(111) }],
    [{ addresses: [named('1.2.3.4', 'foo')], ports: p(111) }],
  ],
  [
    'one set, dup mixed ips with target-refs, one port',
    [{ addresses: [named('1.2.3.4', 'foo')], notReadyAddresses: [named('1.2.3.4', 'bar')], ports: p(111) }],
    [{ notReadyAddresses: [named('1.2.3.4', 'foo')], ports: p(111) }],
  ],
  [
    'one set, one ip, dup ports',
    [{ addresses: [ip('1.2.3.4')], ports: p(111, 111) }],
    [{ addresses: [ip('1.2.3.4')], ports: p(111) }],
  ],
  [
    'two sets, dup ip, dup port',
    [
      { addresses: [ip('1.2.3.4')], ports: p(111) },
      { addresses: [ip('1.2.3.4')], ports: p(111) },
    ],
    [{ addresses: [ip('1.2.3.4')], ports: p(111) }],
  ],
  [
    'two sets, dup mixed ip, dup port',
    [
      { addresses: [ip('1.2.3.4')], ports: p(111) },
      { notReadyAddresses: [ip('1.2.3.4')], ports: p(111) },
    ],
    [{ notReadyAddresses: [ip('1.2.3.4')], ports: p(111) }],
  ],
  [
    'two sets, dup ip, two ports',
    [
      { addresses: [ip('1.2.3.4')], ports: p(111) },
      { addresses: [ip('1.2.3.4')], ports: p(222) },
    ],
    [{ addresses: [ip('1.2.3.4')], ports: p(111, 222) }],
  ],
  [
    'two sets, dup ip, dup uids, two ports',
    [
      { addresses: [ip('1.2.3.4', 'uid-1')], ports: p(111) },
      { addresses: [ip('1.2.3.4', 'uid-1')], ports: p(222) },
    ],
    [{ addresses: [ip('1.2.3.4', 'uid-1')], ports: p(111, 222) }],
  ],
  [
    'two sets, dup mixed ip, dup uids, two ports',
    [
      { addresses: [ip('1.2.3.4', 'uid-1')], ports: p(111) },
      { notReadyAddresses: [ip('1.2.3.4', 'uid-1')], ports: p(222) },
    ],
    [
      { addresses: [ip('1.2.3.4', 'uid-1')], ports: p(111) },
      { notReadyAddresses: [ip('1.2.3.4', 'uid-1')], ports: p(222) },
    ],
  ],
  [
    'two sets, two ips, dup port',
    [
      { addresses: [ip('1.2.3.4')], ports: p(111) },
      { addresses: [ip('5.6.7.8')], ports: p(111) },
    ],
    [{ addresses: [ip('1.2.3.4'), ip('5.6.7.8')], ports: p(111) }],
  ],
  [
    'two set, dup ip, two uids, dup ports',
    [
      { addresses: [ip('1.2.3.4', 'uid-1')], ports: p(111) },
      { addresses: [ip('1.2.3.4', 'uid-2')], ports: p(111) },
    ],
    [{ addresses: [ip('1.2.3.4', 'uid-1'), ip('1.2.3.4', 'uid-2')], ports: p(111) }],
  ],
  [
    'two set, dup ip, with and without uid, dup ports',
    [
      { addresses: [ip('1.2.3.4')], ports: p(111) },
      { addresses: [ip('1.2.3.4', 'uid-2')], ports: p(111) },
    ],
    [{ addresses: [ip('1.2.3.4'), ip('1.2.3.4', 'uid-2')], ports: p(111) }],
  ],
  [
    'two sets, two ips, two dup ip with uid, dup port, wrong order',
    [
      { addresses: [ip('5.6.7.8')], ports: p(111) },
      { addresses: [ip('5.6.7.8', 'uid-1')], ports: p(111) },
      { addresses: [ip('1.2.3.4', 'uid-1')], ports: p(111) },
      { addresses: [ip('1.2.3.4')], ports: p(111) },
    ],
    [{ addresses: [ip('1.2.3.4'), ip('1.2.3.4', 'uid-1'), ip('5.6.7.8'), ip('5.6.7.8', 'uid-1')], ports: p(111) }],
  ],
  [
    'two sets, two mixed ips, two dup ip with uid, dup port, wrong order, ends up with split addresses',
    [
      { addresses: [ip('5.6.7.8')], ports: p(111) },
      { notReadyAddresses: [ip('5.6.7.8', 'uid-1')], ports: p(111) },
      { notReadyAddresses: [ip('1.2.3.4', 'uid-1')], ports: p(111) },
      { notReadyAddresses: [ip('1.2.3.4')], ports: p(111) },
    ],
    [
      {
        addresses: [ip('5.6.7.8')],
        notReadyAddresses: [ip('1.2.3.4'), ip('1.2.3.4', 'uid-1'), ip('5.6.7.8', 'uid-1')],
        ports: p(111),
      },
    ],
  ],
  [
    'two sets, two ips, two ports',
    [
      { addresses: [ip('1.2.3.4')], ports: p(111) },
      { addresses: [ip('5.6.7.8')], ports: p(222) },
    ],
    [
      { addresses: [ip('1.2.3.4')], ports: p(111) },
      { addresses: [ip('5.6.7.8')], ports: p(222) },
    ],
  ],
  [
    'four sets, three ips, three ports, jumbled',
    [
      { addresses: [ip('1.2.3.4')], ports: p(111) },
      { addresses: [ip('1.2.3.5')], ports: p(222) },
      { addresses: [ip('1.2.3.6')], ports: p(111) },
      { addresses: [ip('1.2.3.5')], ports: p(333) },
    ],
    [
      { addresses: [ip('1.2.3.4'), ip('1.2.3.6')], ports: p(111) },
      { addresses: [ip('1.2.3.5')], ports: p(222, 333) },
    ],
  ],
  [
    'four sets, three mixed ips, three ports, jumbled',
    [
      { addresses: [ip('1.2.3.4')], ports: p(111) },
      { notReadyAddresses: [ip('1.2.3.5')], ports: p(222) },
      { addresses: [ip('1.2.3.6')], ports: p(111) },
      { notReadyAddresses: [ip('1.2.3.5')], ports: p(333) },
    ],
    [
      { addresses: [ip('1.2.3.4'), ip('1.2.3.6')], ports: p(111) },
      { notReadyAddresses: [ip('1.2.3.5')], ports: p(222, 333) },
    ],
  ],
];

describe('repackSubsets (TestPackSubsets)', () => {
  it.each(cases)('%s', (_name, given, want) => {
    const before = structuredClone(given);
    expect(repackSubsets(given)).toEqual(sortSubsets(structuredClone(want)));
    expect(given).toEqual(before);
  });

  it('sorts addresses by IP bytewise, then without a target before with, then by target UID', () => {
    const out = repackSubsets([
      { addresses: [ip('10.0.0.2', 'b'), ip('10.0.0.10'), ip('10.0.0.2', 'a'), ip('10.0.0.2')], ports: p(80) },
    ]);
    expect(out[0].addresses).toEqual([ip('10.0.0.10'), ip('10.0.0.2'), ip('10.0.0.2', 'a'), ip('10.0.0.2', 'b')]);
  });
});
