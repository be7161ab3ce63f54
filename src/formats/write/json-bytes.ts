/**
 * JSON written straight into UTF-8 bytes, the same bytes as `Buffer.from(JSON.stringify(value), 'utf8')`, for
 * documents that are mostly long number arrays (the Unity JSON's millions of rounded coordinates). Its numbers
 * are `RoundedNumbers`: their digits are formatted from integers into the bytes, without the number arrays and
 * the one large string JSON.stringify would make.
 */

/** JSON.stringify prints every number in at most 24 characters; room for one and its comma. */
const MAX_NUMBER_CHARS = 26;
/** The fixed-point digits below are those JSON.stringify prints only for decimals <= 6 (below 1e-6 it prints exponents). */
const MAX_DECIMALS = 6;
/** |Math.round(x * 10^d)| up to this is formatted from integer digits; beyond it (and NaN, ±Infinity) JSON.stringify formats. */
const MAX_FIXED = 2 ** 31 - 1;

/** The typed arrays the number columns come in. */
export type NumberArray = Float32Array | Float64Array | Int32Array | Uint32Array | Uint16Array;

/**
 * Numbers rounded to a fixed number of decimals (integers with 0): `Math.round(x * 10^d) / 10^d` each. This keeps
 * the JSON small without losing visible precision. JSON.stringify prints them as an array (through `toJSON`);
 * jsonBytes writes the same text.
 */
export class RoundedNumbers {
  constructor(
    readonly values: NumberArray,
    readonly decimals: number,
  ) {
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) throw new RangeError(`decimals must be 0..${MAX_DECIMALS}: ${decimals}`);
  }

  /** The array JSON.stringify prints: the definition of the text jsonBytes writes. */
  toJSON(): number[] {
    const f = 10 ** this.decimals;
    const out: number[] = [];
    for (let k = 0; k < this.values.length; k++) out.push(Math.round(this.values[k] * f) / f);
    return out;
  }
}

/** `Buffer.from(JSON.stringify(value), 'utf8')` for plain objects, arrays, primitives and RoundedNumbers. */
export function jsonBytes(value: unknown): Uint8Array {
  const out = new ByteWriter(estimateBytes(value));
  writeValue(out, value);
  return out.bytes();
}

class ByteWriter {
  buf: Buffer;
  pos = 0;

  constructor(capacity: number) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  /** Makes room for `bytes` more. */
  reserve(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.pos + bytes, Math.ceil(this.buf.length * 1.5)));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  byte(b: number): void {
    this.reserve(1);
    this.buf[this.pos++] = b;
  }

  /** A JSON text JSON.stringify made (lone surrogates are escaped there, so UTF-8 encodes it piece by piece as a whole). */
  text(s: string): void {
    this.reserve(s.length * 3);
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  /**
   * The written bytes; copied to their exact size (in a buffer of their own) if the estimate or the growth left
   * much room, which would otherwise live as long as they do.
   */
  bytes(): Uint8Array {
    const written = this.buf.subarray(0, this.pos);
    return this.buf.length - this.pos > this.pos / 4 ? new Uint8Array(written) : written;
  }
}

/**
 * About the text's size, from the numbers' count and decimals (a sign, a digit before the point, the point, the
 * comma): the Unity JSON of sample-1 is 13 % smaller (zero weights and trailing zeros dropped, more integer digits).
 */
