import type { MeshInputType } from '../../model/product.ts';
import { readArchive } from './archive-read.ts';
import { InputCodes, InputError } from './input-error.ts';
import { readObj, type ObjMesh } from './obj-read.ts';

/** The files of a head-mesh input, found by name (case-insensitive, also inside one top-level folder). */
export interface MeshInput {
  mesh: ObjMesh;
  /** `mesh.jpg` (lofimesh) or `mesh.png` (hifimesh, taken with the eyes closed). */
  texture: Uint8Array;
  /** hifimesh only: the front photo with the eyes open. */
  photo?: Uint8Array;
}

const first = (files: Map<string, Uint8Array>, names: string[]) => names.map((n) => files.get(n)).find((f) => f !== undefined);

/**
 * Reads and checks a mesh input archive: the service calls it before charging (so a bad archive is
 * refused with its code) and the pipeline calls it again to build the avatar. Throws InputError.
 */
export async function readMeshInput(type: MeshInputType, archive: Uint8Array): Promise<MeshInput> {
  const files = await readArchive(archive);
  const obj = files.get('mesh.obj');
  if (!obj) throw new InputError(InputCodes.missingMesh, 'mesh.obj not found in archive');
  const texture = type === 'lofimesh_texture' ? first(files, ['mesh.jpg', 'mesh.jpeg']) : files.get('mesh.png');
  if (!texture) throw new InputError(InputCodes.missingTexture, `${type === 'lofimesh_texture' ? 'mesh.jpg' : 'mesh.png'} not found in archive`);
  const photo = type === 'hifimesh_texture_photo' ? first(files, ['photo.jpg', 'photo.jpeg']) : undefined;
  if (type === 'hifimesh_texture_photo' && !photo) throw new InputError(InputCodes.missingTexture, 'photo.jpg not found in archive');
  return { mesh: readObj(obj), texture, ...(photo ? { photo } : {}) };
}
