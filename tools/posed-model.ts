/** An avatar with some of its blendshapes applied: what the renders of an expression are made from. */
import type { AvatarMesh, AvatarModel, MeshData } from '../src/model/avatar.ts';
import { vertexNormals } from '../src/geometry/mesh/normals.ts';

/** A mesh's positions with the named morphs added at their weights (names it lacks are skipped). */
export function posedPositions(mesh: AvatarMesh, weights: Record<string, number>): Float32Array {
  const out = Float32Array.from(mesh.geometry.positions);
  for (const morph of mesh.morphs) {
    const w = weights[morph.name];
    if (w) for (let i = 0; i < out.length; i++) out[i] += w * morph.deltas[i];
  }
  return out;
}

/**
 * The model with the weighted morphs applied on every mesh, normals recomputed (with no weights too, so
 * that a pose of zero deltas renders identically to the neutral).
 */
export function posedModel(model: AvatarModel, weights: Record<string, number>): AvatarModel {
  return {
    ...model,
    meshes: model.meshes.map((m) => {
      const positions = posedPositions(m, weights);
      const geometry: MeshData = { ...m.geometry, positions, normals: vertexNormals(positions, m.geometry.indices) };
      return { ...m, geometry };
    }),
  };
}
