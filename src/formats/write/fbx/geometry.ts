import type { AvatarMesh } from '../../../model/avatar.ts';
import { gatherVec3 } from '../../../geometry/mesh/gather.ts';
import { int32, node, properties70, type FbxNode } from './node.ts';
import { derivedOnce } from './recurring.ts';

const i = int32;

function layerElement(kind: string, mapping: string, reference: string, data: FbxNode[], name = ''): FbxNode {
  return node(kind, [i(0)], [
    node('Version', [i(101)]),
    node('Name', [name]),
    node('MappingInformationType', [mapping]),
    node('ReferenceInformationType', [reference]),
    ...data,
  ]);
}

/** Triangle list to FBX polygon indices: the last index of each polygon is stored as -(index + 1). */
export function polygonVertexIndex(indices: Uint32Array): Int32Array {
  const out = new Int32Array(indices.length);
  for (let k = 0; k < indices.length; k++) out[k] = k % 3 === 2 ? -indices[k] - 1 : indices[k];
  return out;
}

/** Geometry children of a mesh: vertices, triangles, per-corner normals, indexed UVs, one material slot. */
export function meshGeometry(mesh: AvatarMesh): FbxNode[] {
  const { positions, normals, uvs, indices } = mesh.geometry;
  const cornerNormals = gatherVec3(normals, indices);
  return [
    properties70([]),
    node('GeometryVersion', [i(124)]),
    node('Vertices', [Float64Array.from(positions)]),
    node('PolygonVertexIndex', [derivedOnce(indices, 'PolygonVertexIndex', () => polygonVertexIndex(indices))]),
    layerElement('LayerElementNormal', 'ByPolygonVertex', 'Direct', [node('Normals', [cornerNormals])]),
    layerElement('LayerElementUV', 'ByPolygonVertex', 'IndexToDirect', [
      node('UV', [derivedOnce(uvs, 'UV', () => Float64Array.from(uvs))]),
      node('UVIndex', [derivedOnce(indices, 'UVIndex', () => Int32Array.from(indices))]),
    ], 'UVMap'),
    layerElement('LayerElementMaterial', 'AllSame', 'IndexToDirect', [node('Materials', [Int32Array.of(0)])]),
    node('Layer', [i(0)], [
      node('Version', [i(100)]),
      ...['LayerElementNormal', 'LayerElementUV', 'LayerElementMaterial'].map((type) =>
        node('LayerElement', [], [node('Type', [type]), node('TypedIndex', [i(0)])])),
    ]),
  ];
}
