import { deflateSync } from 'node:zlib';
import type { EncodedArray, FbxNode, FbxValue } from './node.ts';
import { isRecurring } from './recurring.ts';

/** Binary FBX 7.4: node records with 32-bit offsets, a 13-byte null record ends each nested list. */
export const FBX_VERSION = 7400;
export const HEADER_MAGIC = 'Kaydara FBX Binary  \x00\x1a\x00';
const SENTINEL_LENGTH = 13;

/**
 * Readers check the file id, the creation time and the footer id against each other (they derive
 * from the time stamp); like Blender's exporter we write one known-consistent triple.
 */
export const FILE_ID = Uint8Array.from([0x28, 0xb3, 0x2a, 0xeb, 0xb6, 0x24, 0xcc, 0xc2, 0xbf, 0xc8, 0xb0, 0x2a, 0xa9, 0x2b, 0xfc, 0xf1]);
export const CREATION_TIME = '1970-01-01 10:00:00:000';
const FOOTER_ID = Uint8Array.from([0xfa, 0xbc, 0xab, 0x09, 0xd0, 0xc8, 0xd4, 0x66, 0xb1, 0x76, 0xfb, 0x83, 0x1c, 0xf7, 0x26, 0x7e]);
const FOOTER_MAGIC = Uint8Array.from([0xf8, 0x5a, 0x8c, 0x6a, 0xde, 0xf5, 0xd9, 0x7e, 0xec, 0xe9, 0x0c, 0xe3, 0x75, 0x8f, 0x29, 0x0b]);

/** The FBX SDK puts the null record into these even without children. */
const ALWAYS_SENTINEL = new Set(['AnimationStack', 'AnimationLayer']);

/** Arrays this small are stored raw, as the FBX SDK does; larger ones are deflated. */
const COMPRESS_ABOVE_BYTES = 128;
/**
 * zlib's fastest level with its largest match hash (memLevel 9, 256 KiB a stream against 128): on an avatar's arrays
 * (the shapes' doubles, 10 MB) 20 % quicker than the default 8, and a little smaller (docs/PERFORMANCE.md).
 */
const DEFLATE = { level: 1, memLevel: 9 } as const;

const utf8 = new TextEncoder();

function encodeProp(value: FbxValue): Uint8Array {
  if (typeof value === 'string') return lengthPrefixed('S', utf8.encode(value));
  if (typeof value === 'boolean') return Uint8Array.of(0x43, value ? 1 : 0);
  if (typeof value === 'bigint') {
    const [out, v] = scalar('L', 8);
    v.setBigInt64(1, value, true);
    return out;
  }
  if (typeof value === 'number') {
    const [out, v] = scalar('D', 8);
    v.setFloat64(1, value, true);
    return out;
  }
  if (value instanceof Uint8Array) return lengthPrefixed('R', value);
  if (ArrayBuffer.isView(value)) return array(value);
  const tagged = value;
  switch (tagged.type) {
    case 'encoded': return tagged.bytes;
    case 'I': {
      const [out, v] = scalar('I', 4);
      v.setInt32(1, tagged.value, true);
      return out;
    }
    case 'Y': {
      const [out, v] = scalar('Y', 2);
      v.setInt16(1, tagged.value, true);
      return out;
    }
    case 'F': {
      const [out, v] = scalar('F', 4);
      v.setFloat32(1, tagged.value, true);
      return out;
    }
  }
}

/**
 * A scalar property's bytes with its type code, and a view to set its value at 1 with (not a setter closure per
 * property: their optimised code died with them, and was compiled again per avatar).
 */
function scalar(code: string, size: number): [Uint8Array, DataView] {
  const out = new Uint8Array(1 + size);
  out[0] = code.charCodeAt(0);
  return [out, new DataView(out.buffer)];
}

function lengthPrefixed(code: string, bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + bytes.length);
  out[0] = code.charCodeAt(0);
  new DataView(out.buffer).setUint32(1, bytes.length, true);
  out.set(bytes, 5);
  return out;
}

/** Encodings of the arrays that recur in every avatar of a template (see derivedOnce). */
const recurringEncodings = new WeakMap<object, Uint8Array>();

type FbxArray = Int32Array | Float64Array | Float32Array | BigInt64Array;

