import type { MeshData } from '../../model/avatar.ts';
import { InputCodes, InputError } from './input-error.ts';

/**
 * A Wavefront OBJ as stored: positions, texture coordinates and normals each with their own
 * numbering, and triangles that index them per corner. No unit, axis or winding change.
 */
export interface ObjMesh {
  /** xyz per `v` line. */
  positions: Float32Array;
  /** Triangles over positions; polygons are fan-triangulated in file order. */
  indices: Uint32Array;
  /** uv per `vt` line (v up, as OBJ stores it); a missing v reads as 0. */
  uvs: Float32Array;
  /** Per triangle corner (parallel to `indices`) an index into `uvs`; absent when no face names a `vt`. */
  uvIndices?: Uint32Array;
  /** xyz per `vn` line. */
  normals: Float32Array;
  /** Per triangle corner an index into `normals`; absent unless every face corner names a `vn`. */
  normalIndices?: Uint32Array;
}

const NO_INDEX = 0xffffffff;
const notObj = (why: string) => new InputError(InputCodes.badFormat, `invalid input, not a valid format: mesh.obj ${why}`);
const corrupt = (line: number, why: string) =>
  new InputError(InputCodes.corruptFile, `invalid input, not a valid format: mesh.obj line ${line}: ${why}`);

/**
 * Parses an OBJ: `v`, `vt`, `vn` and `f` (triangles or polygons; `v`, `v/vt`, `v//vn`, `v/vt/vn`;
 * negative indices count back from the last element read). Groups, objects, materials, smoothing,
 * lines, points and unknown statements are ignored. Refusals: 30012 when the file is not an OBJ
 * (binary, or without vertices or faces), 30013 when it is a broken one (bad numbers, indices out of range).
 * Face corners without a `vt` in a file where others have one get an extra uv (0, 0).
 */
export function readObj(data: Uint8Array): ObjMesh {
  if (data.includes(0)) throw notObj('is binary');
  const s = new Scanner(data);
  // Typed growable lists: plain arrays of this size keep the garbage collector busy.
  const positions = new List(Float32Array);
  const uvs = new List(Float32Array);
  const normals = new List(Float32Array);
  const cv = new List(Uint32Array);
  const cvt = new List(Uint32Array);
  const cvn = new List(Uint32Array);
  let anyUv = false;
  let allNormals = true;

  while (s.more()) {
    s.blank();
    if (s.lineEnd()) {
      s.nextLine();
      continue;
    }
    const keyword = s.keyword();
    if (keyword === Keyword.v) {
      positions.push3(s.number(), s.number(), s.number());
    } else if (keyword === Keyword.vt) {
      const u = s.number();
      s.blank();
      uvs.push2(u, s.lineEnd() ? 0 : s.number());
    } else if (keyword === Keyword.vn) {
      normals.push3(s.number(), s.number(), s.number());
    } else if (keyword === Keyword.f) {
      // Fan triangulation: every corner after the second makes a triangle with the first and the previous.
      let corners = 0;
      let v0 = 0, t0 = 0, n0 = 0, v1 = 0, t1 = 0, n1 = 0;
      s.blank();
      while (!s.lineEnd()) {
        const v = s.index(positions.length / 3);
        let vt = NO_INDEX;
        let vn = NO_INDEX;
        if (s.slash()) {
          if (!s.atSlash()) vt = s.index(uvs.length / 2);
          if (s.slash()) vn = s.index(normals.length / 3);
        }
        if (!s.atSeparator()) throw s.error('bad face corner');
        anyUv ||= vt !== NO_INDEX;
        allNormals &&= vn !== NO_INDEX;
        if (corners === 0) {
          v0 = v; t0 = vt; n0 = vn;
        } else {
          if (corners >= 2) {
            cv.push3(v0, v1, v);
            cvt.push3(t0, t1, vt);
            cvn.push3(n0, n1, vn);
          }
          v1 = v; t1 = vt; n1 = vn;
        }
        corners++;
        s.blank();
      }
      if (corners < 3) throw s.error('a face needs at least three corners');
    }
    // The rest of the line: extra numbers (w, vertex colours), comments, unknown statements.
    s.nextLine();
  }
  if (positions.length === 0) throw notObj('has no vertices');
  if (cv.length === 0) throw notObj('has no faces');

  let uvIndices: Uint32Array | undefined;
  if (anyUv) {
    uvIndices = cvt.array();
    if (uvIndices.includes(NO_INDEX)) {
      const fallback = uvs.length / 2;
      uvs.push2(0, 0);
      uvIndices = uvIndices.map((i) => (i === NO_INDEX ? fallback : i));
    }
  }
  return {
    positions: positions.array(),
    indices: cv.array(),
    uvs: uvs.array(),
    uvIndices,
    normals: normals.array(),
    normalIndices: allNormals ? cvn.array() : undefined,
  };
}

