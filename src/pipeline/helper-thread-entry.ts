/**
 * Entry of the pipeline's helper thread (HelperThread): the same code as the pipeline's own thread,
 * its results handed back without copying their arrays.
 */
import { parentPort } from 'node:worker_threads';
import { renderMeshes } from '../geometry/render/rasterize.ts';
import { writeModelFiles } from '../formats/write/packages.ts';
import { featureShapes } from './stages.ts';
import { loadTemplateView } from './template-source.ts';
import { withTemplateArrays } from './model-transfer.ts';
import { sparseShapesInSharedMemory } from './shared-morphs.ts';
import { observePhotoHair, preparePhotoTextures } from './photo-prep.ts';
import { KeptShapes, type Morphs } from './kept-shapes.ts';
import { ReusedSharedMemory } from './shared-memory.ts';
import type { HelperReply, HelperRequest } from './helper-thread.ts';

const port = parentPort!;
const kept = new KeptShapes();
/** The blendshapes' memory, the last avatar's once its job has released it (ReusedSharedMemory), by shapes request. */
const shapesMemory = new ReusedSharedMemory();
const lentForShapes = new Map<number, () => void>();

/**
 * Shapes replies whose FBX encodings and sparse shapes are not sent yet: sent once this thread is idle, and before
 * the next files reply at the latest, so that the job's thread always has them when its files come back.
 */
const unsent = new Map<number, Morphs>();
function sendEncodings(): void {
  for (const [id, morphs] of unsent) {
    unsent.delete(id);
    port.postMessage({ encoded: id, shapes: kept.keep(id, morphs), sparse: sparseShapesInSharedMemory(morphs) } satisfies HelperReply);
  }
}

port.on('message', (req: HelperRequest) => {
  // Between requests, so never inside one: the encodings not sent yet are wanted by no one now.
  if (req.task === 'close') process.exit(0);
  if (req.task === 'release') {
    // Their FBX encodings are read from the deltas: made before the memory goes.
    sendEncodings();
    lentForShapes.get(req.id)?.();
    lentForShapes.delete(req.id);
    return;
  }
  let reply: HelperReply;
  let buffers: ArrayBufferLike[];
  try {
    if (req.task === 'shapes') {
      const start = performance.now();
      // Made in shared memory, neither copied there nor moved: the model that comes back for the files then carries
      // the deltas without a copy.
      const memory = shapesMemory.lend();
      lentForShapes.set(req.id, memory.giveBack);
      const shapes = featureShapes(loadTemplateView(req.template), req.fitted, req.features, memory.allocate, req.lidRest);
      reply = { id: req.id, result: { shapes, ms: performance.now() - start } };
      buffers = [];
      // Once the reply is out: the FBX's shapes encoded while this thread waits for the views (KeptShapes), and
      // sent to the job's thread, which writes the FBX when it takes it first (ModelFileClaims); with the sparse
      // shapes the encoding found, which that thread's GLB and Unity JSON then need not find again.
      if (shapes.morphs) {
        unsent.set(req.id, shapes.morphs);
        setImmediate(sendEncodings);
      }
    } else if (req.task === 'render') {
      const images = req.views.map((v) => renderMeshes(req.items, v.camera, v.opts));
      reply = { id: req.id, result: images };
      buffers = images.map((img) => img.rgba.buffer);
    } else if (req.task === 'photo') {
      const start = performance.now();
      const made = req.part === 'hair' ? observePhotoHair(req.input) : preparePhotoTextures(loadTemplateView(req.template), req.input);
      reply = { id: req.id, result: { result: made, ms: performance.now() - start } };
      const arrays = 'mask' in made ? [made.mask.alpha] : [made.photo.data, made.lipsPhoto.data, made.lipPixels, made.features, made.person, made.eye];
      // Moved, not copied; the photo itself (in shared memory when it comes back unchanged) stays where it is.
      buffers = arrays.filter((a) => !(a.buffer instanceof SharedArrayBuffer)).filter(ownsBuffer).map((a) => a.buffer);
    } else {
      // A files request can come before this thread was idle after the shapes it needs.
      sendEncodings();
      const model = kept.take(req.shapes, withTemplateArrays(req.sent, loadTemplateView(req.template)));
      // The FBX only: the job's thread takes the Unity JSON as its packages start (startPackages). Written here beside
      // the job thread's GLB, its temporaries in a second heap put peak RSS over the goal (median 1,018 MiB of 7 runs).
      const files = writeModelFiles(model, req.platforms.filter((p) => p !== 'unity'), req.claims);
      reply = { id: req.id, result: files };
      buffers = [files.fbx, files.unityJson?.data, files.unityJson?.body].filter((a) => a !== undefined).filter(ownsBuffer).map((a) => a.buffer);
    }
  } catch (e) {
    port.postMessage({ id: req.id, error: (e as Error).stack ?? String(e) } satisfies HelperReply);
    return;
  }
  port.postMessage(reply, [...new Set(buffers)] as ArrayBuffer[]);
});

/** Whether the array is all of its buffer (a small Buffer from zlib may be a slice of a shared pool, which must not move). */
function ownsBuffer(a: Uint8Array): boolean {
  return a.byteOffset === 0 && a.byteLength === a.buffer.byteLength;
}
