/**
 * A second thread for the work of an avatar that needs only part of what came before it: the photo-only
 * preparation (photo-prep.ts: the hair seen in the photo and the photo's side of the textures), done while the
 * head is fitted, the blendshapes (only the fitted geometry), built while the hair is fitted and the textures baked,
 * the package's side views, drawn while the front preview is, and the packages' FBX and Unity JSON,
 * written while the front preview is drawn and the packages are put together. On two cores, photo to done sooner.
 */
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import type { AvatarModel, MorphTarget, TemplateVersion } from '../model/avatar.ts';
import type { Platform } from '../model/product.ts';
import type { FittedGeometry } from '../geometry/expressions/frame.ts';
import type { Camera } from '../geometry/render/camera.ts';
import type { RgbaImage } from '../geometry/render/image.ts';
import { renderMeshes, type RenderItem, type RenderOptions } from '../geometry/render/rasterize.ts';
import { writeModelFiles, type ModelFileClaims, type ModelFiles } from '../formats/write/packages.ts';
import { tsWorker } from '../util/ts-worker.ts';
import { featureShapes } from './stages.ts';
import type { TemplateView } from './template-view.ts';
import { withoutTemplateArrays, type SentModel } from './model-transfer.ts';
import type { EncodedShapes, Morphs } from './kept-shapes.ts';
import { useShapesEncodedElsewhere } from '../formats/write/fbx/blendshapes.ts';
import { useSparseShapesFoundElsewhere } from '../formats/write/sparse-shape.ts';
import type { SparseShapes } from './shared-morphs.ts';
import type { PipelineInput } from './types.ts';
import { observePhotoHair, preparePhotoTextures, type PhotoPrepInput, type PhotoTexturePrep } from './photo-prep.ts';
import type { HairObservation } from './hair/observation.ts';
import { ReusedSharedMemory, sharedCopies } from './shared-memory.ts';

export type FeatureShapes = ReturnType<typeof featureShapes>;

/**
 * Builds the blendshapes and clips the features ask for (and the lids' rest, featureShapes); `ms` is the time the
 * building took where it ran. `release`, once nothing reads them any more (the avatar's files are written), lets the
 * memory of their deltas be the next avatar's: new memory for each cost 100-140 ms of page faults.
 */
export type ShapeSource = (tpl: TemplateView, fitted: FittedGeometry, features: PipelineInput['features'], lidRest?: number) => Promise<{ shapes: FeatureShapes; ms: number; release(): void }>;

/** Renders the same items from several cameras (one request: the textures cross to a thread once). */
export type RenderSource = (items: RenderItem[], views: { camera: Camera; opts: RenderOptions }[]) => Promise<RgbaImage[]>;

/**
 * Writes the model files of the packages of `platforms` that it takes by `claims` (writeModelFiles). The model's
 * textures are read by name only: the model may be sent before they are encoded.
 */
export type FilesSource = (tpl: TemplateView, model: AvatarModel, platforms: readonly Platform[], claims: ModelFileClaims) => Promise<ModelFiles>;

/** A result with the time (ms) it took where it was made. */
export type Timed<T> = { result: T; ms: number };

/**
 * The photo-only work (photo-prep.ts), asked for as soon as the photo is analysed: the hair observation (the
 * hairstyle's choice waits for it) and, after it, the photo's side of the textures (the bake waits for that).
 * `done` says that the caller reads what came back no more (the textures' photo may be the memory the input was sent in).
 */
export type PhotoPrepSource = (
  tpl: TemplateView,
  input: PhotoPrepInput,
) => { hair: Promise<Timed<HairObservation>>; textures: Promise<Timed<PhotoTexturePrep>>; done(): void };

