import fs from 'node:fs/promises';
import { inputPath, modelPath, packagePath, previewPath, resultInputPath, resultPath, avatarDir } from '../domain/layout.ts';
import type { AvatarStore, FileBytes, Files, Job } from '../domain/ports.ts';
import { buildBlendshapeZip, startPackages } from '../formats/write/packages.ts';
import { parseVertexFile } from '../formats/read/vertex-file.ts';
import { writeVertexFile } from '../formats/write/vertex-file.ts';
import { createDeformer } from '../geometry/deform/index.ts';
import { decodeDocument, encodeDocument } from '../model/codec.ts';
import type { AvatarModel } from '../model/avatar.ts';
import type { TemplateVersion } from '../model/product.ts';
import { PipelineCodes, PipelineError } from '../pipeline/errors.ts';
import type { Pipeline, PipelineResult } from '../pipeline/types.ts';

/** What a finished avatar keeps for its on-demand features. */
interface Stored {
  model: AvatarModel;
  deformation?: PipelineResult['deformation'];
}

export interface JobContext {
  avatars: Pick<AvatarStore, 'getAvatar' | 'getResult' | 'setAvatarProgress' | 'setMeta' | 'setResultProgress'>;
  files: Pick<Files, 'deletePrefix' | 'freeBytes' | 'get' | 'put'>;
  pipeline: Pipeline;
  worker: string;
  /** Free bytes the outputs of a job must leave on the file store (half the uploads' headroom). */
  minFreeBytes: number;
  log: { info(obj: object, msg: string): void };
}

/** Writes a job's files only if they all fit with the headroom left, so that a full disk fails one job cleanly. */
async function writeAll(c: JobContext, outputs: [string, Uint8Array][]) {
  const files = new JobFiles(c);
  for (const [path, data] of outputs) files.put(path, data);
  await files.settled();
}

/**
 * A job's files, each put as soon as it is made, so that the store's syncs overlap the making of the next. Each
 * must fit, with the files before it and the headroom, in the free bytes measured once before the first: the
 * files fit one by one exactly when they fit all at once. A file that does not fit is not put, nor any after it,
 * and those already put are removed, so that a full disk fails one job cleanly, with nothing of it left.
 */
class JobFiles {
  private readonly free: Promise<number | undefined>;
  private planned = 0;
  private refused = false;
  private readonly done: string[] = [];
  private readonly writes: Promise<void>[] = [];

  constructor(private readonly c: JobContext) {
    this.free = c.files.freeBytes ? c.files.freeBytes() : Promise.resolve(undefined);
    this.free.catch(() => undefined); // awaited by every put; this only keeps an early failure from counting as unhandled
  }

  /** Puts `data` (or what it settles to) at `path`; a failure is reported by `settled`. */
  put(path: string, data: FileBytes | Promise<FileBytes>): void {
    const write = (async () => {
      const bytes = await data;
      const free = await this.free;
      if (this.refused) return;
      this.planned += bytes instanceof Uint8Array ? bytes.length : bytes.reduce((sum, part) => sum + part.length, 0);
      if (free !== undefined && free < this.planned + this.c.minFreeBytes) {
        this.refused = true;
        return;
      }
      await this.c.files.put(path, bytes);
      this.done.push(path);
    })();
    write.catch(() => undefined); // reported by settled
    this.writes.push(write);
  }

