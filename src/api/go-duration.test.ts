import { describe, expect, it } from 'vitest';
import { parseGoDurationMs, parseGoDurationNanos } from './go-duration.js';

describe('parseGoDuration', () => {
  it('reads what time.ParseDuration reads', () => {
    expect(parseGoDurationMs('1m0s')).toBe(60_000);
    expect(parseGoDurationMs('0')).toBe(0);
    expect(parseGoDurationMs('-0')).toBe(0);
    expect(parseGoDurationMs('1.5s')).toBe(1500);
    expect(parseGoDurationMs('.5s')).toBe(500);
    expect(parseGoDurationMs('5.s')).toBe(5000);
    expect(parseGoDurationMs('2h45m')).toBe(9_900_000);
    expect(parseGoDurationMs('-1.5h')).toBe(-5_400_000);
    expect(parseGoDurationMs('+300ms')).toBe(300);
    expect(parseGoDurationNanos('1µs2μs3us4ns')).toBe(6004n);
    expect(parseGoDurationNanos('9223372036854775807ns')).toBe(9223372036854775807n);
    expect(parseGoDurationNanos('-9223372036854775808ns')).toBe(-9223372036854775808n);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['-', 'time: invalid duration "-"'],
    ['abc', 'time: invalid duration "abc"'],
    ['.s', 'time: invalid duration ".s"'],
    ['5', 'time: missing unit in duration "5"'],
    ['1s5', 'time: missing unit in duration "1s5"'],
    ['5d', 'time: unknown unit "d" in duration "5d"'],
    ['3000000h', 'time: invalid duration "3000000h"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['1"s\\', 'time: unknown unit "\\"s\\\\" in duration "1\\"s\\\\"'],
    ['1é', 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"'],
  ])("refuses %j with Go's message", (text, message) => {
    expect(() => parseGoDurationNanos(text)).toThrow(message);
  });
});
