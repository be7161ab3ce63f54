import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from '../api/app.ts';
import type { Config } from '../config.ts';
import { Accounts } from '../domain/accounts.ts';
import { Avatars } from '../domain/avatars.ts';
import { listCodes } from '../domain/list-codes.ts';
import { Speech, type Synthesizer } from '../domain/speech.ts';
import { sweepTemporaryFiles } from '../store/files/local-files.ts';
import { ensureDemoAccount, ensureSamples } from './bootstrap.ts';
import { loadKeys } from './keys.ts';
import { lockDataDir } from './lock.ts';
import { openStore } from './open-store.ts';
import { startWorkers } from './workers.ts';

export interface ServiceOptions {
  config: Config;
  logger: FastifyBaseLogger | false;
  synthesizer: Synthesizer;
  print?: (line: string) => void;
}

/** Composes the embedded service: store, domain, HTTP and job workers over one data directory. */
export async function startService({ config, logger, synthesizer, print = console.log }: ServiceOptions) {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const unlock = lockDataDir(config.dataDir);
  const keys = loadKeys(config.dataDir);
  const store = await openStore(config, keys);
  // This process holds the data directory alone, so nothing is mid-write and no job has a live worker.
  await sweepTemporaryFiles(store.filesRoot);
  await store.repo.releaseAllJobs();

  const accounts = new Accounts(store.repo);
  const avatars = new Avatars(store.repo, store.files, accounts, listCodes(keys.lists), {
    prices: config.prices,
    linkTtl: config.linkTtl,
    pageSize: config.listPageSize,
    updateTtl: 3,
    instance: `${os.hostname()}:${process.pid}`,
  });
  const speech = new Speech(accounts, store.files, synthesizer, config.linkTtl);
  await ensureDemoAccount(store.repo, accounts, config.dataDir, print);
  if (config.createSamples) await ensureSamples(store.repo, avatars);

  const app = await buildApp(
    {
      repo: store.repo, accounts, avatars, speech, files: store.files, linkSigner: store.linkSigner,
      publicUrl: process.env.PUBLIC_URL, maxUploadBytes: config.maxUploadBytes, maxVertexBytes: config.maxVertexBytes,
    },
    logger,
  );
  const workers = startWorkers(config, keys, (e) => app.log.error({ err: e }, 'job worker thread failed'));
  app.addHook('onResponse', async (request) => {
    if (request.method === 'POST' || request.url.includes('/execute/')) workers.poke();
  });
  const nonceSweep = setInterval(() => {
    store.repo.forgetNoncesBefore(Date.now() - config.nonceWindow * 1000).catch((e) => app.log.error({ err: e }, 'nonce sweep failed'));
  }, 60_000);
  nonceSweep.unref();

  return {
    app,
    accounts,
    repo: store.repo,
    dataDir: path.resolve(config.dataDir),
    async stop() {
      clearInterval(nonceSweep);
      await app.close();
      await workers.stop();
      await store.repo.close();
      unlock();
    },
  };
}