  /**
   * Resolves once every file is put; otherwise rejects, only when every put has settled (none is still being
   * written while the job is failed or retried), with the first failure, or the refusal of a file that did not fit.
   */
  async settled(): Promise<void> {
    const results = await Promise.allSettled(this.writes);
    if (this.refused) await Promise.all(this.done.map((path) => this.c.files.deletePrefix(path)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    if (this.refused) throw new PipelineError(PipelineCodes.storageFull, `no room for ${this.planned} bytes of results on the service storage`);
  }
}

const neutralObj = new Map<string, Promise<Uint8Array>>();
function templateNeutral(version: TemplateVersion) {
  let p = neutralObj.get(version);
  if (!p) {
    p = fs.readFile(new URL(`../../assets/templates/${version}/neutral.obj`, import.meta.url)).then((b) => new Uint8Array(b));
    neutralObj.set(version, p);
  }
  return p;
}

/** Percent of an avatar job spent in the pipeline; the rest is writing packages. */
const PIPELINE_SHARE = 90;

async function avatarJob(job: Job, c: JobContext) {
  const key = job.avatarKey;
  const avatar = await c.avatars.getAvatar(key);
  // Deleted, or finished by a worker that died before it could let go of the job.
  if (!avatar || avatar.status === 'done' || avatar.status === 'error') return;
  await c.avatars.setAvatarProgress(key, { status: 'processing', percent: 1, createdBy: c.worker }, Date.now());
  const input = await c.files.get(inputPath(key));
  if (!input) throw new PipelineError(PipelineCodes.internal, 'the uploaded input is missing');

  let lastWrite = 0;
  let lastPercent = 1;
  const result = await c.pipeline.run(
    { inputType: avatar.inputType, file: input, template: avatar.template, features: avatar.features, platforms: avatar.platforms },
    (percent) => {
      const p = Math.max(lastPercent, Math.min(PIPELINE_SHARE, Math.round((percent * PIPELINE_SHARE) / 100)));
      if (p === lastPercent || Date.now() - lastWrite < 100) return;
      lastPercent = p;
      lastWrite = Date.now();
      c.avatars.setAvatarProgress(key, { percent: p }, lastWrite).catch(() => undefined);
    },
  );

  const neutral = await templateNeutral(avatar.template);
  // Each file is put as soon as it is made, its write and sync on libuv's pool while this thread makes the next:
  // the previews, then each package when zipped, and the model document. A throw while any is made (as a
  // rejection) is reported only once the others have settled.
  const files = new JobFiles(c);
  files.put(previewPath(key, 'jpg'), result.preview.jpg);
  files.put(previewPath(key, 'png'), result.preview.png);
  const packages = (async () => startPackages(result.model, avatar.platforms, { templateNeutralObj: neutral, views: result.views, modelFiles: result.modelFiles, modelFileClaims: result.modelFileClaims }))();
  for (const platform of avatar.platforms) files.put(packagePath(key, platform), packages.then((zips) => zips.get(platform)!));
  // The model document in a later turn: the packages' own work on this thread (the GLB, the Unity JSON) is done in
  // the turn that starts them, which then waits on other threads (the Unity JSON's deflate on the pool, the helper's
  // FBX); the document (60 ms) is encoded in that wait instead of before the packages, which no longer wait for it.
  files.put(modelPath(key), new Promise((resolve) => setImmediate(resolve)).then(() => encodeDocument({ model: result.model, deformation: result.deformation } satisfies Stored)));
  try {
    await files.settled();
  } finally {
    // Every file is made or has failed: nothing reads the model any more.
    result.release?.();
  }
  if (!(await c.avatars.getAvatar(key))) {
    await c.files.deletePrefix(avatarDir(key)); // deleted while it was being made
    return;
  }
  await c.avatars.setMeta(key, Object.entries(result.meta).map(([name, value]) => ({ name, value, defined: 'pipeline' })), Date.now());
  await c.avatars.setAvatarProgress(key, { status: 'done', percent: 100 }, Date.now());
}

async function resultJob(job: Job, c: JobContext) {
  const child = job.childKey!;
  const result = await c.avatars.getResult(job.avatarKey, child);
  if (!result || result.status === 'done' || result.status === 'error') return;
  await c.avatars.setResultProgress(job.avatarKey, child, { status: 'processing', percent: 10 }, Date.now());
  const stored = await c.files.get(modelPath(job.avatarKey));
  if (!stored) throw new PipelineError(PipelineCodes.internal, 'the avatar model is missing');
  const doc = decodeDocument<Stored>(stored);
  let output: Uint8Array;
  if (result.kind === 'blendshapes') {
    output = buildBlendshapeZip(doc.model);
  } else {
    if (!doc.deformation) throw new PipelineError(PipelineCodes.internal, 'the avatar has no deformation data');
    const body = await c.files.get(resultInputPath(job.avatarKey, child));
    if (!body) throw new PipelineError(PipelineCodes.internal, 'the vertex file is missing');
    output = writeVertexFile(createDeformer(doc.deformation).deform(parseVertexFile(body)));
  }
  await writeAll(c, [[resultPath(job.avatarKey, child, result.kind), output]]);
  await c.avatars.setResultProgress(job.avatarKey, child, { status: 'done', percent: 100 }, Date.now());
}

/** Runs one job; a PipelineError ends it in `error` (refunding an avatar), anything else is thrown for a retry. */
export async function handleJob(job: Job, c: JobContext) {
  try {
    await (job.kind === 'avatar' ? avatarJob(job, c) : resultJob(job, c));
  } catch (e) {
    if (!(e instanceof PipelineError)) throw e;
    // The client's msg says what the code means; the particulars of this input are kept here.
    c.log.info({ job: job.id, avatar: job.avatarKey, child: job.childKey, code: e.code, reason: e.message }, 'job refused by the pipeline');
    await failJob(job, c, e.code);
  }
}

/** Ends a job in `error` with a 100xx code; an avatar's points are given back. */
export async function failJob(job: Job, c: Pick<JobContext, 'avatars'>, code: number = PipelineCodes.internal) {
  if (job.kind === 'avatar') await c.avatars.setAvatarProgress(job.avatarKey, { status: 'error', errorCode: code }, Date.now(), true);
  else await c.avatars.setResultProgress(job.avatarKey, job.childKey!, { status: 'error', errorCode: code }, Date.now());
}