/** An append-only typed array that doubles its storage as it grows. */
class List<T extends Float32Array | Uint32Array> {
  length = 0;
  private data: T;

  constructor(private readonly Type: { new (n: number): T }) {
    this.data = new Type(1024);
  }

  push2(a: number, b: number): void {
    this.room(2);
    this.data[this.length++] = a;
    this.data[this.length++] = b;
  }

  push3(a: number, b: number, c: number): void {
    this.room(3);
    this.data[this.length++] = a;
    this.data[this.length++] = b;
    this.data[this.length++] = c;
  }

  private room(n: number): void {
    if (this.length + n <= this.data.length) return;
    const grown = new this.Type(this.data.length * 2);
    grown.set(this.data);
    this.data = grown;
  }

  array(): T {
    return this.data.slice(0, this.length) as T;
  }
}

enum Keyword {
  other,
  v,
  vt,
  vn,
  f,
}

const SPACE = 32, TAB = 9, CR = 13, LF = 10, HASH = 35, SLASH = 47, BACKSLASH = 92, MINUS = 45, PLUS = 43, DOT = 46;
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const isDigit = (c: number) => c >= 48 && c <= 57;

/** A cursor over OBJ bytes that reads tokens without making strings: about ten times faster than splitting lines. */
class Scanner {
  private pos = 0;
  private line = 1;

  constructor(private readonly b: Uint8Array) {}

  more(): boolean {
    return this.pos < this.b.length;
  }

  error(why: string): InputError {
    return corrupt(this.line, why);
  }

  /** Skips spaces, tabs, carriage returns and backslash line continuations. */
  blank(): void {
    const b = this.b;
    for (;;) {
      const c = b[this.pos];
      if (c === SPACE || c === TAB || c === CR) {
        this.pos++;
      } else if (c === BACKSLASH && (b[this.pos + 1] === LF || (b[this.pos + 1] === CR && b[this.pos + 2] === LF))) {
        this.pos += b[this.pos + 1] === LF ? 2 : 3;
        this.line++;
      } else {
        return;
      }
    }
  }

  /** At the end of the statement: end of line, comment or end of file. */
  lineEnd(): boolean {
    const c = this.b[this.pos];
    return this.pos >= this.b.length || c === LF || c === HASH;
  }

  nextLine(): void {
    const i = this.b.indexOf(LF, this.pos);
    this.pos = i < 0 ? this.b.length : i + 1;
    this.line++;
  }

  /** The statement keyword, moving past it. */
  keyword(): Keyword {
    const b = this.b;
    const p = this.pos;
    while (!this.atSeparator()) this.pos++;
    const length = this.pos - p;
    if (b[p] === 118) {
      if (length === 1) return Keyword.v;
      if (length === 2 && b[p + 1] === 116) return Keyword.vt;
      if (length === 2 && b[p + 1] === 110) return Keyword.vn;
    }
    return length === 1 && b[p] === 102 ? Keyword.f : Keyword.other;
  }

