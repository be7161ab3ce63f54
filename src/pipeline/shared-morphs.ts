/**
 * Morph targets whose deltas live in one SharedArrayBuffer. The helper thread builds the blendshapes and
 * later writes the FBX and Unity JSON from them, while the pipeline's thread assembles the model and
 * writes the GLB and the document: in shared memory the deltas (some 25 MiB for template 2.0 with every
 * feature) are held once for both, and the model sent back to the helper carries them without a copy.
 */
import type { MorphTarget } from '../model/avatar.ts';
import { sharedCopies } from './shared-memory.ts';

/** The same targets, their deltas copied into shared memory; targets that shared an array share its copy. */
export function inSharedMemory<M extends Partial<Record<string, MorphTarget[]>>>(morphs: M): M {
  const copies = sharedCopies(Object.values(morphs).flatMap((targets) => targets!.map((t) => t.deltas)));
  return Object.fromEntries(Object.entries(morphs).map(([mesh, targets]) => [mesh, targets!.map((t) => ({ ...t, deltas: copies.get(t.deltas)! }))])) as M;
}
