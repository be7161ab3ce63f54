/**
 * Identity descriptors for the quality tool: the 128-d face recognition net of @vladmandic/face-api
 * (a devDependency: this module is for measurement, never loaded by the service). It runs on the same
 * tfjs wasm backend as the landmark model.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { landmarkModel } from '../../src/pipeline/face/landmark-model.ts';
import type { RgbImage } from '../../src/geometry/texture/rgb-image.ts';

const require = createRequire(import.meta.url);

interface FaceApi {
  tf: { tensor3d(values: Int32Array, shape: number[], dtype: 'int32'): { dispose(): void } };
  nets: Record<'ssdMobilenetv1' | 'faceLandmark68Net' | 'faceRecognitionNet', { loadFromDisk(dir: string): Promise<void> }>;
  SsdMobilenetv1Options: new (o: { minConfidence: number }) => unknown;
  detectSingleFace(input: unknown, options: unknown): {
    withFaceLandmarks(): { withFaceDescriptor(): Promise<{ descriptor: Float32Array } | undefined> };
  };
}

let loading: Promise<FaceApi> | undefined;

function faceApi(): Promise<FaceApi> {
  loading ??= (async () => {
    // The landmark model initialises the shared tfjs wasm backend first.
    await landmarkModel();
    const dist = path.dirname(require.resolve('@vladmandic/face-api'));
    const api = require(path.join(dist, 'face-api.node-wasm.js')) as FaceApi;
    const models = path.join(dist, '..', 'model');
    await api.nets.ssdMobilenetv1.loadFromDisk(models);
    await api.nets.faceLandmark68Net.loadFromDisk(models);
    await api.nets.faceRecognitionNet.loadFromDisk(models);
    return api;
  })();
  return loading;
}

/** The 128-d descriptor of the most confident face, or undefined when none is found. */
export async function faceDescriptor(image: RgbImage): Promise<Float32Array | undefined> {
  const api = await faceApi();
  const t = api.tf.tensor3d(Int32Array.from(image.data), [image.height, image.width, 3], 'int32');
  try {
    const r = await api.detectSingleFace(t, new api.SsdMobilenetv1Options({ minConfidence: 0.2 })).withFaceLandmarks().withFaceDescriptor();
    return r?.descriptor;
  } finally {
    t.dispose();
  }
}

export function descriptorDistance(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return Math.sqrt(s);
}
