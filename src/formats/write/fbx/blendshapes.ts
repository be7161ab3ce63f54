import type { AvatarMesh } from '../../../model/avatar.ts';
import { sparseShape } from '../sparse-shape.ts';
import { int32, node, prop70, properties70 } from './node.ts';
import type { FbxScene } from './scene.ts';

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
