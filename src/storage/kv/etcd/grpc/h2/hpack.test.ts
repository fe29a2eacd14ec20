import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeHeaders, HpackDecoder, HpackError } from './hpack.js';

type Fields = Array<[string, string]>;
const hex = (h: string): Buffer => Buffer.from(h, 'hex');

/** RFC 7541 C.3 / C.4 requests (one connection each). */
const REQUESTS: Fields[] = [
  [
    [':method', 'GET'],
    [':scheme', 'http'],
    [':path', '/'],
    [':authority', 'www.example.com'],
  ],
  [
    [':method', 'GET'],
    [':scheme', 'http'],
    [':path', '/'],
    [':authority', 'www.example.com'],
    ['cache-control', 'no-cache'],
  ],
  [
    [':method', 'GET'],
    [':scheme', 'https'],
    [':path', '/index.html'],
    [':authority', 'www.example.com'],
    ['custom-key', 'custom-value'],
  ],
];
/** RFC 7541 C.5 / C.6 responses (256-octet table). */
const DATE1 = 'Mon, 21 Oct 2013 20:13:21 GMT';
const LOCATION = 'https://www.example.com';
const COOKIE = 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1';
const RESPONSES: Fields[] = [
  [
    [':status', '302'],
    ['cache-control', 'private'],
    ['date', DATE1],
    ['location', LOCATION],
  ],
  [
    [':status', '307'],
    ['cache-control', 'private'],
    ['date', DATE1],
    ['location', LOCATION],
  ],
  [
    [':status', '200'],
    ['cache-control', 'private'],
    ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'],
    ['location', LOCATION],
    ['content-encoding', 'gzip'],
    ['set-cookie', COOKIE],
  ],
];

/** Blocks (hex) in order on one decoder, with the fields and the dynamic table (octets, entries) after each. */
function sequence(maxTableSize: number, blocks: string[], fields: Fields[], tables: Array<[number, number]>): void {
  const decoder = new HpackDecoder(maxTableSize);
  blocks.forEach((block, i) => {
    expect(decoder.decode(hex(block))).toEqual(fields[i]);
    expect([decoder.tableSize, decoder.tableLength]).toEqual(tables[i]);
  });
}

describe('HpackDecoder: RFC 7541 Appendix C', () => {
  it('C.2.1-C.2.4: one field of each representation', () => {
    const d = new HpackDecoder();
    expect(d.decode(hex('400a637573746f6d2d6b65790d637573746f6d2d686561646572'))).toEqual([
      ['custom-key', 'custom-header'],
    ]);
    expect([d.tableSize, d.tableLength]).toEqual([55, 1]);
    expect(new HpackDecoder().decode(hex('040c2f73616d706c652f70617468'))).toEqual([[':path', '/sample/path']]);
    const never = new HpackDecoder();
    expect(never.decode(hex('100870617373776f726406736563726574'))).toEqual([['password', 'secret']]);
    expect(never.tableLength).toBe(0);
    expect(new HpackDecoder().decode(hex('82'))).toEqual([[':method', 'GET']]);
  });

  it('C.3: requests without Huffman coding', () => {
    const blocks = [
      '828684410f7777772e6578616d706c652e636f6d',
      '828684be58086e6f2d6361636865',
      '828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565',
    ];
    sequence(4096, blocks, REQUESTS, [
      [57, 1],
      [110, 2],
      [164, 3],
    ]);
  });

  it('C.4: requests with Huffman coding', () => {
    const blocks = [
      '828684418cf1e3c2e5f23a6ba0ab90f4ff',
      '828684be5886a8eb10649cbf',
      '828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf',
    ];
    sequence(4096, blocks, REQUESTS, [
      [57, 1],
      [110, 2],
      [164, 3],
    ]);
  });

  it('C.5: responses without Huffman coding, evicting from a 256-octet table', () => {
    const blocks = [
      '4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a323120474d546e1768747470733a2f2f7777772e6578616d706c652e636f6d',
      '4803333037c1c0bf',
      '88c1611d4d6f6e2c203231204f637420323031332032303a31333a323220474d54c05a04677a69707738666f6f3d4153444a4b48514b425a584f5157454f50495541585157454f49553b206d61782d6167653d333630303b2076657273696f6e3d31',
    ];
    sequence(256, blocks, RESPONSES, [
      [222, 4],
      [222, 4],
      [215, 3],
    ]);
  });

  it('C.6: responses with Huffman coding, evicting from a 256-octet table', () => {
    const blocks = [
      '488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad171863c78f0b97c8e9ae82ae43d3',
      '4883640effc1c0bf',
      '88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007',
    ];
    sequence(256, blocks, RESPONSES, [
      [222, 4],
      [222, 4],
      [215, 3],
    ]);
  });
});

