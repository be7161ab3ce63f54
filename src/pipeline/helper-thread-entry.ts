/**
 * Entry of the pipeline's helper thread (HelperThread): the same code as the pipeline's own thread,
 * its results handed back without copying their arrays.
 */
import { parentPort } from 'node:worker_threads';
import { renderMeshes } from '../geometry/render/rasterize.ts';
import { featureShapes } from './stages.ts';
import { loadTemplateView } from './template-source.ts';
import type { HelperReply, HelperRequest } from './helper-thread.ts';

const port = parentPort!;
port.on('message', (req: HelperRequest) => {
  let reply: HelperReply;
  let buffers: ArrayBufferLike[];
  try {
    if (req.task === 'shapes') {
      const start = performance.now();
      const shapes = featureShapes(loadTemplateView(req.template), req.fitted, req.features);
      reply = { id: req.id, result: { shapes, ms: performance.now() - start } };
      // Visemes share the deltas of the ARKit shapes they copy: each buffer is listed once.
      buffers = Object.values(shapes.morphs ?? {}).flatMap((targets) => targets!.map((t) => t.deltas.buffer));
    } else {
      const images = req.views.map((v) => renderMeshes(req.items, v.camera, v.opts));
      reply = { id: req.id, result: images };
      buffers = images.map((img) => img.rgba.buffer);
    }
  } catch (e) {
    port.postMessage({ id: req.id, error: (e as Error).stack ?? String(e) } satisfies HelperReply);
    return;
  }
  port.postMessage(reply, [...new Set(buffers)] as ArrayBuffer[]);
});
