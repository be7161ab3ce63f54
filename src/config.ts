import path from 'node:path';

/** Everything the service reads from its environment, parsed once. Defaults are documented in docs/DEPLOY.md. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Lifetime of download, preview and speech links, seconds. */
  linkTtl: number;
  /** Seconds a nonce is remembered; a replay within this window is refused. */
  nonceWindow: number;
  /** Largest upload (photo or archive) in bytes. */
  maxUploadBytes: number;
  /** Largest vertex file in bytes. */
  maxVertexBytes: number;
  listPageSize: number;
  /** Points per avatar, by input type. */
  prices: Record<string, number>;
  /** Job worker threads in this process (0: API only). */
  workers: number;
  /** Module that exports `createPipeline()`; replaced only by the service tests. */
  pipelineModule: string;
  /** Seconds a worker holds a job before another may take it over. */
  jobLease: number;
  /** Requests per second allowed per application key (burst = 2x). */
  rateLimit: number;
  createSamples: boolean;
  /** pino level of the service and its worker threads. */
  logLevel: string;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

export const defaultPrices: Record<string, number> = { photo: 10, lofimesh_texture: 20, hifimesh_texture_photo: 30 };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const prices = { ...defaultPrices, ...(env.PRICES ? (JSON.parse(env.PRICES) as Record<string, number>) : {}) };
  return {
    port: int(env, 'PORT', 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    linkTtl: int(env, 'LINK_TTL', 300),
    nonceWindow: int(env, 'NONCE_WINDOW', 86400),
    maxUploadBytes: int(env, 'MAX_UPLOAD_BYTES', 64 * 1024 * 1024),
    maxVertexBytes: int(env, 'MAX_VERTEX_BYTES', 48 * 1024 * 1024),
    listPageSize: int(env, 'LIST_PAGE_SIZE', 20),
    prices,
    workers: int(env, 'WORKERS', 1),
    pipelineModule: env.PIPELINE_MODULE ?? new URL('./pipeline/photo-pipeline.ts', import.meta.url).href,
    jobLease: int(env, 'JOB_LEASE', 30),
    rateLimit: int(env, 'RATE_LIMIT', 50),
    createSamples: (env.SAMPLES ?? '1') !== '0',
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}