export type HelperRequest =
  | { id: number; task: 'shapes'; template: TemplateVersion; fitted: FittedGeometry; features: PipelineInput['features']; lidRest: number }
  | { id: number; task: 'render'; items: RenderItem[]; views: { camera: Camera; opts: RenderOptions }[] }
  | { id: number; task: 'files'; template: TemplateVersion; sent: SentModel; platforms: readonly Platform[]; claims: ModelFileClaims; shapes?: number }
  | { id: number; task: 'photo'; part: 'hair' | 'textures'; template: TemplateVersion; input: PhotoPrepInput }
  // Unanswered: shapes request `id`'s deltas are read no more (ShapeSource's `release`).
  | { id: number; task: 'release' }
  // Unanswered: the thread ends once what it is doing is done (HelperThread.close).
  | { id: number; task: 'close' };

export type HelperReply =
  | { id: number; result: { shapes: FeatureShapes; ms: number } | RgbaImage[] | ModelFiles | Timed<HairObservation | PhotoTexturePrep> }
  | { id: number; error: string }
  // Unasked, after a shapes reply: the FBX's Shapes of those targets, encoded (KeptShapes), and their sparse shapes.
  | { encoded: number; shapes: EncodedShapes; sparse: SparseShapes };

/**
 * On the caller's thread, for tools and tests that make one avatar at a time: run when the caller
 * first waits (at its assembly), so that its other stages' times stay their own.
 */
export const shapesHere: ShapeSource = async (tpl, fitted, features, lidRest = 0) => {
  await null;
  const start = performance.now();
  const shapes = featureShapes(tpl, fitted, features, undefined, lidRest);
  return { shapes, ms: performance.now() - start, release: () => undefined };
};

/** On the caller's thread, at once. */
export const renderHere: RenderSource = async (items, views) => views.map((v) => renderMeshes(items, v.camera, v.opts));

/** On the caller's thread, when the caller first waits. */
export const filesHere: FilesSource = async (_tpl, model, platforms, claims) => {
  await null;
  return writeModelFiles(model, platforms, claims);
};

/**
 * On the caller's thread, each part when the caller first waits for it: the hair where the hairstyle is chosen, the
 * textures' part where they are baked (chained after the hair, with a turn of its own, so that it runs only once
 * the caller waits for it), so that the caller's stage times keep their own work.
 */
export const photoPrepHere: PhotoPrepSource = (tpl, input) => {
  const hair = timedLater(() => observePhotoHair(input));
  const textures = hair.then(() => timedLater(() => preparePhotoTextures(tpl, input)));
  return { hair, textures, done: () => undefined };
};

async function timedLater<T>(make: () => T): Promise<Timed<T>> {
  await null;
  const start = performance.now();
  const result = make();
  return { result, ms: performance.now() - start };
}

/**
 * One thread, started on first use, that loads the templates it is asked for by version (the same
 * loadTemplateView as the caller's: use its `shapes` only with a pipeline on loadTemplateView). It keeps
 * the process alive only while a request is open.
 */
