import type { Vec3 } from '../../../model/avatar.ts';
import { int32, node, prop70, properties70, type FbxNode } from './node.ts';

const i = int32;

/** Children of a Model node (mesh or limb) with its local rest transform; rotation in XYZ Euler degrees. */
export function modelNode(translation: Vec3, rotationDegrees: Vec3): FbxNode[] {
  return [
    node('Version', [i(232)]),
    properties70([
      prop70('InheritType', 'enum', '', '', i(1)),
      prop70('DefaultAttributeIndex', 'int', 'Integer', '', i(0)),
      prop70('Lcl Translation', 'Lcl Translation', '', 'A', ...translation),
      prop70('Lcl Rotation', 'Lcl Rotation', '', 'A', ...rotationDegrees),
      prop70('Lcl Scaling', 'Lcl Scaling', '', 'A', 1, 1, 1),
    ]),
    node('MultiLayer', [i(0)]),
    node('MultiTake', [i(0)]),
    node('Shading', [true]),
    node('Culling', ['CullingOff']),
  ];
}
