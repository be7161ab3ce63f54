import { FACE_VERTEX_COUNT, type CanonicalFace } from '../../geometry/template/canonical-face.ts';
import { messageField, readFields, repeatedFloats, repeatedVarints } from './protobuf.ts';

/**
 * Parses GeometryPipelineMetadata: field 1 is the canonical Mesh3d, whose field 3 holds
 * x, y, z, u, v per vertex (v down) and field 4 the triangle indices.
 */
export function parseCanonicalFace(metadata: Uint8Array): CanonicalFace {
  const mesh = readFields(messageField(readFields(metadata), 1));
  const vertexBuffer = repeatedFloats(mesh, 3);
  const indices = Uint32Array.from(repeatedVarints(mesh, 4));
  const count = vertexBuffer.length / 5;
  if (count !== FACE_VERTEX_COUNT || indices.length !== 898 * 3) throw new Error(`unexpected canonical mesh: ${count} vertices, ${indices.length / 3} triangles`);
  const positions = new Float32Array(count * 3);
  const uvs = new Float32Array(count * 2);
  for (let i = 0; i < count; i++) {
    positions.set(vertexBuffer.slice(i * 5, i * 5 + 3), i * 3);
    uvs[i * 2] = vertexBuffer[i * 5 + 3];
    uvs[i * 2 + 1] = 1 - vertexBuffer[i * 5 + 4];
  }
  return { positions, uvs, indices };
}
