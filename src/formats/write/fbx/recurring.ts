/**
 * FBX arrays derived from arrays that recur in every avatar of a template (its meshes' UVs and triangles,
 * its skin): derived and deflated once per source array instead of once per avatar. A source must not
 * change once it has been written (the template's arrays never do).
 */
type FbxArray = Int32Array | Float64Array;

const derived = new WeakMap<object, Map<string, unknown>>();
const recurringArrays = new WeakSet<FbxArray>();

/** `derive()` of `source`, made once per source and kind; the FBX arrays in it are encoded once (isRecurring). */
export function derivedOnce<T>(source: object, kind: string, derive: () => T, arrays: (value: T) => FbxArray[] = (v) => [v as FbxArray]): T {
  let bySource = derived.get(source);
  if (!bySource) derived.set(source, (bySource = new Map()));
  if (bySource.has(kind)) return bySource.get(kind) as T;
  const value = derive();
  for (const a of arrays(value)) recurringArrays.add(a);
  bySource.set(kind, value);
  return value;
}

/** Whether the encoder may keep this array's encoding for the next file (it came from derivedOnce). */
export const isRecurring = (a: object): boolean => recurringArrays.has(a as FbxArray);
