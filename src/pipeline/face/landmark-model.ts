/**
 * The face landmark model: @vladmandic/human (MediaPipe BlazeFace + FaceMesh + Iris) on the tfjs wasm
 * backend, loaded once per process from the files inside node_modules (never from the network).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { readGraphModel } from './graph-model-files.ts';

const require = createRequire(import.meta.url);

/** The part of a human FaceResult the pipeline reads. */
export interface DetectedFace {
  score: number;
  /** x, y, width, height in pixels of the analysed image. */
  box: [number, number, number, number];
  /** 478 points: x, y in pixels, z relative depth (pixel-like units, smaller is nearer). */
  mesh: [number, number, number][];
}

interface Tensor {
  dispose(): void;
}
interface TfLike {
  tensor(values: Int32Array, shape: number[], dtype: 'int32'): Tensor;
  io: {
    registerLoadRouter(router: (url: string | string[]) => unknown): void;
    fromMemory(artifacts: unknown): unknown;
  };
}
interface HumanLike {
  tf: TfLike;
  load(): Promise<void>;
  detect(input: Tensor): Promise<{ face: DetectedFace[]; error?: string | null }>;
}

/** human's exports map hides the wasm build: resolve the package's node entry and go by path. */
const humanDist = path.dirname(require.resolve('@vladmandic/human'));
const modelDir = path.join(humanDist, '..', 'models');
const wasmDistDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));

const MODEL_SCHEME = 'model-file://';

let loading: Promise<HumanLike> | undefined;

/** The process-wide landmark model, loaded and warmed up on first use. */
export function landmarkModel(): Promise<HumanLike> {
  loading ??= (async () => {
    const { Human } = require(path.join(humanDist, 'human.node-wasm.js')) as {
      Human: new (config: object) => HumanLike;
    };
    const human = new Human({
      backend: 'wasm',
      wasmPath: wasmDistDir + path.sep,
      modelBasePath: MODEL_SCHEME,
      debug: false,
      async: true,
      warmup: 'none',
      cacheModels: false,
      validateModels: false,
      filter: { enabled: false },
      // Every photo is a new subject: never reuse a previous input's face boxes or landmarks (the
      // library's video defaults do, for similar inputs within a few seconds).
      cacheSensitivity: 0,
      face: {
        enabled: true,
        detector: { enabled: true, rotation: true, maxDetected: 10, minConfidence: 0.5, minSize: 0, return: false, skipFrames: 0, skipTime: 0 },
        mesh: { enabled: true },
        iris: { enabled: true },
        attention: { enabled: false },
        description: { enabled: false },
        emotion: { enabled: false },
        antispoof: { enabled: false },
        liveness: { enabled: false },
      },
      body: { enabled: false },
      hand: { enabled: false },
      object: { enabled: false },
      gesture: { enabled: false },
      segmentation: { enabled: false },
    });
    human.tf.io.registerLoadRouter((url) =>
      typeof url === 'string' && url.startsWith(MODEL_SCHEME)
        ? { load: async () => readGraphModel(path.join(modelDir, path.basename(url.slice(MODEL_SCHEME.length)))) }
        : null,
    );
    // The wasm runtime installs process-wide handlers that rethrow every uncaught error (with its whole
    // source in the message); a service must keep its own error handling, so they are removed again.
    const before = { uncaughtException: process.listeners('uncaughtException'), unhandledRejection: process.listeners('unhandledRejection') };
    await human.load();
    const emitter = process as unknown as NodeJS.EventEmitter;
    for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
      for (const l of emitter.listeners(event)) if (!(before[event] as unknown[]).includes(l)) emitter.removeListener(event, l as (...args: unknown[]) => void);
    }
    return human;
  })();
  return loading;
}

/** The last image's pixels as int32, kept for the next: see int32Pixels. */
let pixels = new Int32Array(0);

/**
 * An RGB image's bytes as the int32 values a tensor of it holds, in an array kept between calls: made new for every
 * photo (tfjs converts a Uint8Array so), its 15 MB of fresh memory cost 75-110 ms of page faults on each call. The
 * values are only valid until the next call; a tensor made from them copies them into the backend's memory at once.
 */
export function int32Pixels(rgb: Uint8Array): Int32Array {
  if (pixels.length < rgb.length) pixels = new Int32Array(rgb.length);
  const out = pixels.subarray(0, rgb.length);
  out.set(rgb);
  return out;
}

/** Runs detection on an RGB image; returns every face found. */
export async function detectFaces(rgb: Uint8Array, width: number, height: number): Promise<DetectedFace[]> {
  const human = await landmarkModel();
  const input = human.tf.tensor(int32Pixels(rgb), [1, height, width, 3], 'int32');
  try {
    const result = await human.detect(input);
    if (result.error) throw new Error(`landmark model: ${result.error}`);
    return result.face;
  } finally {
    input.dispose();
  }
}
