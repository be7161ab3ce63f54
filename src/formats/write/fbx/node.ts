/**
 * The FBX node tree as written to and read from the binary format.
 * Property values map to FBX type codes: string S, Uint8Array R (raw), boolean C, bigint L,
 * number D (double), Int32Array i, Float64Array d, Float32Array f, BigInt64Array l,
 * and the tagged scalars below for the narrow types.
 */
export type FbxScalar = { type: 'I' | 'Y' | 'F'; value: number };
/** An array property encoded ahead of its file (encodedArray): written as these bytes. */
export type EncodedArray = { type: 'encoded'; bytes: Uint8Array };
export type FbxValue =
  | EncodedArray
  | string
  | Uint8Array
  | boolean
  | bigint
  | number
  | FbxScalar
  | Int32Array
  | Float64Array
  | Float32Array
  | BigInt64Array;

export interface FbxNode {
  name: string;
  props: FbxValue[];
  children: FbxNode[];
}

export const int32 = (value: number): FbxScalar => ({ type: 'I', value });

export function node(name: string, props: FbxValue[] = [], children: FbxNode[] = []): FbxNode {
  return { name, props, children };
}

/** FBX object names carry their class after a `\0\x01` separator, e.g. `head\0\x01Model`. */
export const objectName = (name: string, cls: string): string => `${name}\x00\x01${cls}`;

/** One `P` entry of a Properties70 block: name, type, label, flags, then the values. */
export const prop70 = (name: string, type: string, label: string, flags: string, ...values: FbxValue[]): FbxNode =>
  node('P', [name, type, label, flags, ...values]);

export const properties70 = (entries: FbxNode[]): FbxNode => node('Properties70', [], entries);

export function findChild(parent: FbxNode, name: string): FbxNode | undefined {
  return parent.children.find((c) => c.name === name);
}

export function findChildren(parent: FbxNode, name: string): FbxNode[] {
  return parent.children.filter((c) => c.name === name);
}
