/**
 * A compact binary form for documents made of JSON values and typed arrays (the AvatarModel and the
 * deformation data), so that on-demand features can reload a finished avatar without re-running the
 * pipeline. Layout: "AVB2", u32 header length, the UTF-8 JSON header, then each array's bytes 8-aligned, in the
 * order the header names them (elements in the machine's byte order, little-endian wherever the service runs).
 *
 * An array of 32-bit elements is stored by its runs of non-zero elements when that is smaller (`runs` and `stored`
 * in its header entry): the runs' start and length as u32 pairs, then the stored elements one run after another;
 * the elements between runs are zero. Zero means all 32 bits clear, so -0 and every NaN are stored as they are.
 * A template-2.0 avatar's morph deltas (a tenth of their elements non-zero, in some 13,000 runs) take a ninth of
 * their size this way.
 *
 * "AVB1" documents (written before the runs, every array whole) still decode. Anything else, including a document
 * cut short or with arrays that do not add up, fails with Error('not an encoded document').
 */
type Typed = Float32Array | Uint32Array | Uint16Array | Uint8Array;
const kinds = { f32: Float32Array, u32: Uint32Array, u16: Uint16Array, u8: Uint8Array } as const;
type Kind = keyof typeof kinds;

const kindOf = (a: Typed): Kind =>
  a instanceof Float32Array ? 'f32' : a instanceof Uint32Array ? 'u32' : a instanceof Uint16Array ? 'u16' : 'u8';

const MAGIC = 0x32425641; // "AVB2" little-endian
const MAGIC_WHOLE_ARRAYS = 0x31425641; // "AVB1"

const align = (n: number) => (n + 7) & ~7;

/** An array as the header names it; `runs` and `stored` only for one stored by its runs of non-zero elements. */
interface ArrayRef {
  $bin: number;
  kind: Kind;
  length: number;
  runs?: number;
  stored?: number;
}

/** An array to write: whole, or the start and length of each run of its non-zero elements and their sum. */
interface Part {
  array: Typed;
  runs?: number[];
  stored?: number;
}

/** The array's runs of non-zero 32-bit words, if storing them and their words is smaller than the whole array. */
function sparse(array: Float32Array | Uint32Array): Required<Omit<Part, 'array'>> | undefined {
  const words = new Uint32Array(array.buffer, array.byteOffset, array.length);
  const n = words.length;
  const runs: number[] = [];
  let stored = 0;
  for (let i = 0; ; ) {
    while (i < n && words[i] === 0) i++;
    if (i === n) break;
    const start = i;
    while (i < n && words[i] !== 0) i++;
    runs.push(start, i - start);
    stored += i - start;
  }
  return runs.length * 4 + stored * 4 < n * 4 ? { runs, stored } : undefined;
}

const byteLengthOf = (part: Part) => (part.runs ? part.runs.length * 4 + part.stored! * 4 : part.array.byteLength);

/**
 * JSON.stringify's replacer (bound to the document's parts): a typed array becomes its header entry and a part. A
 * module function, as the code V8 optimises for a closure made per document dies with it and was compiled again
 * for every avatar.
 */
function arrayToRef(parts: Part[], _k: string, v: unknown): unknown {
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    const array = v as Typed;
    const ref: ArrayRef = { $bin: parts.length, kind: kindOf(array), length: array.length };
    const runs = array instanceof Float32Array || array instanceof Uint32Array ? sparse(array) : undefined;
    parts.push({ array, ...runs });
    return runs ? { ...ref, runs: runs.runs.length / 2, stored: runs.stored } : ref;
  }
  return v;
}

export function encodeDocument(doc: unknown): Uint8Array {
  const parts: Part[] = [];
  const header = JSON.stringify(doc, arrayToRef.bind(undefined, parts));
  const head = new TextEncoder().encode(header);
  let size = align(8 + head.length);
  const offsets: number[] = [];
  for (const part of parts) {
    offsets.push(size);
    size = align(size + byteLengthOf(part));
  }
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, head.length, true);
  out.set(head, 8);
  for (let i = 0; i < parts.length; i++) {
    const { array, runs, stored } = parts[i]!;
    if (!runs) {
      out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offsets[i]!);
      continue;
    }
    const words = new Uint32Array(array.buffer, array.byteOffset, array.length);
    const to = new Uint32Array(out.buffer, offsets[i]!, runs.length + stored!);
    to.set(runs);
    let k = runs.length;
    for (let r = 0; r < runs.length; r += 2) for (let w = runs[r]!, end = w + runs[r + 1]!; w < end; w++) to[k++] = words[w]!;
  }
  return out;
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

export function decodeDocument<T>(bytes: Uint8Array): T {
  try {
    return decode<T>(bytes);
  } catch (cause) {
    throw new Error('not an encoded document', { cause });
  }
}

function decode<T>(bytes: Uint8Array): T {
  const fail = (why: string): never => {
    throw new Error(why);
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = bytes.length >= 8 ? view.getUint32(0, true) : 0;
  if (magic !== MAGIC && magic !== MAGIC_WHOLE_ARRAYS) fail('no AVB1 or AVB2 magic');
  const headLength = view.getUint32(4, true);
  if (8 + headLength > bytes.length) fail('header past the end');
  const header = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + headLength));
  let at = align(8 + headLength);
  let next = 0;
  // Arrays were written in the order JSON.stringify met them, which is the order JSON.parse revives them.
  const doc = JSON.parse(header, (_k, v: unknown) => {
    if (!v || typeof v !== 'object' || !('$bin' in v)) return v;
    const { $bin, kind, length, runs, stored } = v as ArrayRef;
    if ($bin !== next++) fail(`array ${next - 1} out of order`);
    if (!Object.hasOwn(kinds, kind) || !isCount(length)) fail(`array ${$bin}: bad kind or length`);
    const Ctor = kinds[kind];
    const size = Ctor.BYTES_PER_ELEMENT;
    if (runs === undefined) {
      if (at + length * size > bytes.length) fail(`array ${$bin} past the end`);
      const array = new Ctor(length);
      new Uint8Array(array.buffer).set(bytes.subarray(at, at + length * size));
      at = align(at + length * size);
      return array;
    }
    if (!(magic === MAGIC && size === 4 && isCount(runs) && isCount(stored))) fail(`array ${$bin}: bad runs`);
    const endAt = at + runs * 8 + stored! * 4;
    if (endAt > bytes.length) fail(`array ${$bin} past the end`);
    const array = new Ctor(length);
    // Runs and elements copied out first: the input's bytes need not be 4-aligned.
    const words = new Uint32Array(runs * 2 + stored!);
    new Uint8Array(words.buffer).set(bytes.subarray(at, endAt));
    const into = new Uint32Array(array.buffer);
    let from = runs * 2;
    for (let r = 0, end = 0; r < runs * 2; r += 2) {
      const start = words[r]!, count = words[r + 1]!;
      if (start < end || count === 0 || start + count > length) fail(`array ${$bin}: runs overlap or leave it`);
      end = start + count;
      for (let w = start; w < end; w++) into[w] = words[from++]!;
    }
    if (from !== words.length) fail(`array ${$bin}: runs do not add up to its stored elements`);
    at = align(endAt);
    return array;
  }) as T;
  if (at !== bytes.length) fail('bytes after the last array');
  return doc;
}
