/**
 * resource.Quantity against upstream's own tables (k8s.io/apimachinery pkg/api/resource
 * quantity_test.go: TestQuantityParse, TestQuantityString, TestQuantityParseEmit,
 * TestParseQuantity, TestScaledValue, TestAdd, TestSub, TestJSONWhitespace), the huge-exponent
 * rules read from quantity.go / suffix.go / amount.go / scale_int.go, and properties: any text
 * or number parses or throws QuantityError, quickly; printed values parse back to themselves.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addQuantities,
  canonicalQuantity,
  compareQuantities,
  ERR_FORMAT_WRONG,
  ERR_NUMERIC,
  ERR_SUFFIX,
  formatQuantity,
  milliValue,
  negateQuantity,
  parseQuantity,
  parseQuantityText,
  Quantity,
  QuantityError,
  quantityOf,
  subtractQuantities,
  wholeValue,
  type QuantityFormat,
} from './quantity.js';
import { addLists, lessThanOrEqual, parseResourceList, prettyPrint } from './resource-list.js';

/** Upstream decQuantity(i, exponent, format): i × 10^exponent. */
const dec = (i: number | bigint, exponent: number, format: QuantityFormat = 'DecimalSI') =>
  new Quantity(BigInt(i), exponent, format);
const p = parseQuantityText;
const Ki = 1024n;

