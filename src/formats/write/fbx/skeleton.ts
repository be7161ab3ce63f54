import type { AvatarMesh, AvatarModel } from '../../../model/avatar.ts';
import { boneWorldMatrices, invertAffine, quatToEulerXYZDegrees } from '../../../geometry/mesh/transform.ts';
import { modelNode } from './model-node.ts';
import { int32, node, prop70, properties70 } from './node.ts';
import { SCENE_ROOT, type FbxScene } from './scene.ts';
import { derivedOnce } from './recurring.ts';

const IDENTITY = Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);

/** Bones as LimbNode models with their node attributes, parented as in the model; returns the model ids. */
export function addSkeleton(scene: FbxScene, model: AvatarModel): bigint[] {
  return model.bones.reduce<bigint[]>((ids, bone) => {
    const attribute = scene.add('NodeAttribute', bone.name, 'LimbNode', [
      properties70([prop70('Size', 'double', 'Number', '', 1)]),
      node('TypeFlags', ['Skeleton']),
    ]);
    const id = scene.add('Model', bone.name, 'LimbNode', modelNode(bone.translation, quatToEulerXYZDegrees(bone.rotation)));
    scene.connect(attribute, id);
    scene.connect(id, bone.parent < 0 ? SCENE_ROOT : ids[bone.parent]);
    ids.push(id);
    return ids;
  }, []);
}

/** The bind pose: rest world matrices of the meshes (identity) and of every bone. */
export function addBindPose(scene: FbxScene, model: AvatarModel, meshIds: bigint[], boneIds: bigint[]): void {
  const world = boneWorldMatrices(model.bones);
  const poseNodes = [
    ...meshIds.map((id) => [id, IDENTITY] as const),
    ...boneIds.map((id, b) => [id, world[b]] as const),
  ].map(([id, matrix]) => node('PoseNode', [], [node('Node', [id]), node('Matrix', [matrix])]));
  scene.add('Pose', 'BindPose', 'BindPose', [
    node('Type', ['BindPose']),
    node('Version', [int32(100)]),
    node('NbPoseNodes', [int32(poseNodes.length)]),
    ...poseNodes,
  ]);
}

/**
 * Skin deformer of one mesh with one cluster per bone. Transform is the bone's inverse bind matrix
 * times the mesh matrix (identity), TransformLink the bone's bind matrix, both in world space.
 */
export function addSkin(scene: FbxScene, model: AvatarModel, mesh: AvatarMesh, geometryId: bigint, boneIds: bigint[]): void {
  const skin = scene.add('Deformer', mesh.name, 'Skin', [
    node('Version', [int32(101)]),
    node('Link_DeformAcuracy', [50]),
  ]);
  scene.connect(skin, geometryId);
  const world = boneWorldMatrices(model.bones);
  const influences = derivedOnce(mesh.skin, `influences of ${model.bones.length} bones`, () => boneInfluences(mesh, model.bones.length), (all) => all.flatMap((b) => [b.indexes, b.weights]));
  model.bones.forEach((bone, b) => {
    const { indexes, weights } = influences[b];
    const cluster = scene.add('Deformer', bone.name, 'Cluster', [
      node('Version', [int32(100)]),
      node('UserData', ['', '']),
      // Readers accept a cluster without Indexes and Weights; empty arrays trip some of them.
      ...(indexes.length > 0 ? [node('Indexes', [indexes]), node('Weights', [weights])] : []),
      node('Transform', [invertAffine(world[b])]),
      node('TransformLink', [world[b]]),
    ], 'SubDeformer');
    scene.connect(cluster, skin);
    scene.connect(boneIds[b], cluster);
  });
}

/** Per bone, the vertices it moves and with what weight (the transpose of the 4-per-vertex skin). */
function boneInfluences(mesh: AvatarMesh, boneCount: number): { indexes: Int32Array; weights: Float64Array }[] {
  const out = Array.from({ length: boneCount }, () => ({ indexes: [] as number[], weights: [] as number[] }));
  const { joints, weights } = mesh.skin;
  for (let k = 0; k < joints.length; k++) {
    if (weights[k] <= 0) continue;
    const entry = out[joints[k]];
    entry.indexes.push(k >> 2);
    entry.weights.push(weights[k]);
  }
  return out.map((b) => ({ indexes: Int32Array.from(b.indexes), weights: Float64Array.from(b.weights) }));
}
