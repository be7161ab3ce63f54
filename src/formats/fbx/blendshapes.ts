import type { AvatarMesh, MorphTarget } from '../../model/avatar.ts';
import { int32, node, prop70, properties70 } from './node.ts';
import type { FbxScene } from './scene.ts';

/** Deltas below this (cm) are left out of a shape; a blendshape moves only part of the head. */
const DELTA_EPSILON = 1e-6;

/** Sparse shape: the vertices a morph moves and their deltas. */
export function sparseShape(morph: MorphTarget): { indexes: Int32Array; deltas: Float64Array } {
  const d = morph.deltas;
  const indexes: number[] = [];
  for (let v = 0; v < d.length / 3; v++) {
    if (Math.abs(d[v * 3]) > DELTA_EPSILON || Math.abs(d[v * 3 + 1]) > DELTA_EPSILON || Math.abs(d[v * 3 + 2]) > DELTA_EPSILON) indexes.push(v);
  }
  // A shape that moves nothing keeps one zero delta: some readers reject empty shape arrays.
  if (indexes.length === 0) indexes.push(0);
  const deltas = new Float64Array(indexes.length * 3);
  indexes.forEach((v, k) => deltas.set(d.subarray(v * 3, v * 3 + 3), k * 3));
  return { indexes: Int32Array.from(indexes), deltas };
}

/**
 * BlendShape deformer of one mesh: one BlendShapeChannel (0..100 %) per morph, each with its Shape
 * geometry. Returns the channel ids by morph name, for DeformPercent animation.
 */
export function addBlendShapes(scene: FbxScene, mesh: AvatarMesh, geometryId: bigint): Map<string, bigint> {
  const channels = new Map<string, bigint>();
  if (mesh.morphs.length === 0) return channels;
  const deformer = scene.add('Deformer', mesh.name, 'BlendShape', [node('Version', [int32(100)])]);
  scene.connect(deformer, geometryId);
  for (const morph of mesh.morphs) {
    const { indexes, deltas } = sparseShape(morph);
    const shape = scene.add('Geometry', morph.name, 'Shape', [
      node('Version', [int32(100)]),
      node('Indexes', [indexes]),
      node('Vertices', [deltas]),
      // The avatar document carries no normal deltas; assimp requires the array.
      node('Normals', [new Float64Array(deltas.length)]),
    ]);
    const channel = scene.add('Deformer', morph.name, 'BlendShapeChannel', [
      node('Version', [int32(100)]),
      node('DeformPercent', [0]),
      node('FullWeights', [Float64Array.of(100)]),
      properties70([prop70('DeformPercent', 'Number', '', 'A', 0)]),
    ], 'SubDeformer');
    scene.connect(shape, channel);
    scene.connect(channel, deformer);
    channels.set(morph.name, channel);
  }
  return channels;
}