export class HelperThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();
  private next = 0;

  /** The shapes request each target came from: the helper keeps their FBX encodings for the model's files (KeptShapes). */
  private readonly shapesRequest = new WeakMap<MorphTarget, number>();
  /** The targets of shapes requests whose encodings the helper has not sent yet. */
  private readonly awaitingEncoding = new Map<number, Morphs>();

  readonly shapes: ShapeSource = async (tpl, fitted, features, lidRest = 0) => {
    const id = this.next++;
    const built = await this.ask<{ shapes: FeatureShapes; ms: number }>({ id, task: 'shapes', template: tpl.version, fitted: { head: fitted.head, parts: fitted.parts }, features, lidRest });
    const morphs = built.shapes.morphs;
    if (morphs) {
      for (const targets of Object.values(morphs)) for (const t of targets!) this.shapesRequest.set(t, id);
      this.awaitingEncoding.set(id, morphs);
    }
    // To the thread that built them; a thread started since (after a failure) lends nothing under this id.
    const worker = this.worker;
    return { ...built, release: () => worker?.postMessage({ id, task: 'release' } satisfies HelperRequest) };
  };

  readonly render: RenderSource = (items, views) => this.ask({ id: this.next++, task: 'render', items, views });

  readonly files: FilesSource = (tpl, model, platforms, claims) => {
    // Only the textures' names are read: their bytes stay here.
    const named = { ...model, textures: model.textures.map((t) => ({ ...t, data: new Uint8Array(0) })) };
    // One request's targets, and only them: the helper may use what it keeps of that request's.
    const requests = new Set<number | undefined>();
    for (const mesh of model.meshes) for (const t of mesh.morphs) requests.add(this.shapesRequest.get(t));
    const shapes = requests.size === 1 ? [...requests][0] : undefined;
    return this.ask({ id: this.next++, task: 'files', template: tpl.version, sent: withoutTemplateArrays(named, tpl), platforms, claims, shapes });
  };

  /** The memory the photo and matte cross in, the last avatar's once it is done with them (ReusedSharedMemory). */
  private readonly photoMemory = new ReusedSharedMemory();

  readonly photo: PhotoPrepSource = (tpl, input) => {
    // In shared memory both threads read the one photo and matte: not copied to the helper for each part, nor back.
    const memory = this.photoMemory.lend();
    const copies = sharedCopies([input.image.data, input.matte.alpha], memory.allocate);
    const sent: PhotoPrepInput = {
      ...input,
      image: { ...input.image, data: copies.get(input.image.data)! },
      matte: { ...input.matte, alpha: copies.get(input.matte.alpha)! },
    };
    return {
      hair: this.ask({ id: this.next++, task: 'photo', part: 'hair', template: tpl.version, input: sent }),
      textures: this.ask({ id: this.next++, task: 'photo', part: 'textures', template: tpl.version, input: sent }),
      done: memory.giveBack,
    };
  };

  /**
   * Stops the thread once the requests already sent to it are answered; the next request starts another. Asked,
   * not terminated: Node 20 aborts the whole process when a thread cut off inside zlib (the FBX encodings it makes
   * after a shapes reply) is freed ("close before init").
   */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const exited = once(worker, 'exit');
    worker.ref();
    worker.postMessage({ id: this.next++, task: 'close' } satisfies HelperRequest);
    await exited;
  }

  private ask<T>(request: HelperRequest): Promise<T> {
    const worker = (this.worker ??= this.start());
    const reply = new Promise<T>((resolve, reject) => this.pending.set(request.id, { resolve: resolve as (r: unknown) => void, reject }));
    worker.ref();
    worker.postMessage(request);
    return reply;
  }

  /** The FBX's Shapes and the sparse shapes the helper found for the targets of shapes request `id`, kept for the files written here. */
  private useEncoded(id: number, shapes: EncodedShapes, sparse: SparseShapes): void {
    const morphs = this.awaitingEncoding.get(id);
    this.awaitingEncoding.delete(id);
    for (const [mesh, targets] of Object.entries(morphs ?? {})) {
      if (shapes[mesh]?.length === targets!.length) useShapesEncodedElsewhere(targets!, shapes[mesh]);
      if (sparse[mesh]?.length === targets!.length) useSparseShapesFoundElsewhere(targets!, sparse[mesh]);
    }
  }

  private start(): Worker {
    const worker = tsWorker(new URL('./helper-thread-entry.ts', import.meta.url));
    worker.unref();
    worker.on('message', (reply: HelperReply) => {
      if ('encoded' in reply) return this.useEncoded(reply.encoded, reply.shapes, reply.sparse);
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      // A thread being closed holds the process until it has ended (close).
      if (this.pending.size === 0 && this.worker === worker) worker.unref();
      if ('error' in reply) waiting?.reject(new Error(`pipeline helper thread: ${reply.error}`));
      else waiting?.resolve(reply.result);
    });
    const fail = (e: Error) => {
      if (this.worker === worker) this.worker = undefined;
      this.awaitingEncoding.clear();
      for (const waiting of this.pending.values()) waiting.reject(e);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`pipeline helper thread exited (${code})`)));
    return worker;
  }
}
