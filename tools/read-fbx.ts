import { inflateSync } from 'node:zlib';
import { HEADER_MAGIC } from '../src/formats/write/fbx/encode.ts';
import type { FbxNode, FbxValue } from '../src/formats/write/fbx/node.ts';

export interface FbxDocument {
  version: number;
  nodes: FbxNode[];
}

const utf8 = new TextDecoder();
const FOOTER_MAGIC_TAIL = [0xf8, 0x5a, 0x8c, 0x6a];

/**
 * Reads a binary FBX (7.x, 32-bit offsets below 7500, 64-bit from 7500) into its node tree and
 * checks the structure strictly: end offsets, null records and the footer. Used by tests.
 */
export function readFbx(bytes: Uint8Array): FbxDocument {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < HEADER_MAGIC.length; i++) {
    if (bytes[i] !== HEADER_MAGIC.charCodeAt(i)) throw new Error('not a binary FBX file');
  }
  const version = view.getUint32(HEADER_MAGIC.length, true);
  const wide = version >= 7500;
  const sentinelLength = wide ? 25 : 13;
  let at = HEADER_MAGIC.length + 4;

  const u = (): number => {
    const v = wide ? Number(view.getBigUint64(at, true)) : view.getUint32(at, true);
    at += wide ? 8 : 4;
    return v;
  };

  function readProp(): FbxValue {
    const code = String.fromCharCode(bytes[at++]);
    switch (code) {
      case 'Y': at += 2; return { type: 'Y', value: view.getInt16(at - 2, true) };
      case 'C': at += 1; return bytes[at - 1] !== 0;
      case 'I': at += 4; return { type: 'I', value: view.getInt32(at - 4, true) };
      case 'F': at += 4; return { type: 'F', value: view.getFloat32(at - 4, true) };
      case 'D': at += 8; return view.getFloat64(at - 8, true);
      case 'L': at += 8; return view.getBigInt64(at - 8, true);
      case 'S': case 'R': {
        const length = view.getUint32(at, true);
        const data = bytes.slice(at + 4, at + 4 + length);
        at += 4 + length;
        return code === 'S' ? utf8.decode(data) : data;
      }
      case 'i': case 'd': case 'f': case 'l': case 'b': return readArray(code);
      default: throw new Error(`unknown FBX property type ${code} at ${at - 1}`);
    }
  }

  function readArray(code: string): FbxValue {
    const count = view.getUint32(at, true);
    const encoding = view.getUint32(at + 4, true);
    const length = view.getUint32(at + 8, true);
    const stored = bytes.subarray(at + 12, at + 12 + length);
    at += 12 + length;
    const raw = encoding === 1 ? new Uint8Array(inflateSync(stored)) : stored.slice();
    const element = { i: 4, f: 4, d: 8, l: 8, b: 1 }[code as 'i'];
    if (raw.length !== count * element) throw new Error(`FBX array length mismatch at ${at}`);
    const buffer = raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length);
    switch (code) {
      case 'i': return new Int32Array(buffer);
      case 'f': return new Float32Array(buffer);
      case 'd': return new Float64Array(buffer);
      case 'l': return new BigInt64Array(buffer);
      // Bool arrays (b) come back as 0/1 integers: the node model has no bool array type.
      default: return new Int32Array(Array.from(raw));
    }
  }

  function readNode(): FbxNode | null {
    const start = at;
    const end = u();
    const propCount = u();
    const propsLength = u();
    const nameLength = bytes[at++];
    if (end === 0 && propCount === 0 && propsLength === 0 && nameLength === 0) return null;
    const name = utf8.decode(bytes.subarray(at, at + nameLength));
    at += nameLength;
    const propsStart = at;
    const props: FbxValue[] = [];
    for (let i = 0; i < propCount; i++) props.push(readProp());
    if (at - propsStart !== propsLength) throw new Error(`FBX node ${name} at ${start}: property length mismatch`);
    const children: FbxNode[] = [];
    if (at < end) {
      while (at < end - sentinelLength) {
        const child = readNode();
        if (!child) throw new Error(`FBX node ${name}: unexpected null record`);
        children.push(child);
      }
      if (bytes.subarray(at, at + sentinelLength).some((b) => b !== 0)) throw new Error(`FBX node ${name}: bad null record`);
      at += sentinelLength;
    }
    if (at !== end) throw new Error(`FBX node ${name} at ${start}: end offset ${end} but content ends at ${at}`);
    return { name, props, children };
  }

  const nodes: FbxNode[] = [];
  for (;;) {
    const n = readNode();
    if (!n) break;
    nodes.push(n);
  }
  checkFooter(bytes, view, at, version);
  return { version, nodes };
}

function checkFooter(bytes: Uint8Array, view: DataView, bodyEnd: number, version: number): void {
  const afterId = bodyEnd + 16 + 4;
  const pad = 16 - (afterId % 16);
  const versionAt = afterId + pad;
  if (bytes.length !== versionAt + 4 + 120 + 16) throw new Error('FBX footer has the wrong length or padding');
  if (view.getUint32(versionAt, true) !== version) throw new Error('FBX footer version differs from the header');
  const tail = bytes.subarray(bytes.length - 16, bytes.length - 12);
  if (FOOTER_MAGIC_TAIL.some((b, i) => tail[i] !== b)) throw new Error('FBX footer magic missing');
}