describe('HpackDecoder: blocks from python hpack 4.0.0 (Encoder, Huffman coding)', () => {
  it('decodes gRPC response headers and trailers on one connection', () => {
    const MSG = 'etcdserver: mvcc: required revision has been compacted';
    const blocks = [
      '885f8b1d75d0620d263d4c4d6564',
      '40889acac8b21234da8f8107',
      '7e82087f40899acac8b5254207317fa62a49220b6772d9714a7b909714b0bdad3585914b0bdcc831ea5271a148ca5a9421e9ac644964',
      '88c17f0081677f00a32a49220b6772d9714ea5f4a190a5474a95d87ee690b228ae012afde55f6540800a89bf',
      'c3c27e80',
    ];
    const fields: Fields[] = [
      [
        [':status', '200'],
        ['content-type', 'application/grpc'],
      ],
      [['grpc-status', '0']],
      [
        ['grpc-status', '11'],
        ['grpc-message', MSG],
      ],
      [
        [':status', '200'],
        ['content-type', 'application/grpc'],
        ['grpc-status', '3'],
        ['grpc-message', 'etcdserver: key is not provided %E2%9C%93 100%25'],
      ],
      [
        ['content-type', 'application/grpc'],
        ['grpc-status', '0'],
        ['grpc-message', ''],
      ],
    ];
    sequence(4096, blocks, fields, [
      [60, 1],
      [104, 2],
      [247, 4],
      [383, 6],
      [427, 7],
    ]);
  });
});

describe('HpackDecoder: dynamic table size updates and malformed blocks', () => {
  it('applies size updates at the start of a block, evicting, and rejects them elsewhere or too large', () => {
    const d = new HpackDecoder(256);
    d.decode(hex('400a637573746f6d2d6b65790d637573746f6d2d686561646572'));
    expect(d.decode(hex('20'))).toEqual([]);
    expect(d.tableLength).toBe(0);
    expect(d.decode(hex('3fe101' + '82'))).toEqual([[':method', 'GET']]); // 256, then a field
    expect(() => new HpackDecoder(256).decode(hex('3fe201'))).toThrow(HpackError); // 257
    expect(() => new HpackDecoder().decode(hex('8220'))).toThrow(HpackError);
  });

  it('drops an entry larger than the table, emptying it', () => {
    const d = new HpackDecoder(64);
    expect(d.decode(hex('400161' + '0162' + '40016303' + '646464'))).toEqual([
      ['a', 'b'],
      ['c', 'ddd'],
    ]);
    expect([d.tableSize, d.tableLength]).toEqual([36, 1]);
    expect(d.decode(hex('be'))).toEqual([['c', 'ddd']]);
    d.decode(hex('4001782d' + '79'.repeat(45))); // 1 + 45 + 32 > 64
    expect([d.tableSize, d.tableLength]).toEqual([0, 0]);
  });

  const bad: Array<[string, string]> = [
    ['index 0', '80'],
    ['index past the static table with an empty dynamic table', 'be'],
    ['index far out of range', 'fff0ffff07'],
    ['truncated integer', 'ff'],
    ['truncated integer continuation', 'ff80'],
    ['overlong integer', 'ff8000'],
    ['integer over 2^31 - 1', '0ff1ffffff07'],
    ['integer with too many continuation bytes', 'ff8080808080808001'],
    ['truncated name length', '00'],
    ['truncated name', '00036162'],
    ['truncated value', '0001610361'],
    ['string length over 2^31 - 1', '007fffffffff0f'],
    ['Huffman value with EOS', '00016184ffffffff'],
    ['Huffman value with bad padding', '00016181ff'],
  ];
  for (const [what, block] of bad) {
    it(`rejects ${what}`, () => {
      expect(() => new HpackDecoder().decode(hex(block))).toThrow(HpackError);
    });
  }

  it('decoding arbitrary octets returns fields or throws HpackError, never anything else', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 4 }), (blocks) => {
        const d = new HpackDecoder(256);
        for (const block of blocks) {
          try {
            d.decode(block);
          } catch (err) {
            expect(err).toBeInstanceOf(HpackError);
            return;
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('encodeHeaders', () => {
  it('writes literals without indexing, with static name indices and raw strings', () => {
    expect(encodeHeaders([[':path', '/sample/path']]).toString('hex')).toBe('040c2f73616d706c652f70617468');
    expect(encodeHeaders([['te', 'trailers']]).toString('hex')).toBe('0002746508747261696c657273');
    // www-authenticate is static index 61: 15 + 46.
    expect(encodeHeaders([['www-authenticate', '']]).toString('hex')).toBe('0f2e00');
    expect(encodeHeaders([])).toHaveLength(0);
  });

  it('round-trips through the decoder, leaving its table empty', () => {
    const fields: Fields = [
      [':method', 'POST'],
      [':scheme', 'http'],
      [':path', '/etcdserverpb.KV/Range'],
      [':authority', '127.0.0.1:2379'],
      ['content-type', 'application/grpc'],
      ['te', 'trailers'],
      ['grpc-timeout', '5000m'],
      ['x-empty', ''],
      ['', ''],
      ['accept', ''],
      ['x-long', 'v'.repeat(300)],
      ['n'.repeat(200), '\u00ff\u0000\u0080'.repeat(100)],
    ];
    const d = new HpackDecoder();
    expect(d.decode(encodeHeaders(fields))).toEqual(fields);
    expect(d.tableLength).toBe(0);
  });

  it('round-trips arbitrary Latin-1 header lists', () => {
    const latin1 = fc.string({
      unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)),
      maxLength: 300,
    });
    const name = fc.oneof(latin1, fc.constantFrom(':path', 'content-type', 'www-authenticate', 'accept-charset'));
    fc.assert(
      fc.property(fc.array(fc.tuple(name, latin1), { maxLength: 20 }), (fields) => {
        expect(new HpackDecoder().decode(encodeHeaders(fields))).toEqual(fields);
      }),
      { numRuns: 500 },
    );
  });
});