  /** A decimal number like `-1.25e-3`, after optional blanks; anything else is an error. */
  number(): number {
    this.blank();
    const b = this.b;
    const start = this.pos;
    let p = start;
    let sign = 1;
    if (b[p] === MINUS || b[p] === PLUS) sign = b[p++] === MINUS ? -1 : 1;
    let mantissa = 0, digits = 0, scale = 0;
    for (; isDigit(b[p]); p++, digits++) mantissa = mantissa * 10 + (b[p] - 48);
    if (b[p] === DOT) {
      for (p++; isDigit(b[p]); p++, digits++, scale--) mantissa = mantissa * 10 + (b[p] - 48);
    }
    if (digits > 0 && (b[p] === 101 || b[p] === 69)) {
      let e = 0, esign = 1, edigits = 0;
      p++;
      if (b[p] === MINUS || b[p] === PLUS) esign = b[p++] === MINUS ? -1 : 1;
      for (; isDigit(b[p]); p++, edigits++) e = e * 10 + (b[p] - 48);
      if (edigits === 0) digits = 0;
      scale += esign * e;
    }
    this.pos = p;
    if (digits === 0 || !this.atSeparator()) {
      while (!this.atSeparator()) this.pos++;
      const token = String.fromCharCode(...b.subarray(start, Math.min(this.pos, start + 32)));
      throw this.error(`not a number: ${JSON.stringify(token)}`);
    }
    // Exact while the mantissa and the power of ten are exact doubles; otherwise let the runtime round.
    if (digits <= 15 && scale >= -22 && scale <= 22) {
      return sign * (scale < 0 ? mantissa / POW10[-scale] : mantissa * POW10[scale]);
    }
    const x = Number(String.fromCharCode(...b.subarray(start, p)));
    if (!Number.isFinite(x)) throw this.error('number out of range');
    return x;
  }

  /** A face index (1-based, or negative counting back from `count`) as a 0-based one. */
  index(count: number): number {
    const b = this.b;
    let p = this.pos;
    const negative = b[p] === MINUS;
    if (negative) p++;
    let n = 0, digits = 0;
    for (; isDigit(b[p]) && digits < 12; p++, digits++) n = n * 10 + (b[p] - 48);
    this.pos = p;
    if (digits === 0 || n === 0) throw this.error('bad face index');
    const i = negative ? count - n : n - 1;
    if (i < 0 || i >= count) throw this.error(`index ${negative ? -n : n} out of range (${count} defined)`);
    return i;
  }

  slash(): boolean {
    if (this.b[this.pos] !== SLASH) return false;
    this.pos++;
    return true;
  }

  atSlash(): boolean {
    return this.b[this.pos] === SLASH;
  }

  /** At a blank, the end of the line or a comment: where a token ends. */
  atSeparator(): boolean {
    const c = this.b[this.pos];
    return this.pos >= this.b.length || c === SPACE || c === TAB || c === CR || c === LF || c === HASH || c === BACKSLASH;
  }
}

/**
 * One vertex per distinct (position, uv) corner, so the mesh renders and bakes with the file's UVs:
 * a position on a UV seam becomes several vertices. Normals come from the file when every corner has
 * one, else they are area-weighted averages over the faces around each position (smooth across seams).
 */
export function objToMeshData(obj: ObjMesh): MeshData {
  const { indices, uvIndices, normalIndices } = obj;
  const count = obj.positions.length / 3;
  // The vertices made for each position, as linked lists: first[p], then next[vertex].
  const first = new Int32Array(count).fill(-1);
  const next: number[] = [];
  const cornerOf: number[] = [];
  const out = new Uint32Array(indices.length);
  for (let c = 0; c < indices.length; c++) {
    const p = indices[c];
    let v = first[p];
    while (v >= 0 && !sameCorner(obj, cornerOf[v], c)) v = next[v];
    if (v < 0) {
      v = cornerOf.length;
      cornerOf.push(c);
      next.push(first[p]);
      first[p] = v;
    }
    out[c] = v;
  }
  const n = cornerOf.length;
  const smooth = normalIndices ? undefined : positionNormals(obj.positions, indices);
  const positions = new Float32Array(n * 3);
  const normals = new Float32Array(n * 3);
  const uvs = new Float32Array(n * 2);
  for (let v = 0; v < n; v++) {
    const c = cornerOf[v];
    const p = indices[c];
    const src = normalIndices ? obj.normals : smooth!;
    const k = normalIndices ? normalIndices[c] : p;
    const [nx, ny, nz] = unit(src[k * 3], src[k * 3 + 1], src[k * 3 + 2]);
    for (let a = 0; a < 3; a++) positions[v * 3 + a] = obj.positions[p * 3 + a];
    normals[v * 3] = nx;
    normals[v * 3 + 1] = ny;
    normals[v * 3 + 2] = nz;
    if (uvIndices) {
      uvs[v * 2] = obj.uvs[uvIndices[c] * 2];
      uvs[v * 2 + 1] = obj.uvs[uvIndices[c] * 2 + 1];
    }
  }
  return { positions, normals, uvs, indices: out };
}

