/**
 * On the helper thread: the blendshapes it built for the avatars in work, their FBX Shapes encoded while it waits
 * for the textures (encodeShapesAhead, which also finds their sparse shapes, the Unity JSON's too), kept for the
 * files of the same avatar. An avatar's model comes back as a copy whose targets are new objects; the job's thread
 * names the request that built them (HelperThread), and its targets are swapped for the kept ones, which carry the
 * encodings (and the deltas, in the same shared memory).
 */
import type { AvatarModel, MorphTarget } from '../model/avatar.ts';
import { encodeShapesAhead, type EncodedShape } from '../formats/write/fbx/blendshapes.ts';

export type Morphs = Partial<Record<string, MorphTarget[]>>;
export type EncodedShapes = Partial<Record<string, EncodedShape[]>>;

/** Whether `mine` are `theirs` by name and size, in order (none: theirs are none). */
function sameTargets(mine: MorphTarget[] | undefined, theirs: MorphTarget[]): boolean {
  if ((mine?.length ?? 0) !== theirs.length) return false;
  for (let k = 0; k < theirs.length; k++) if (mine![k].name !== theirs[k].name || mine![k].deltas.length !== theirs[k].deltas.length) return false;
  return true;
}

export class KeptShapes {
  private readonly kept = new Map<number, Morphs>();

  /** At most `limit` avatars' shapes are kept (the oldest go first): an avatar without files never takes its own. */
  constructor(private readonly limit = 2) {}

  /**
   * Encodes the shapes built by request `id` and keeps them for the files of its avatar; returns the encodings by
   * mesh, in the targets' order (for the other thread, which may write the FBX instead).
   */
  keep(id: number, morphs: Morphs): EncodedShapes {
    const encoded = Object.fromEntries(Object.entries(morphs).map(([mesh, targets]) => [mesh, encodeShapesAhead(targets!)]));
    this.kept.set(id, morphs);
    for (const old of this.kept.keys()) if (this.kept.size > this.limit) this.kept.delete(old);
    return encoded;
  }

  /**
   * The model with the targets kept for request `id` in place of its own (they are dropped from here), when every
   * mesh's targets are those (same names and sizes, in order); else the model as it is.
   */
  take(id: number | undefined, model: AvatarModel): AvatarModel {
    const morphs = id === undefined ? undefined : this.kept.get(id);
    if (!morphs) return model;
    this.kept.delete(id!);
    for (const mesh of model.meshes) if (!sameTargets(morphs[mesh.name], mesh.morphs)) return model;
    return { ...model, meshes: model.meshes.map((mesh) => (mesh.morphs.length === 0 ? mesh : { ...mesh, morphs: morphs[mesh.name]! })) };
  }
}
