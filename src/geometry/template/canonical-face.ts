import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { messageField, readFields, repeatedFloats, repeatedVarints } from './protobuf.ts';

/** The canonical face mesh of MediaPipe: same vertex numbering as the detected landmarks. */
export interface CanonicalFace {
  /** 468 x 3, centimetres, Y up, face along +Z. */
  positions: Float32Array;
  /** 468 x 2, v up. */
  uvs: Float32Array;
  /** 898 triangles, counter-clockwise from the front. */
  indices: Uint32Array;
}

export const FACE_VERTEX_COUNT = 468;
const METADATA = 'geometry_pipeline_metadata_landmarks.binarypb';

/** Directory of the installed @mediapipe/face_mesh package. */
export function faceMeshPackageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('@mediapipe/face_mesh'));
}

/** The metadata file's bytes, cut out of the package's packed assets using the loader's offsets. */
function readMetadata(dir: string): Uint8Array {
  const loader = readFileSync(join(dir, 'face_mesh_solution_packed_assets_loader.js'), 'utf8');
  const entry = new RegExp(`"filename":\\s*"[^"]*${METADATA}",\\s*"start":\\s*(\\d+),\\s*"end":\\s*(\\d+)`).exec(loader);
  if (!entry) throw new Error(`${METADATA} not listed in the face_mesh assets loader`);
  const data = readFileSync(join(dir, 'face_mesh_solution_packed_assets.data'));
  return new Uint8Array(data.buffer, data.byteOffset + Number(entry[1]), Number(entry[2]) - Number(entry[1]));
}

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

export function loadCanonicalFace(): CanonicalFace {
  return parseCanonicalFace(readMetadata(faceMeshPackageDir()));
}
