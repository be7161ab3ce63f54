// Runs N jobs of sample-1 through createPipeline + handleJob, printing "JOBMARK i" to stdout before each job, so
// that V8's --trace-opt / --trace-deopt lines (also on stdout) can be counted per job.
// Usage: node --trace-opt --import tsx bench/jit-trace.mts [N=6] > /tmp/trace.txt ; node bench/jit-count.mjs /tmp/trace.txt
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { createPipeline } from '../src/pipeline/index.ts';
import { handleJob } from '../src/jobs/handlers.ts';
import { openStore } from '../src/runtime/open-store.ts';
import { inputPath } from '../src/domain/layout.ts';
import { PLATFORMS } from '../src/model/product.ts';

const jobs = Number(process.argv[2] ?? 6);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'jit-'));
const store = await openStore({ dataDir, s3: undefined, databaseUrl: undefined, databasePool: 1 }, {
  master: randomBytes(32), links: randomBytes(32), lists: randomBytes(32),
});
await store.repo.accounts.createAccount({ id: 'h', name: 'h', tierCode: 'h', tierLabel: 'h', features: [], createdAt: Date.now() });
const pipeline = await createPipeline();
const photo = new Uint8Array(readFileSync('assets/samples/sample-1.jpg'));
for (let i = 1; i <= jobs; i++) {
  process.stdout.write(`JOBMARK ${i}\n`);
  const key = `h-${i}`;
  const now = Date.now();
  await store.repo.avatars.createAvatar({
    avatar: {
      key, accountId: 'h', isPublic: false, isSample: false, errorCode: 0, template: '2.0', features: ['basic', 'expressions', 'visemes'],
      platforms: [...PLATFORMS], inputType: 'photo', createdBy: '', percent: 0, status: 'pending', createdAt: now, updatedAt: now, charged: 0,
    },
    price: 0,
  }, now);
  await store.files.put(inputPath(key), photo);
  const job = await store.repo.jobs.claimJob('h', Date.now(), 600_000);
  if (!job) throw new Error('jit-trace: no job to claim');
  await handleJob(job, { avatars: store.repo.avatars, files: store.files, pipeline, worker: 'h', minFreeBytes: 0, log: { info: () => undefined } });
  await store.repo.jobs.finishJob(job.id);
}
process.stdout.write(`JOBMARK end\n`);
await store.close();
rmSync(dataDir, { recursive: true, force: true });
