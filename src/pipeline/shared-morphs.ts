/**
 * Morph targets whose deltas live in one SharedArrayBuffer. The helper thread builds the blendshapes and
 * later writes the FBX and Unity JSON from them, while the pipeline's thread assembles the model and
 * writes the GLB and the document: in shared memory the deltas (some 25 MiB for template 2.0 with every
 * feature) are held once for both, and the model sent back to the helper carries them without a copy.
 */
import type { MorphTarget } from '../model/avatar.ts';

/** The same targets, their deltas copied into shared memory; targets that shared an array share its copy. */
export function inSharedMemory<M extends Partial<Record<string, MorphTarget[]>>>(morphs: M): M {
  const arrays = [...new Set(Object.values(morphs).flatMap((targets) => targets!.map((t) => t.deltas)))];
  const memory = new SharedArrayBuffer(arrays.reduce((bytes, a) => bytes + a.byteLength, 0));
  const copies = new Map<Float32Array, Float32Array>();
  let offset = 0;
  for (const a of arrays) {
    const copy = new Float32Array(memory, offset, a.length);
    copy.set(a);
    copies.set(a, copy);
    offset += a.byteLength;
  }
  return Object.fromEntries(Object.entries(morphs).map(([mesh, targets]) => [mesh, targets!.map((t) => ({ ...t, deltas: copies.get(t.deltas)! }))])) as M;
}