function estimateBytes(value: unknown): number {
  if (value instanceof RoundedNumbers) return value.values.length * (value.decimals + 4) + 2;
  if (!Array.isArray(value) && !isPlainObject(value)) return 16;
  let sum = 2;
  if (Array.isArray(value)) for (const v of value) sum += estimateBytes(v);
  else for (const key of Object.keys(value)) sum += key.length + 4 + estimateBytes(value[key]);
  return sum;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

const COMMA = 0x2c;

const nested = (value: unknown): boolean => value instanceof RoundedNumbers || Array.isArray(value) || isPlainObject(value);

/** JSON.stringify's walk over arrays and plain objects (same keys, same order); anything else it prints itself. */
function writeValue(out: ByteWriter, value: unknown): void {
  if (value instanceof RoundedNumbers) {
    writeRounded(out, value);
  } else if (Array.isArray(value)) {
    out.byte(0x5b);
    for (let k = 0; k < value.length; k++) {
      if (k > 0) out.byte(COMMA);
      writeValue(out, value[k]);
    }
    out.byte(0x5d);
  } else if (isPlainObject(value)) {
    out.byte(0x7b);
    let first = true;
    for (const key of Object.keys(value)) {
      const v = value[key];
      const leaf = nested(v) ? undefined : JSON.stringify(v);
      // A property JSON.stringify cannot print (undefined, a function) is left out.
      if (leaf === undefined && !nested(v)) continue;
      if (!first) out.byte(COMMA);
      first = false;
      out.text(JSON.stringify(key));
      out.byte(0x3a);
      if (leaf === undefined) writeValue(out, v);
      else out.text(leaf);
    }
    out.byte(0x7d);
  } else {
    // An array item JSON.stringify cannot print is printed as null.
    out.text(JSON.stringify(value) ?? 'null');
  }
}

/**
 * The digits of each n = Math.round(x * 10^d) as the decimal n * 10^-d, trailing zeros of the fraction dropped, and
 * "0" for ±0. This is the text JSON.stringify prints for n / 10^d: that double is the one nearest to the decimal,
 * and doubles tell apart all decimals of up to 15 significant digits (|n| < 2^31 has 10), so no shorter decimal reads
 * back as the same double; and as 1e-6 <= |n * 10^-d| < 1e21 for n != 0 and d <= 6, it is printed in fixed notation.
 * Larger n, NaN and ±Infinity go through JSON.stringify.
 */
function writeRounded(out: ByteWriter, numbers: RoundedNumbers): void {
  const { values, decimals } = numbers;
  const f = 10 ** decimals;
  // At least two bytes a number ("0,").
  out.reserve(values.length * 2 + 1);
  let buf = out.buf;
  let pos = out.pos;
  buf[pos++] = 0x5b;
  for (let start = 0; start < values.length; start += chunk.length) {
    // The loop below reads one kind of array: over the five kinds it took nearly twice as long.
    const count = Math.min(chunk.length, values.length - start);
    chunk.set(values.subarray(start, start + count));
    for (let k = 0; k < count; k++) {
      if (pos + MAX_NUMBER_CHARS > buf.length) {
        out.pos = pos;
        out.reserve(MAX_NUMBER_CHARS + (values.length - start - k) * 2);
        buf = out.buf;
      }
      if (start + k > 0) buf[pos++] = COMMA;
      const n = Math.round(chunk[k] * f);
      if (!(n >= -MAX_FIXED && n <= MAX_FIXED)) {
        pos += buf.write(JSON.stringify(n / f), pos, 'latin1');
        continue;
      }
      // In int32 from here (|n| < 2^31; -0 becomes 0, printed "0" alike): integer division and remainder.
      let m = n | 0;
      if (m < 0) {
        buf[pos++] = 0x2d;
        m = -m;
      }
      const whole = (m / f) | 0;
      pos = writeDigits(buf, pos, whole, digitCount(whole));
      let fraction = m - whole * f;
      if (fraction === 0) continue;
      let places = decimals;
      while (fraction % 100 === 0) {
        fraction = (fraction / 100) | 0;
        places -= 2;
      }
      if (fraction % 10 === 0) {
        fraction = (fraction / 10) | 0;
        places--;
      }
      buf[pos++] = 0x2e;
      pos = writeDigits(buf, pos, fraction, places);
    }
  }
  out.pos = pos;
  out.byte(0x5d);
}

const chunk = new Float64Array(8192);

/** Decimal digits of n (0 <= n < 2^31). */
function digitCount(n: number): number {
  if (n < 10) return 1;
  if (n < 100) return 2;
  if (n < 1000) return 3;
  if (n < 10000) return 4;
  let count = 5;
  for (let t = 100000; t <= n; t *= 10) count++;
  return count;
}

/** "00" to "99" as pairs of ASCII digits: the digits are written two per division. */
const DIGIT_PAIRS = Uint8Array.from({ length: 200 }, (_, i) => 0x30 + (i & 1 ? (i >> 1) % 10 : Math.floor((i >> 1) / 10)));

/** n (0 <= n < 2^31, at most `width` digits) as exactly `width` decimal digits, with leading zeros. */
function writeDigits(buf: Buffer, pos: number, n: number, width: number): number {
  let i = pos + width;
  while (i - pos >= 2) {
    const q = (n / 100) | 0;
    const pair = (n - q * 100) << 1;
    buf[--i] = DIGIT_PAIRS[pair + 1];
    buf[--i] = DIGIT_PAIRS[pair];
    n = q;
  }
  if (i > pos) buf[pos] = 0x30 + n;
  return pos + width;
}
