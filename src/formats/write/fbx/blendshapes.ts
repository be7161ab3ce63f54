import type { AvatarMesh, MorphTarget } from '../../../model/avatar.ts';
import { sparseShape } from '../sparse-shape.ts';
import { encodedArray } from './encode.ts';
import { int32, node, prop70, properties70, type EncodedArray } from './node.ts';
import type { FbxScene } from './scene.ts';

/**
 * The arrays of a morph's Shape geometry, encoded: the vertices it moves, their deltas, and zero normals (the avatar
 * document carries no normal deltas; assimp requires the array). Their deflate is most of a Shape's cost.
 */
export interface EncodedShape {
  indexes: EncodedArray;
  vertices: EncodedArray;
  normals: EncodedArray;
}

/** Shapes encoded before their file (encodeShapesAhead), by the morph object: a morph never changes once made. */
const ahead = new WeakMap<MorphTarget, EncodedShape>();

/**
 * Encodes the Shapes of these morphs now, for an FBX written later from these same objects: a thread that built
 * the blendshapes and then waits does the deflate then instead of on the way to the file. Returns them in order.
 */
export function encodeShapesAhead(morphs: readonly MorphTarget[]): EncodedShape[] {
  const shapes = encodeShapes(morphs);
  for (const [morph, shape] of shapes) ahead.set(morph, shape);
  return morphs.map((morph) => shapes.get(morph)!);
}

/** Shapes another thread encoded ahead from the same deltas (`shapes[k]` is `morphs[k]`'s), kept as if encoded here. */
export function useShapesEncodedElsewhere(morphs: readonly MorphTarget[], shapes: readonly EncodedShape[]): void {
  for (let k = 0; k < morphs.length; k++) ahead.set(morphs[k], shapes[k]);
}

/**
 * The encoded Shape of each morph, those encoded ahead as they were. Zero normals of one length are the same bytes:
 * encoded once per length among these morphs; morphs that share their deltas (a viseme that is an ARKit shape) share
 * their Shape.
 */
export function encodeShapes(morphs: readonly MorphTarget[]): Map<MorphTarget, EncodedShape> {
  const zeros = new Map<number, EncodedArray>();
  const byDeltas = new Map<Float32Array, EncodedShape>();
  const out = new Map<MorphTarget, EncodedShape>();
  for (const morph of morphs) {
    let shape = ahead.get(morph) ?? byDeltas.get(morph.deltas);
    if (!shape) {
      const { indexes, deltas } = sparseShape(morph);
      let normals = zeros.get(deltas.length);
      if (!normals) zeros.set(deltas.length, (normals = encodedArray(new Float64Array(deltas.length))));
      shape = { indexes: encodedArray(indexes), vertices: encodedArray(deltas), normals };
    }
    byDeltas.set(morph.deltas, shape);
    out.set(morph, shape);
  }
  return out;
}

/**
 * BlendShape deformer of one mesh: one BlendShapeChannel (0..100 %) per morph, each with its Shape
 * geometry (from `shapes`, encodeShapes of the file's morphs). Returns the channel ids by morph name, for
 * DeformPercent animation.
 */
export function addBlendShapes(scene: FbxScene, mesh: AvatarMesh, geometryId: bigint, shapes: ReadonlyMap<MorphTarget, EncodedShape>): Map<string, bigint> {
  const channels = new Map<string, bigint>();
  if (mesh.morphs.length === 0) return channels;
  const deformer = scene.add('Deformer', mesh.name, 'BlendShape', [node('Version', [int32(100)])]);
  scene.connect(deformer, geometryId);
  for (const morph of mesh.morphs) {
    const { indexes, vertices, normals } = shapes.get(morph)!;
    const shape = scene.add('Geometry', morph.name, 'Shape', [
      node('Version', [int32(100)]),
      node('Indexes', [indexes]),
      node('Vertices', [vertices]),
      node('Normals', [normals]),
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
