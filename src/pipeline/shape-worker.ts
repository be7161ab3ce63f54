/**
 * The blendshapes on a second thread: they need only the fitted geometry, so they are built while the
 * pipeline's own thread fits the hair and bakes the textures (on two cores, photo to result sooner).
 */
import type { Worker } from 'node:worker_threads';
import type { TemplateVersion } from '../model/avatar.ts';
import type { FittedGeometry } from '../geometry/expressions/frame.ts';
import { tsWorker } from '../util/ts-worker.ts';
import { featureShapes } from './stages.ts';
import type { TemplateView } from './template-view.ts';
import type { PipelineInput } from './types.ts';

export type FeatureShapes = ReturnType<typeof featureShapes>;

/** Builds the blendshapes and clips the features ask for; `ms` is the time the building took where it ran. */
export type ShapeSource = (tpl: TemplateView, fitted: FittedGeometry, features: PipelineInput['features']) => Promise<{ shapes: FeatureShapes; ms: number }>;

export interface ShapeRequest {
  id: number;
  template: TemplateVersion;
  fitted: FittedGeometry;
  features: PipelineInput['features'];
}

export type ShapeReply = { id: number; shapes: FeatureShapes; ms: number } | { id: number; error: string };

/**
 * On the caller's thread, for tools and tests that make one avatar at a time: run when the caller
 * first waits (at its assembly), so that its other stages' times stay their own.
 */
export const shapesHere: ShapeSource = async (tpl, fitted, features) => {
  await null;
  const start = performance.now();
  const shapes = featureShapes(tpl, fitted, features);
  return { shapes, ms: performance.now() - start };
};

/**
 * One thread, started on first use, that loads the templates it is asked for by version (the same
 * loadTemplateView as the caller's: use it only with a pipeline on loadTemplateView). It keeps the
 * process alive only while a request is open.
 */
export class ShapeWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (r: { shapes: FeatureShapes; ms: number }) => void; reject: (e: Error) => void }>();
  private next = 0;

  readonly source: ShapeSource = (tpl, fitted, features) => {
    const worker = (this.worker ??= this.start());
    const id = this.next++;
    const request: ShapeRequest = { id, template: tpl.version, fitted: { head: fitted.head, parts: fitted.parts }, features };
    const reply = new Promise<{ shapes: FeatureShapes; ms: number }>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    worker.ref();
    worker.postMessage(request);
    return reply;
  };

  /** Stops the thread (open requests fail); the next request starts another. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = tsWorker(new URL('./shape-thread.ts', import.meta.url));
    worker.unref();
    worker.on('message', (reply: ShapeReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if ('error' in reply) waiting?.reject(new Error(`blendshape thread: ${reply.error}`));
      else waiting?.resolve(reply);
    });
    const fail = (e: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(e);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`blendshape thread exited (${code})`)));
    return worker;
  }
}