/** Two corners of the same position that also share uv and normal. */
function sameCorner(obj: ObjMesh, a: number, b: number): boolean {
  return (!obj.uvIndices || obj.uvIndices[a] === obj.uvIndices[b]) && (!obj.normalIndices || obj.normalIndices[a] === obj.normalIndices[b]);
}

/** Area-weighted face normal sums per position (not normalised: unit() is applied per vertex). */
function positionNormals(positions: Float32Array, indices: Uint32Array): Float32Array {
  const acc = new Float64Array(positions.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t] * 3, b = indices[t + 1] * 3, c = indices[t + 2] * 3;
    const ex = positions[b] - positions[a], ey = positions[b + 1] - positions[a + 1], ez = positions[b + 2] - positions[a + 2];
    const fx = positions[c] - positions[a], fy = positions[c + 1] - positions[a + 1], fz = positions[c + 2] - positions[a + 2];
    // The cross product's length is twice the area: larger faces weigh more.
    const nx = ey * fz - ez * fy, ny = ez * fx - ex * fz, nz = ex * fy - ey * fx;
    acc[a] += nx; acc[a + 1] += ny; acc[a + 2] += nz;
    acc[b] += nx; acc[b + 1] += ny; acc[b + 2] += nz;
    acc[c] += nx; acc[c + 1] += ny; acc[c + 2] += nz;
  }
  return Float32Array.from(acc);
}

function unit(x: number, y: number, z: number): [number, number, number] {
  const l = Math.hypot(x, y, z);
  return l > 0 ? [x / l, y / l, z / l] : [0, 0, 0];
}

export type LengthUnit = 'm' | 'cm' | 'mm';

/** Largest extent of a head scan in centimetres: a head alone is about 20 cm, with neck and shoulders under 60. */
const HEAD_CM = { min: 15, max: 60 };
/** Fraction of vertices ignored at each end of every axis, so stray points do not count. */
const OUTLIERS = 0.01;

/**
 * The unit a head mesh was saved in, judged from its size (files carry none): the largest extent,
 * stray points aside, is compared with a head's in metres, centimetres and millimetres, split at
 * the geometric means between the ranges. `toCentimetres` scales the positions to the service's unit.
 */
export function detectHeadUnit(positions: Float32Array): { unit: LengthUnit; toCentimetres: number } {
  const n = positions.length / 3;
  if (n === 0) throw new RangeError('detectHeadUnit: no positions');
  let extent = 0;
  for (let axis = 0; axis < 3; axis++) {
    const values = new Float32Array(n);
    for (let i = 0; i < n; i++) values[i] = positions[i * 3 + axis];
    values.sort();
    const cut = Math.floor(n * OUTLIERS);
    extent = Math.max(extent, values[n - 1 - cut] - values[cut]);
  }
  const metresBelow = Math.sqrt((HEAD_CM.max / 100) * HEAD_CM.min);
  const millimetresAbove = Math.sqrt(HEAD_CM.max * HEAD_CM.min * 10);
  if (extent < metresBelow) return { unit: 'm', toCentimetres: 100 };
  if (extent > millimetresAbove) return { unit: 'mm', toCentimetres: 0.1 };
  return { unit: 'cm', toCentimetres: 1 };
}
