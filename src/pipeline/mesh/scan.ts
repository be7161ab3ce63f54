/**
 * A head-mesh input turned into the service's frame: the archive read with the same reader the service
 * checks uploads with, the OBJ expanded to one vertex per (position, uv) corner, the unit detected and
 * scaled to centimetres, the head turned so that it is Y up with the face along +Z, the texture decoded.
 */
import sharp from 'sharp';
import type { MeshData } from '../../model/avatar.ts';
import { readMeshInput } from '../../formats/read/mesh-input.ts';
import type { MeshInputType } from '../../model/product.ts';
import { objToMeshData, detectHeadUnit, type LengthUnit } from '../../formats/read/obj-read.ts';
import { detectHeadOrientation, type HeadOrientation } from '../../geometry/register/head-orientation.ts';
import { InputError } from '../../formats/read/input-error.ts';
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import { PipelineCodes, PipelineError } from '../errors.ts';
import { MAX_SCAN_TRIANGLES } from '../limits.ts';

export interface Scan {
  /** Centimetres, Y up, face along +Z (roughly: registration aligns it exactly). */
  geometry: MeshData;
  texture: RgbImage;
  /** hifimesh only: the front photo with the eyes open. */
  photo?: Uint8Array;
  unit: LengthUnit;
  orientation: HeadOrientation;
}

export async function loadScan(type: MeshInputType, archive: Uint8Array): Promise<Scan> {
  let input;
  try {
    input = await readMeshInput(type, archive);
  } catch (e) {
    if (e instanceof InputError) throw new PipelineError(PipelineCodes.meshUnreadable, e.message);
    throw e;
  }
  if (input.mesh.indices.length / 3 > MAX_SCAN_TRIANGLES) {
    throw new PipelineError(PipelineCodes.meshTooLarge, `the mesh has ${input.mesh.indices.length / 3} triangles, at most ${MAX_SCAN_TRIANGLES} are accepted`);
  }
  const { unit, toCentimetres } = detectHeadUnit(input.mesh.positions);
  const orientation = detectHeadOrientation(input.mesh.positions, input.mesh.indices);
  const geometry = objToMeshData(input.mesh);
  rotateScale(geometry.positions, orientation.rotation, toCentimetres);
  rotateScale(geometry.normals, orientation.rotation, 1);
  return { geometry, texture: await decodeRgb(input.texture), ...(input.photo ? { photo: input.photo } : {}), unit, orientation };
}

function rotateScale(xyz: Float32Array, r: number[], s: number): void {
  for (let i = 0; i < xyz.length; i += 3) {
    const x = xyz[i], y = xyz[i + 1], z = xyz[i + 2];
    xyz[i] = s * (r[0] * x + r[1] * y + r[2] * z);
    xyz[i + 1] = s * (r[3] * x + r[4] * y + r[5] * z);
    xyz[i + 2] = s * (r[6] * x + r[7] * y + r[8] * z);
  }
}

async function decodeRgb(bytes: Uint8Array): Promise<RgbImage> {
  try {
    const { data, info } = await sharp(bytes, { failOn: 'error' }).rotate().removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } catch (e) {
    throw new PipelineError(PipelineCodes.meshUnreadable, `the mesh texture cannot be read as an image (${(e as Error).message})`);
  }
}
