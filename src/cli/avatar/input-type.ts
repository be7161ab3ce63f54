import path from 'node:path';
import { unzipSync } from 'fflate';
import type { InputType } from '../../client/index.ts';

const PHOTO_EXTENSIONS = ['.jpg', '.jpeg', '.png'];

/** The base names of a zip's entries, lower case (the service finds its files by name, also inside one folder). */
function zipNames(bytes: Uint8Array): Set<string> {
  const names = new Set<string>();
  unzipSync(bytes, {
    filter: (entry) => {
      names.add(entry.name.split('/').pop()!.toLowerCase());
      return false; // names only: nothing is inflated
    },
  });
  return names;
}

/**
 * The input type of a file when the user gave none: a photo by its extension, a head-mesh zip by the files
 * it holds (hifimesh: mesh.png and photo.jpg; lofimesh: mesh.jpg). Undefined when it cannot be told.
 */
export function guessInputType(file: string, bytes: Uint8Array): InputType | undefined {
  const ext = path.extname(file).toLowerCase();
  if (PHOTO_EXTENSIONS.includes(ext)) return 'photo';
  if (ext !== '.zip') return undefined;
  let names: Set<string>;
  try {
    names = zipNames(bytes);
  } catch {
    return undefined; // not a readable zip: the service says why
  }
  if (!names.has('mesh.obj')) return undefined;
  if (names.has('mesh.png') && (names.has('photo.jpg') || names.has('photo.jpeg'))) return 'hifimesh_texture_photo';
  if (names.has('mesh.jpg') || names.has('mesh.jpeg')) return 'lofimesh_texture';
  return undefined;
}
