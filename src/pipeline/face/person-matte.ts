/**
 * The person matte of a photo: how much each pixel shows the person (hair, face, neck, clothes) rather
 * than the background. MediaPipe's selfie segmentation network (assets/models/selfie, 256x256 input) runs
 * on the tfjs wasm backend the landmark model already set up; its soft output is scaled back to the photo.
 */
import { fileURLToPath } from 'node:url';
import type * as tfc from '@tensorflow/tfjs-core';
import type { GraphModel, loadGraphModel } from '@tensorflow/tfjs-converter';
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import { int32Pixels, landmarkModel } from './landmark-model.ts';
import { readGraphModel } from './graph-model-files.ts';
import { rankFilter } from './rank-filter.ts';

export interface PersonMatte {
  width: number;
  height: number;
  /** One byte per pixel, row 0 at the top: 255 person, 0 background. */
  alpha: Uint8Array;
}

const MODEL_FILE = fileURLToPath(new URL('../../../assets/models/selfie/selfie.json', import.meta.url));
/** The network's fixed input size; the photo is scaled to it whatever its aspect (as it was trained). */
const INPUT_SIZE = 256;

/** human's bundled tfjs: the core ops and the graph-model loader, on the backend it initialised. */
type Tf = typeof tfc & { loadGraphModel: typeof loadGraphModel };

let loading: Promise<{ tf: Tf; model: GraphModel }> | undefined;

function segmentationModel(): Promise<{ tf: Tf; model: GraphModel }> {
  loading ??= (async () => {
    const tf = (await landmarkModel()).tf as unknown as Tf;
    const model = await tf.loadGraphModel(tf.io.fromMemory(await readGraphModel(MODEL_FILE)));
    return { tf, model };
  })();
  return loading;
}

export async function estimatePersonMatte(photo: RgbImage): Promise<PersonMatte> {
  const { tf, model } = await segmentationModel();
  const { width, height } = photo;
  const alpha = tf.tidy(() => {
    const input = tf.tensor4d(int32Pixels(photo.data), [1, height, width, 3], 'int32');
    const small = tf.div(tf.image.resizeBilinear(input, [INPUT_SIZE, INPUT_SIZE]), 255);
    const person = model.execute(small) as tfc.Tensor4D;
    return tf.cast(tf.round(tf.mul(tf.image.resizeBilinear(person, [height, width]), 255)), 'int32');
  });
  try {
    return { width, height, alpha: Uint8Array.from(await alpha.data()) };
  } finally {
    alpha.dispose();
  }
}

/** The alpha (0..255) from which a pixel is the person's: the soft edge's middle. */
export const PERSON_ALPHA = 128;

/** One cell of the network's input grid in the photo's pixels: the matte knows its edge no finer. */
export function matteCell(matte: PersonMatte): number {
  return Math.max(matte.width, matte.height) / INPUT_SIZE;
}

/** Whether the pixel nearest (x, y) shows the person; none outside the photo. */
export function isPersonAt(matte: PersonMatte, x: number, y: number): boolean {
  const xi = Math.round(x), yi = Math.round(y);
  return xi >= 0 && yi >= 0 && xi < matte.width && yi < matte.height && matte.alpha[yi * matte.width + xi] >= PERSON_ALPHA;
}

/**
 * The matte where it is sure: each pixel takes the least person of its neighbourhood, one cell of the
 * network's input grid (the matte's edge is only known to that) plus a pixel (a bilinear sample's reach)
 * around it. Colour sampled from the photo for the skin comes only from there: no background at the border.
 */
export function innerMatte(matte: PersonMatte): Uint8Array {
  const r = Math.ceil(matteCell(matte)) + 1;
  return rankFilter(matte.alpha, matte.width, matte.height, r, 'min', new Uint8Array(matte.width * matte.height));
}
