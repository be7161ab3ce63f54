import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseCanonicalFace } from '../formats/read/canonical-face.ts';
import type { CanonicalFace } from '../geometry/template/canonical-face.ts';

const METADATA = 'geometry_pipeline_metadata_landmarks.binarypb';

/** Directory of the installed @mediapipe/face_mesh package. */
function faceMeshPackageDir(): string {
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

/** The canonical face as the installed @mediapipe/face_mesh package ships it. */
export function loadCanonicalFace(): CanonicalFace {
  return parseCanonicalFace(readMetadata(faceMeshPackageDir()));
}
