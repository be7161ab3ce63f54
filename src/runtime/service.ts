import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { buildApp } from '../api/app.ts';
import type { Config } from '../config.ts';
import { Accounts } from '../domain/accounts.ts';
import { Avatars } from '../domain/avatars.ts';
import { listCodes } from '../domain/list-codes.ts';
import { Portal } from '../domain/portal.ts';
import { SAMPLES_ACCOUNT } from '../domain/ports.ts';
import { Speech, type Synthesizer } from '../domain/speech.ts';
import { createMetrics } from '../ops/metrics.ts';
import { registerOps } from '../ops/routes.ts';
import { sweepTemporaryFiles } from '../store/files/local-files.ts';
import { ensureDemoAccount, ensureSamples } from './bootstrap.ts';
import { sweepOldSpeech, sweepOrphanAvatars } from './cleanup.ts';
import { loadKeys } from './keys.ts';
import { lockDataDir } from './lock.ts';
import { openStore } from './open-store.ts';
import { startWorkers } from './workers.ts';

/** No write of the file store takes this long, so an older temporary file belongs to a process that died. */
const TEMPORARY_FILE_MAX_AGE_MS = 3_600_000;

export interface ServiceOptions {
  config: Config;
  logger: FastifyBaseLogger | false;
  synthesizer: Synthesizer;
}

/**
 * Composes the service: store, domain, HTTP and job workers. Embedded (no DATABASE_URL) it owns one
 * data directory; over PostgreSQL it is one of many API and worker processes (ROLE).
 */
export async function startService({ config, logger, synthesizer }: ServiceOptions) {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const embedded = !config.databaseUrl;
  if (embedded && config.role !== 'all') throw new Error(`ROLE=${config.role} needs DATABASE_URL: the embedded database belongs to one process`);
  const unlock = embedded ? lockDataDir(config.dataDir) : () => undefined;
  const keys = loadKeys(config.dataDir);
  const store = await openStore(config, keys);
  if (embedded) {
    // This process holds the data directory alone, so nothing is mid-write and no job has a live worker.
    // Over PostgreSQL other workers may be alive: a dead one's job comes back when its lease runs out.
    if (store.filesRoot) {
      await sweepTemporaryFiles(store.filesRoot);
      await sweepOrphanAvatars(store.files, store.repo.avatars);
    }
    await store.repo.jobs.releaseAllJobs();
  }
  const serveApi = config.role !== 'worker';
  const runJobs = config.role !== 'api';

  const accounts = new Accounts(store.repo.accounts);
  const avatars = new Avatars(store.repo.avatars, store.files, accounts, listCodes(keys.lists), {
    prices: config.prices,
    linkTtl: config.linkTtl,
    pageSize: config.listPageSize,
    updateTtl: 3,
    instance: `${os.hostname()}:${process.pid}`,
    minFreeBytes: config.minFreeBytes,
  });
  const speech = new Speech(accounts, store.files, synthesizer, config.linkTtl);
  const portal = new Portal(store.repo, accounts);
  // Over PostgreSQL accounts are made with the admin command, not raced for by several processes.
  const demo = embedded ? await ensureDemoAccount(store.repo.accounts, accounts, portal, config.dataDir) : undefined;
  if (config.createSamples && serveApi) {
    await ensureSamples(store.repo.accounts, avatars).catch(async (e) => {
      if (!(await store.repo.accounts.getAccount(SAMPLES_ACCOUNT))) throw e; // else another process made them at the same moment
    });
  }

  const app = serveApi
    ? await buildApp(
        {
          admission: store.repo, accounts, avatars, speech, portal, files: store.files, linkSigner: store.linkSigner,
          publicUrl: process.env.PUBLIC_URL, rateLimit: config.rateLimit, maxUploadBytes: config.maxUploadBytes, maxVertexBytes: config.maxVertexBytes,
        },
        logger,
      )
    : Fastify(logger ? { loggerInstance: logger } : { logger: false }); // a worker answers only the operations endpoints
  const metrics = createMetrics(() => store.repo.jobs.queueDepth());
  registerOps(app, { metrics, check: store.check });
  const workers = startWorkers(
    { ...config, workers: runJobs ? config.workers : 0 },
    keys,
    (e) => app.log.error({ err: e }, 'job worker thread failed'),
    metrics.job,
  );
  if (runJobs) {
    app.addHook('onResponse', (request, _reply, done) => {
      if (request.method === 'POST' || request.url.includes('/execute/')) workers.poke();
      done();
    });
  }
  const nonceSweep = setInterval(() => {
    store.repo.admissions.forgetNoncesBefore(Date.now() - config.nonceWindow * 1000).catch((e) => app.log.error({ err: e }, 'nonce sweep failed'));
    sweepOldSpeech(store.files, 2 * config.linkTtl * 1000).catch((e) => app.log.error({ err: e }, 'speech sweep failed'));
    // A shared files directory: what a crashed process was writing is swept once no write could still be using it.
    if (store.filesRoot && !embedded) sweepTemporaryFiles(store.filesRoot, TEMPORARY_FILE_MAX_AGE_MS).catch((e) => app.log.error({ err: e }, 'temporary file sweep failed'));
  }, 60_000);
  nonceSweep.unref();

  return {
    app,
    accounts,
    repo: store.repo,
    dataDir: path.resolve(config.dataDir),
    /** The demo account, when this start made it. */
    demo,
    /** Graceful: answers the requests in flight, then lets each worker finish (or hand back) its job. */
    async stop() {
      clearInterval(nonceSweep);
      await app.close();
      await workers.stop();
      await store.close();
      unlock();
    },
  };
}
