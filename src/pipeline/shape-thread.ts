/**
 * Entry of the blendshape thread (ShapeWorker): builds the blendshapes and clips of a fitted head
 * with the same code and template as the pipeline's own thread, and hands the deltas back without copying them.
 */
import { parentPort } from 'node:worker_threads';
import { featureShapes } from './stages.ts';
import { loadTemplateView } from './template-source.ts';
import type { ShapeReply, ShapeRequest } from './shape-worker.ts';

const port = parentPort!;
port.on('message', (req: ShapeRequest) => {
  let reply: ShapeReply;
  try {
    const start = performance.now();
    const shapes = featureShapes(loadTemplateView(req.template), req.fitted, req.features);
    reply = { id: req.id, shapes, ms: performance.now() - start };
  } catch (e) {
    port.postMessage({ id: req.id, error: (e as Error).stack ?? String(e) } satisfies ShapeReply);
    return;
  }
  // Visemes share the deltas of the ARKit shapes they copy: each buffer is listed once.
  const buffers = new Set(Object.values(reply.shapes.morphs ?? {}).flatMap((targets) => targets!.map((t) => t.deltas.buffer)));
  port.postMessage(reply, [...buffers] as ArrayBuffer[]);
});