/** An array property encoded now, for a file written later: its deflate then runs where there is time for it. */
export const encodedArray = (values: FbxArray): EncodedArray => ({ type: 'encoded', bytes: array(values) });

function array(values: FbxArray): Uint8Array {
  if (!isRecurring(values)) return encodeArray(values);
  let out = recurringEncodings.get(values);
  if (!out) recurringEncodings.set(values, (out = encodeArray(values)));
  return out;
}

const arrayCode = (values: FbxArray): string =>
  values instanceof Int32Array ? 'i' : values instanceof Float64Array ? 'd' : values instanceof Float32Array ? 'f' : 'l';

function encodeArray(values: FbxArray): Uint8Array {
  const code = arrayCode(values);
  // Typed arrays are little-endian on every platform Node runs on.
  const raw = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const compress = raw.length > COMPRESS_ABOVE_BYTES;
  const payload = compress ? deflateSync(raw, DEFLATE) : raw;
  const out = new Uint8Array(13 + payload.length);
  out[0] = code.charCodeAt(0);
  const view = new DataView(out.buffer);
  view.setUint32(1, values.length, true);
  view.setUint32(5, compress ? 1 : 0, true);
  view.setUint32(9, payload.length, true);
  out.set(payload, 13);
  return out;
}

interface Sized {
  node: FbxNode;
  name: Uint8Array;
  props: Uint8Array[];
  propsLength: number;
  children: Sized[];
  sentinel: boolean;
  size: number;
}

function measure(n: FbxNode): Sized {
  const name = utf8.encode(n.name);
  if (name.length > 255) throw new Error(`FBX node name too long: ${n.name}`);
  const props = n.props.map(encodeProp);
  const propsLength = props.reduce((s, p) => s + p.length, 0);
  const children = n.children.map(measure);
  const sentinel = children.length > 0 || props.length === 0 || ALWAYS_SENTINEL.has(n.name);
  const size = 13 + name.length + propsLength + children.reduce((s, c) => s + c.size, 0) + (sentinel ? SENTINEL_LENGTH : 0);
  return { node: n, name, props, propsLength, children, sentinel, size };
}

function writeNode(s: Sized, out: Uint8Array, view: DataView, offset: number): number {
  const end = offset + s.size;
  view.setUint32(offset, end, true);
  view.setUint32(offset + 4, s.props.length, true);
  view.setUint32(offset + 8, s.propsLength, true);
  out[offset + 12] = s.name.length;
  out.set(s.name, offset + 13);
  let at = offset + 13 + s.name.length;
  for (const p of s.props) {
    out.set(p, at);
    at += p.length;
  }
  for (const c of s.children) at = writeNode(c, out, view, at);
  // The null record is already zero in the fresh buffer.
  if (s.sentinel) at += SENTINEL_LENGTH;
  if (at !== end) throw new Error(`FBX node ${s.node.name} size mismatch`);
  return at;
}

/** Encodes top-level nodes into a complete binary FBX 7.4 file, header and footer included. */
export function encodeFbx(topLevel: FbxNode[]): Uint8Array {
  const sized = topLevel.map(measure);
  const headerLength = HEADER_MAGIC.length + 4;
  const bodyEnd = headerLength + sized.reduce((s, n) => s + n.size, 0) + SENTINEL_LENGTH;
  const footerIdEnd = bodyEnd + FOOTER_ID.length + 4;
  // Padding to 16-byte alignment, a full 16 bytes when already aligned (as the FBX SDK writes).
  const pad = 16 - (footerIdEnd % 16);
  const total = footerIdEnd + pad + 4 + 120 + FOOTER_MAGIC.length;

  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  for (let i = 0; i < HEADER_MAGIC.length; i++) out[i] = HEADER_MAGIC.charCodeAt(i);
  view.setUint32(HEADER_MAGIC.length, FBX_VERSION, true);
  let at = headerLength;
  for (const s of sized) at = writeNode(s, out, view, at);
  out.set(FOOTER_ID, bodyEnd);
  view.setUint32(footerIdEnd + pad, FBX_VERSION, true);
  out.set(FOOTER_MAGIC, total - FOOTER_MAGIC.length);
  return out;
}