describe('ParseQuantity (upstream TestQuantityParse)', () => {
  const table: [string, Quantity][] = [
    ...['0', '0n', '0u', '0m', '0k', '0M', '0G', '0T'].map((s): [string, Quantity] => [s, dec(0, 0)]),
    ...['0Ki', '0Mi', '0Gi', '0Ti'].map((s): [string, Quantity] => [s, dec(0, 0, 'BinarySI')]),
    ['1', dec(1, 0)],
    ['1Ki', dec(Ki, 0, 'BinarySI')],
    ['8Ki', dec(8n * Ki, 0, 'BinarySI')],
    ['7Mi', dec(7n * Ki ** 2n, 0, 'BinarySI')],
    ['6Gi', dec(6n * Ki ** 3n, 0, 'BinarySI')],
    ['5Ti', dec(5n * Ki ** 4n, 0, 'BinarySI')],
    ['4Pi', dec(4n * Ki ** 5n, 0, 'BinarySI')],
    ['3Ei', dec(3n * Ki ** 6n, 0, 'BinarySI')],
    ['10Ti', dec(10n * Ki ** 4n, 0, 'BinarySI')],
    ['100Ti', dec(100n * Ki ** 4n, 0, 'BinarySI')],
    ['5n', dec(5, -9)],
    ['4u', dec(4, -6)],
    ['3m', dec(3, -3)],
    ['9', dec(9, 0)],
    ['8k', dec(8, 3)],
    ['50k', dec(5, 4)],
    ['7M', dec(7, 6)],
    ['6G', dec(6, 9)],
    ['5T', dec(5, 12)],
    ['40T', dec(4, 13)],
    ['300T', dec(3, 14)],
    ['2P', dec(2, 15)],
    ['1E', dec(1, 18)],
    ['1E-3', dec(1, -3, 'DecimalExponent')],
    ['1e3', dec(1, 3, 'DecimalExponent')],
    ['1E6', dec(1, 6, 'DecimalExponent')],
    ['1e9', dec(1, 9, 'DecimalExponent')],
    ['1E12', dec(1, 12, 'DecimalExponent')],
    ['1e15', dec(1, 15, 'DecimalExponent')],
    ['1E18', dec(1, 18, 'DecimalExponent')],
    ['1e14', dec(1, 14, 'DecimalExponent')],
    ['1e13', dec(1, 13, 'DecimalExponent')],
    ['100.035k', dec(100035, 0)],
    ['0.001', dec(1, -3)],
    ['0.0005k', dec(5, -1)],
    ['0.005', dec(5, -3)],
    ['0.05', dec(5, -2)],
    ['0.5', dec(5, -1)],
    ['0.00050k', dec(5, -1)],
    ['0.00500', dec(5, -3)],
    ['0.05000', dec(5, -2)],
    ['0.50000', dec(5, -1)],
    ['0.5e0', dec(5, -1, 'DecimalExponent')],
    ['0.5e-1', dec(5, -2, 'DecimalExponent')],
    ['0.5e-2', dec(5, -3, 'DecimalExponent')],
    ['10.035M', dec(10035, 3)],
    ['1.2e3', dec(12, 2, 'DecimalExponent')],
    ['1.3E+6', dec(13, 5, 'DecimalExponent')],
    ['1.40e9', dec(14, 8, 'DecimalExponent')],
    ['1.53E12', dec(153, 10, 'DecimalExponent')],
    ['1.6e15', dec(16, 14, 'DecimalExponent')],
    ['1.7E18', dec(17, 17, 'DecimalExponent')],
    ['9.01', dec(901, -2)],
    ['8.1k', dec(81, 2)],
    ['7.123456M', dec(7123456, 0)],
    ['6.987654321G', dec(6987654321, 0)],
    ['5.444T', dec(5444, 9)],
    ['40.1T', dec(401, 11)],
    ['300.2T', dec(3002, 11)],
    ['2.5P', dec(25, 14)],
    ['1.01E', dec(101, 16)],
    // Things that saturate or round (up, to the nano).
    ['3.001n', dec(4, -9)],
    ['1.1E-9', dec(2, -9, 'DecimalExponent')],
    ['0.0000000001', dec(1, -9)],
    ['0.0000000005', dec(1, -9)],
    ['0.00000000050', dec(1, -9)],
    ['0.5e-9', dec(1, -9, 'DecimalExponent')],
    ['0.9n', dec(1, -9)],
    ['0.00000012345', dec(124, -9)],
    ['0.00000012354', dec(124, -9)],
    ['9Ei', dec((1n << 63n) - 1n, 0, 'BinarySI')],
    ['9223372036854775807Ki', dec((1n << 63n) - 1n, 0, 'BinarySI')],
    ['12E', dec(12, 18)],
    // Fractional binary values.
    ['100.035Ki', dec(10243584, -2, 'BinarySI')],
    ['0.5Mi', dec(0.5 * 1024 * 1024, 0, 'BinarySI')],
    ['0.05Gi', dec(536870912, -1, 'BinarySI')],
    ['0.025Ti', dec(274877906944, -1, 'BinarySI')],
    // "Things written by trolls".
    ['0.000000000001Ki', dec(2, -9)],
    ['.001', dec(1, -3)],
    ['.0001k', dec(100, -3)],
    ['1.', dec(1, 0)],
    ['1.G', dec(1, 9)],
  ];
  it.each(table)('%s, with + and with -', (input, expected) => {
    for (const [text, want] of [
      [input, expected],
      [`+${input}`, expected],
      [`-${input}`, negateQuantity(expected)],
    ] as const) {
      const got = p(text);
      expect(compareQuantities(got, want), text).toBe(0);
      expect(got.format, text).toBe(want.format);
    }
  });

  it.each([
    ['', ERR_FORMAT_WRONG],
    ['1.1.M', ERR_FORMAT_WRONG],
    ['1+1.0M', ERR_FORMAT_WRONG],
    ['0.1am', ERR_FORMAT_WRONG],
    ['aoeu', ERR_FORMAT_WRONG],
    [' 1', ERR_FORMAT_WRONG],
    ['1 ', ERR_FORMAT_WRONG],
    ['1Gb', ERR_FORMAT_WRONG],
    ['1e5e', ERR_FORMAT_WRONG],
    ['0.1mi', ERR_SUFFIX],
    ['.5i', ERR_SUFFIX],
    ['1i', ERR_SUFFIX],
    ['-3.01i', ERR_SUFFIX],
    ['-3.01e-', ERR_SUFFIX],
    ['1e', ERR_SUFFIX],
    ['1Ki1', ERR_SUFFIX],
    ['1mk', ERR_SUFFIX],
    ['1e9223372036854775808', ERR_SUFFIX],
    ['1e-9223372036854775809', ERR_SUFFIX],
    ['.e-10', ERR_NUMERIC],
    ['e-10', ERR_NUMERIC],
    ['-.e-10', ERR_NUMERIC],
  ])('refuses %j with upstream error %j', (input, message) => {
    expect(() => p(input)).toThrow(new QuantityError(message));
  });

  it('accepts what upstream scans as zero, even without digits', () => {
    for (const zero of ['+', '-', '.', '-.', 'e5', 'Ki', 'm', '00', '-0'])
      expect(formatQuantity(p(zero)), zero).toBe('0');
  });
});

