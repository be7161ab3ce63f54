import path from 'node:path';
import type { S3Settings } from './store/files/s3-files.ts';

export type Role = 'api' | 'worker' | 'all';

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
  /** Nice value (0-19) of the job worker threads, so that the HTTP API runs ahead of the pipeline (Linux). */
  workerNice: number;
  /** Module that exports `createPipeline()`; replaced only by the service tests. */
  pipelineModule: string;
  /** Seconds a worker holds a job before another may take it over. */
  jobLease: number;
  /** Requests per second allowed per application key, averaged over fixed 10 s windows (0: no limit). */
  rateLimit: number;
  createSamples: boolean;
  /** pino level of the service and its worker threads. */
  logLevel: string;
  /** `text`: the JSON log plus a few lines for a person at start-up (the portal's address, the demo sign-in); `json`: the JSON log only. */
  logFormat: 'text' | 'json';
  /** Free bytes an upload must leave on the embedded file store (over: 507 / 99998). */
  minFreeBytes: number;
  /** What this process runs: the HTTP API, job workers, or both (the default). */
  role: Role;
  /** `postgres://...`: metadata, jobs, nonces and points in PostgreSQL instead of DATA_DIR/service.db. */
  databaseUrl?: string;
  /** Connections in each PostgreSQL pool (one pool per process and per worker thread). */
  databasePool: number;
  /** Set: files in an S3-compatible bucket instead of DATA_DIR/files. */
  s3?: S3Settings;
  /** Seconds a stopping worker lets its current job run before handing it back to the queue. */
  shutdownGrace: number;
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
    workerNice: nice(env),
    pipelineModule: env.PIPELINE_MODULE ?? new URL('./pipeline/index.ts', import.meta.url).href,
    jobLease: int(env, 'JOB_LEASE', 30),
    rateLimit: int(env, 'RATE_LIMIT', 50),
    createSamples: (env.SAMPLES ?? '1') !== '0',
    logLevel: env.LOG_LEVEL ?? 'info',
    logFormat: logFormat(env.LOG_FORMAT),
    minFreeBytes: int(env, 'MIN_FREE_BYTES', 256 * 1024 * 1024),
    role: role(env.ROLE),
    databaseUrl: env.DATABASE_URL || undefined,
    databasePool: int(env, 'DATABASE_POOL', 10),
    s3: s3(env),
    shutdownGrace: int(env, 'SHUTDOWN_GRACE', 25),
  };
}

function logFormat(raw: string | undefined): 'text' | 'json' {
  const f = raw || 'text';
  if (f !== 'text' && f !== 'json') throw new Error(`LOG_FORMAT must be text or json, got "${raw}"`);
  return f;
}

function nice(env: NodeJS.ProcessEnv): number {
  const n = int(env, 'WORKER_NICE', 10);
  if (!Number.isInteger(n) || n > 19) throw new Error(`WORKER_NICE must be a whole number from 0 to 19, got "${env.WORKER_NICE}"`);
  return n;
}

function role(raw: string | undefined): Role {
  const r = raw || 'all';
  if (r !== 'api' && r !== 'worker' && r !== 'all') throw new Error(`ROLE must be api, worker or all, got "${raw}"`);
  return r;
}

function s3(env: NodeJS.ProcessEnv): S3Settings | undefined {
  if (!env.S3_BUCKET) return undefined;
  return {
    endpoint: env.S3_ENDPOINT || undefined,
    publicEndpoint: env.S3_PUBLIC_ENDPOINT || undefined,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: ['1', 'true', 'yes'].includes((env.S3_FORCE_PATH_STYLE ?? '').toLowerCase()),
  };
}
