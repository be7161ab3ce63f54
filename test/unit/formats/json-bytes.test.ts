import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonBytes, RoundedNumbers, type NumberArray } from '../../../src/formats/write/json-bytes.ts';

/** The bytes JSON.stringify's text encodes to: what jsonBytes must write. */
const reference = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), 'utf8');

function assertSameBytes(value: unknown, label: string): void {
  const got = Buffer.from(jsonBytes(value));
  const want = reference(value);
  if (got.equals(want)) return;
  let k = 0;
  while (got[k] === want[k]) k++;
  assert.fail(`${label}: first difference at byte ${k}: ${got.subarray(Math.max(0, k - 30), k + 30).toString()} != ${want.subarray(Math.max(0, k - 30), k + 30).toString()}`);
}

/** Deterministic values over many magnitudes (a linear congruential generator). */
function spread(count: number, seed: number): Float64Array {
  const out = new Float64Array(count);
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  for (let k = 0; k < count; k++) out[k] = (next() - 0.5) * 10 ** Math.floor(next() * 24 - 10);
  return out;
}

const edges = Float64Array.of(
  0, -0, 0.4e-6, -0.4e-6, 0.5e-6, -0.5e-6, 1e-6, -1e-6, 1.5e-6, 0.1, 0.2, 0.3, 0.7, 1 / 3, -2 / 3,
  0.00005, 0.000049999, 0.5, -0.5, 1.5, -1.5, 2.5, 123.45678, -123.45678, 99999.99995, 180.00004, 1e6, -1e6,
  2147.483647, 2147.4836475, -2147.483647, -2147.4836485, 214748.3647, 214748364.7, 2147483647, 2147483648, -2147483648,
  4294967295, 1e9, 123456789.012345, 1e15, 1e16, 2 ** 53, 1e20, 1e21, 1e22, 1e300, Number.MAX_VALUE, Number.MIN_VALUE,
  NaN, Infinity, -Infinity,
);

test('rounded numbers print as JSON.stringify prints their rounded values, at every number of decimals', () => {
  const random = spread(200_000, 7);
  for (let d = 0; d <= 6; d++) {
    for (const values of [edges, Float32Array.from(edges), random, Float32Array.from(random)]) {
      assertSameBytes(new RoundedNumbers(values, d), `${values.constructor.name}, ${d} decimals`);
    }
  }
});

test('integer arrays of every kind print as their integers', () => {
  const arrays: NumberArray[] = [
    Uint32Array.of(0, 1, 9, 10, 99, 100, 65535, 2 ** 31 - 1, 2 ** 31, 4294967295),
    Int32Array.of(0, -1, 1, -2147483648, 2147483647, 1000000, -999999),
    Uint16Array.of(0, 7, 65535),
    new Uint32Array(0),
  ];
  for (const values of arrays) assertSameBytes(new RoundedNumbers(values, 0), values.constructor.name);
});

test('arrays, objects, strings and other values around the numbers are printed as JSON.stringify prints them', () => {
  const numbers = new RoundedNumbers(Float32Array.of(1.25, -0.5, 3), 2);
  assertSameBytes({
    name: 'Ä avatar "quoted" \\ \n\t \u0001 ✓ 😀 \ud800 lone',
    keys: { b: 1, a: 2, 10: 'ten', 2: 'two', 'ü-key': true },
    skipped: undefined,
    fn: () => 1,
    nil: null,
    flags: [true, false, null, undefined, () => 1],
    nested: [[], {}, [numbers, [numbers]], { numbers, empty: new RoundedNumbers(new Float64Array(0), 3) }],
    plain: [0, -0, 1e-7, 1e21, NaN, -Infinity, 0.1],
    typed: Float32Array.of(1.5, 2),
    date: new Date(0),
    boxed: [new Number(3), new String('s'), new Boolean(false)],
    last: numbers,
  }, 'structure');
  assertSameBytes(numbers, 'top-level numbers');
  assertSameBytes('text', 'top-level string');
  assertSameBytes([undefined], 'array of undefined');
});

test('long documents grow their buffer, and the bytes keep little spare room behind them', () => {
  const values = spread(50_000, 3).map((x) => x * 1e6);
  // Many short number arrays under-estimate their size: the writer must grow.
  const doc = Array.from({ length: 2000 }, (_, k) => ({ k, v: new RoundedNumbers(values.subarray(k * 25, k * 25 + 25), 0) }));
  assertSameBytes(doc, 'grown');
  const bytes = jsonBytes(doc);
  assert.ok(bytes.buffer.byteLength <= bytes.length * 1.25, `${bytes.buffer.byteLength} for ${bytes.length}`);
});

test('more than six decimals are refused: JSON.stringify prints such small numbers with an exponent', () => {
  assert.throws(() => new RoundedNumbers(new Float64Array(1), 7), RangeError);
  assert.throws(() => new RoundedNumbers(new Float64Array(1), 1.5), RangeError);
});