describe('String() (upstream TestQuantityString, TestQuantityParseEmit, TestParseQuantity)', () => {
  const table: [Quantity, string, string][] = [
    [dec(Ki ** 3n, 0, 'BinarySI'), '1Gi', '1024Mi'],
    [dec(300n * Ki ** 2n, 0, 'BinarySI'), '300Mi', '307200Ki'],
    [dec(6n * Ki, 0, 'BinarySI'), '6Ki', ''],
    [dec(1001n * Ki ** 3n, 0, 'BinarySI'), '1001Gi', '1025024Mi'],
    [dec(Ki ** 4n, 0, 'BinarySI'), '1Ti', '1024Gi'],
    [dec(5, 0, 'BinarySI'), '5', '5000m'],
    [dec(500, -3, 'BinarySI'), '500m', '0.5'],
    [dec(1, 9), '1G', '1000M'],
    [dec(1000, 6), '1G', '0.001T'],
    [dec(1000000, 3), '1G', ''],
    [dec(1000000000, 0), '1G', ''],
    [dec(1, -3), '1m', '1000u'],
    [dec(80, -3), '80m', ''],
    [dec(1080, -3), '1080m', '1.08'],
    [dec(108, -2), '1080m', '1080000000n'],
    [dec(10800, -4), '1080m', ''],
    [dec(300, 6), '300M', ''],
    [dec(1, 12), '1T', ''],
    [dec(1234567, 6), '1234567M', ''],
    [dec(1234567, -3, 'BinarySI'), '1234567m', ''],
    [dec(3, 3), '3k', ''],
    [dec(1025, 0, 'BinarySI'), '1025', ''],
    [dec(0, 0), '0', ''],
    [dec(0, 0, 'BinarySI'), '0', ''],
    [dec(1, 9, 'DecimalExponent'), '1e9', '.001e12'],
    [dec(1, -3, 'DecimalExponent'), '1e-3', '0.001e0'],
    [dec(1, -9, 'DecimalExponent'), '1e-9', '1000e-12'],
    [dec(80, -3, 'DecimalExponent'), '80e-3', ''],
    [dec(300, 6, 'DecimalExponent'), '300e6', ''],
    [dec(1, 12, 'DecimalExponent'), '1e12', ''],
    [dec(3, 3, 'DecimalExponent'), '3e3', ''],
    [dec(0, 0, 'DecimalExponent'), '0', '00'],
    [dec(1, -9), '1n', ''],
    [dec(80, -9), '80n', ''],
    [dec(1080, -9), '1080n', ''],
    [dec(108, -8), '1080n', ''],
    [dec(10800, -10), '1080n', ''],
    [dec(1, -6), '1u', ''],
    [dec(80, -6), '80u', ''],
    [dec(1080, -6), '1080u', ''],
  ];
  it.each(table.map(([q, canonical, alternate]) => [canonical, alternate, q] as const))(
    '%s (alternate %j): printed, kept on parse, re-printed',
    (canonical, alternate, q) => {
      expect(formatQuantity(q)).toBe(canonical);
      expect(p(canonical).text).toBe(canonical);
      if (q.coef !== 0n) expect(formatQuantity(negateQuantity(q))).toBe(`-${canonical}`);
      if (!alternate) return;
      expect(p(alternate).text).toBeUndefined();
      expect(formatQuantity(p(alternate))).toBe(canonical);
    },
  );

  it.each([
    ['1Ki', '1Ki'],
    ['1Mi', '1Mi'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['1000M', '1G'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
    // TestParseQuantity (values past int64).
    ['999999999999999999.1', '999999999999999999100m'],
    ['9999999999999999999.0', '9999999999999999999'],
    ['1000000000000000000', '1E'],
    ['10000000000000000000000m', '10E'],
    ['1.0000000000000000001E', '1000000000000000000100m'],
    ['10.000000000000000001E', '10000000000000000001'],
    ['9223372036854775808.1', '9223372036854775808100m'],
    ['-9223372036854775809000m', '-9223372036854775809'],
  ])('%s prints as %s (and its negation with a minus)', (input, canonical) => {
    expect(canonicalQuantity(input)).toBe(canonical);
    expect(canonicalQuantity(input.startsWith('-') ? input.slice(1) : `-${input}`)).toBe(
      input.startsWith('-') ? canonical.slice(1) : `-${canonical}`,
    );
  });

  it('prints the input verbatim when upstream keeps it, and drops exponents past E as upstream does', () => {
    // ParseQuantity keeps str when scale%3 == 0, no "000" suffix and no leading 0 (BinarySI: value&7 != 0).
    expect(['+1', '1.500', '1.', '010Ki', '1E3', '1e99999'].map(canonicalQuantity)).toEqual([
      '+1',
      '1.500',
      '1.',
      '010Ki',
      '1E3',
      '1e99999',
    ]);
    // CanonicalizeBytes ignores constructBytes' !ok: DecimalSI has no suffix past E (10^18).
    // Upstream prints these as 1, 3 and 1 (no SI suffix past E, so the exponent is lost); we keep the value.
    expect(['1000E', '3000E', '1000000000000000000000'].map(canonicalQuantity)).toEqual(['1e21', '3e21', '1e21']);
  });

  it('reads JSON numbers as their text, and trims strings as UnmarshalJSON (TestJSONWhitespace)', () => {
    expect([2, 0.25, 1e21, -1, 10].map((n) => canonicalQuantity(n))).toEqual(['2', '250m', '1e21', '-1', '10']);
    expect([' 1', '1 ', '\t-1\n'].map((s) => canonicalQuantity(s))).toEqual(['1', '1', '-1']);
  });
});

describe('huge exponents, as upstream keeps them', () => {
  it('parses 1e400 as int64Amount{1, 400}: exact, printed 10e399, Value() and MilliValue() overflowing to 0', () => {
    const q = p('1e400');
    expect([q.coef, q.exp, q.int64, formatQuantity(q)]).toEqual([1n, 400, true, '10e399']);
    expect([wholeValue(q), milliValue(q)]).toEqual([0n, 0n]);
    expect(compareQuantities(q, p('9223372036854775807'))).toBe(1);
    expect(compareQuantities(q, p('10e399'))).toBe(0);
    expect(compareQuantities(q, p('1.0000000000000000001e400'))).toBe(-1);
  });

  it('truncates the exponent to int32 as suffix.go does, and refuses one past int64', () => {
    expect(compareQuantities(p('1e4294967296'), quantityOf(1))).toBe(0);
    expect(compareQuantities(p('1e2147483648'), p('1e2147483647'))).toBe(1); // -2^31, negated again as an inf.Scale
    expect(formatQuantity(p('1e9223372036854775807'))).toBe('100e-3');
    // positiveScaleInt64 with an int32-wrapped scale returns its value: MilliValue() is 1.
    expect([milliValue(p('1e2147483646')), milliValue(p('1e2147483644'))]).toEqual([1n, 0n]);
  });

  it('compares and adds across 2^31 decimal places at once, rounding such sums away from zero', () => {
    const start = performance.now();
    const huge = p('1e2147483647');
    const mem = p('128Mi');
    expect([
      compareQuantities(huge, mem),
      compareQuantities(mem, huge),
      compareQuantities(p('-1e2147483647'), mem),
    ]).toEqual([1, -1, -1]);
    const sum = addQuantities(mem, huge);
    expect(compareQuantities(sum, huge)).toBe(1);
    expect(compareQuantities(subtractQuantities(huge, mem), huge)).toBe(0);
    expect(formatQuantity(sum)).toBe('11e2147483646'); // BinarySI too large to write out: exponent form
    expect(performance.now() - start).toBeLessThan(500);
  });

  it('handles megabyte texts in linear time (a request body may hold 3 MB)', () => {
    const start = performance.now();
    const mega = 1_000_000;
    expect(() => parseQuantity(`1${' '.repeat(mega)}x`)).toThrow(new QuantityError(ERR_FORMAT_WRONG));
    expect(canonicalQuantity(`${' '.repeat(mega)}1${' '.repeat(mega)}`)).toBe('1');
    expect(formatQuantity(p(`1${'0'.repeat(mega)}`))).toBe('10e999999'); // DecimalSI past E: printed with its exponent
    expect(formatQuantity(p(`0.${'0'.repeat(mega)}1`))).toBe('1n');
    expect(formatQuantity(p(`1e${'0'.repeat(mega)}5`))).toBe('100e3');
    expect(formatQuantity(p(`1.${'7'.repeat(mega)}Ki`))).toBe('1820444444445n');
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it('keeps 1e99999 + 128Mi exact, as upstream', () => {
    const sum = addQuantities(p('1e99999'), p('128Mi'));
    expect(formatQuantity(sum)).toBe(`1${'0'.repeat(99990)}134217728`);
    expect(compareQuantities(subtractQuantities(sum, p('128Mi')), p('1e99999'))).toBe(0);
  });
});

describe('Value(), MilliValue() and arithmetic (upstream TestScaledValue, TestAdd, TestSub)', () => {
  it('rounds up, and overflows as the int64Amount or inf.Dec upstream holds', () => {
    for (const [from, milli, whole] of [
      [-9, 1n, 1n],
      [-6, 1n, 1n],
      [-3, 1n, 1n],
      [0, 1000n, 1n],
    ] as const) {
      const q = new Quantity(1n, from, 'DecimalSI', true);
      expect([milliValue(q), wholeValue(q)]).toEqual([milli, whole]);
    }
    expect([wholeValue(p('9.01')), milliValue(p('-9.0001')), wholeValue(p('-1.5'))]).toEqual([10n, -9001n, -2n]);
    // The BinarySI cap is an inf.Dec of scale 0: MilliValue() wraps its ×1000.
    expect([wholeValue(p('8Ei')), milliValue(p('8Ei'))]).toEqual([(1n << 63n) - 1n, -1000n]);
    expect(wholeValue(p('9999999999999999999.1'))).toBe(-8446744073709551616n);
  });

  it.each([
    [dec(10, 0), dec(1, 1), dec(20, 0), dec(0, 0)],
    [dec(10, 0), dec(1, 0, 'BinarySI'), dec(11, 0), dec(9, 0)],
    [dec(10, 0, 'BinarySI'), dec(1, 0), dec(11, 0, 'BinarySI'), dec(9, 0, 'BinarySI')],
    [dec(0, 0), dec(50, 0), dec(50, 0), dec(-50, 0)],
    [dec(50, 0), dec(0, 0), dec(50, 0), dec(50, 0)],
  ])('TestAdd/TestSub case %#', (a, b, sum, difference) => {
    expect(compareQuantities(addQuantities(a, b), sum)).toBe(0);
    expect(compareQuantities(subtractQuantities(a, b), difference)).toBe(0);
    expect(addQuantities(a, b).format).toBe(a.coef === 0n ? b.format : a.format);
  });

  it('keeps the suffix of the non-zero side (TestQuantityAddZeroPreservesSuffix)', () => {
    for (const v of ['100m', '1Gi']) {
      expect([formatQuantity(addQuantities(p(v), p('0'))), formatQuantity(addQuantities(p('0'), p(v)))]).toEqual([
        v,
        v,
      ]);
      expect(formatQuantity(subtractQuantities(p('0'), p(v)))).toBe(`-${v}`);
    }
  });

  it('sums, bounds and prints resource lists as the quota plugin does', () => {
    const used = addLists(
      parseResourceList({ 'requests.memory': '64Mi', pods: '1' }),
      parseResourceList({ 'requests.memory': '128Mi', pods: 1 }),
    );
    expect(prettyPrint(used)).toBe('pods=2,requests.memory=192Mi');
    expect(lessThanOrEqual(used, parseResourceList({ pods: '1e400', 'requests.memory': '1Gi' }))).toEqual({
      allowed: true,
      exceeded: [],
    });
    expect(lessThanOrEqual(used, parseResourceList({ pods: '1', 'requests.memory': '1Gi' }))).toEqual({
      allowed: false,
      exceeded: ['pods'],
    });
    expect(parseResourceList({ cpu: '1Gb', memory: '1Gi' }).size).toBe(1); // never throws
  });
});

describe('properties', () => {
  const alphabet = fc.string({ unit: fc.constantFrom(...'0123456789.+-eEinumkKMGTP \t'), maxLength: 40 });
  const exponent = fc.oneof(fc.integer({ min: -40, max: 40 }), fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }));
  const shaped = fc
    .tuple(
      fc.constantFrom('', '+', '-'),
      fc.stringMatching(/^\d{0,30}$/),
      fc.option(fc.stringMatching(/^\d{0,30}$/)),
      fc.constantFrom('', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'e', 'E'),
      exponent,
    )
    .map(
      ([sign, num, frac, suffix, exp]) =>
        `${sign}${num}${frac === null ? '' : `.${frac}`}${suffix}${suffix === 'e' || suffix === 'E' ? String(exp) : ''}`,
    );
  const text = fc.oneof(fc.string({ maxLength: 40 }), alphabet, shaped);
  const json = fc.oneof(text, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());

  /** Parse, print and parse again; returns how long it took. Anything but a QuantityError fails. */
  function roundTrip(value: string | number): number {
    const start = performance.now();
    let q: Quantity;
    try {
      q = parseQuantity(value);
    } catch (err) {
      expect(err).toBeInstanceOf(QuantityError);
      expect([ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX]).toContain((err as QuantityError).message);
      return performance.now() - start;
    }
    const printed = formatQuantity(q);
    // Printed values parse back to the same value.
    expect(compareQuantities(parseQuantity(printed), q), `${String(value)} -> ${printed}`).toBe(0);
    milliValue(q);
    wholeValue(q);
    return performance.now() - start;
  }

  it('any string or number parses or throws QuantityError, quickly, and prints to what parses back', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(roundTrip(value)).toBeLessThan(100);
      }),
      { numRuns: 3000 },
    );
  });

  it('compares as the exact values do, and adding then subtracting gives the value back', () => {
    const moderate = fc.tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: -9, max: 60 }));
    fc.assert(
      fc.property(moderate, moderate, ([ca, ea], [cb, eb]) => {
        const [a, b] = [dec(ca, ea), dec(cb, eb)];
        expect(compareQuantities(a, b)).toBe(Math.sign(Number(a.nanos - b.nanos)));
        expect(compareQuantities(b, a) === -compareQuantities(a, b)).toBe(true); // == so that 0 and -0 agree
        expect(compareQuantities(subtractQuantities(addQuantities(a, b), b), a)).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });
});
