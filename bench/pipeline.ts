/**
 * Photo to `done`: the avatar job handler's whole run (src/jobs/handlers.ts: the pipeline, the model document, the
 * template's neutral OBJ, the packages for maya, webviewer and unity, their synced writes to a local file store, the
 * meta and the status in SQLite), template 2.0 and all features, median of several runs, beside the landmark model's
 * own inference time in the same runs (the floor). Inside it: photo to result (the pipeline alone) with its stages,
 * and what follows it (packages and writes). Measured in a child process that only does this, so that other benches
 * do not count in its peak RSS.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import type { Figure } from './figure.ts';

const PHOTO = new URL('../assets/samples/sample-1.jpg', import.meta.url);
const RUNS = 7;

/**
 * CPU time of the main thread alone (ms, Linux; NaN elsewhere): the work that does not overlap with the
 * helper thread's and sharp's, a floor under the wall time that load on the machine hardly moves. 10 ms ticks.
 */
function mainThreadCpu(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const round = (x: number) => Math.round(x * 10) / 10;

async function measure(): Promise<Record<string, number>> {
  const { createPipeline } = await import('../src/pipeline/index.ts');
  const { handleJob } = await import('../src/jobs/handlers.ts');
  const { openStore } = await import('../src/runtime/open-store.ts');
  const { inputPath, packagePath } = await import('../src/domain/layout.ts');
  const { PLATFORMS } = await import('../src/model/product.ts');
  const crypto = await import('node:crypto');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pipeline-'));
  const store = await openStore({ dataDir, s3: undefined, databaseUrl: undefined, databasePool: 1 }, {
    master: crypto.randomBytes(32), links: crypto.randomBytes(32), lists: crypto.randomBytes(32),
  });
  const accountId = 'bench';
  await store.repo.accounts.createAccount({ id: accountId, name: 'bench', tierCode: 'bench', tierLabel: 'bench', features: [], createdAt: Date.now() });
  const photo = new Uint8Array(readFileSync(PHOTO));
  // The worker's own pipeline; the result of its last run is kept for its stage times.
  const service = await createPipeline();
  let last: { timings: Record<string, number>; cpuTimings: Record<string, number> } | undefined;
  let resultAt = 0;
  const pipeline: typeof service = {
    run: async (input, progress) => {
      const r = await service.run(input, progress);
      resultAt = performance.now();
      last = r as unknown as typeof last;
      return r;
    },
  };
  const log = { info: () => undefined };
  const done: number[] = [];
  const result: number[] = [];
  const after: number[] = [];
  const cpu: number[] = [];
  const mainCpu: number[] = [];
  const detection: number[] = [];
  const segmentation: number[] = [];
  let packageBytes = 0;
  const stages: Record<string, number[]> = {};
  // One warm-up run (JIT, first allocation of the atlas buffers), then the measured runs.
  for (let i = 0; i <= RUNS; i++) {
    const key = `bench-${i}`;
    const now = Date.now();
    await store.repo.avatars.createAvatar({
      avatar: {
        key, accountId, isPublic: false, isSample: false, errorCode: 0, template: '2.0', features: ['basic', 'expressions', 'visemes'],
        platforms: [...PLATFORMS], inputType: 'photo', createdBy: '', percent: 0, status: 'pending', createdAt: now, updatedAt: now, charged: 0,
      },
      price: 0,
    }, now);
    await store.files.put(inputPath(key), photo);
    const job = await store.repo.jobs.claimJob('bench', Date.now(), 60_000);
    if (!job || job.avatarKey !== key) throw new Error('the bench avatar\'s job was not claimed');
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const m0 = mainThreadCpu();
    await handleJob(job, { avatars: store.repo.avatars, files: store.files, pipeline, worker: 'bench', minFreeBytes: 0, log });
    const t1 = performance.now();
    const used = process.cpuUsage(c0);
    const m1 = mainThreadCpu();
    await store.repo.jobs.finishJob(job.id);
    const avatar = await store.repo.avatars.getAvatar(key);
    if (avatar?.status !== 'done') throw new Error(`the bench avatar ended ${avatar?.status} (${avatar?.errorCode})`);
    packageBytes = 0;
    for (const p of PLATFORMS) packageBytes += (await store.files.get(packagePath(key, p)))!.length;
    if (i === 0) continue;
    done.push(t1 - t0);
    result.push(resultAt - t0);
    after.push(t1 - resultAt);
    cpu.push((used.user + used.system) / 1000);
    mainCpu.push(m1 - m0);
    detection.push(last!.timings.detection);
    segmentation.push(last!.timings.segmentation);
    for (const [k, v] of Object.entries(last!.timings)) (stages[k] ??= []).push(v);
    for (const [k, v] of Object.entries(last!.cpuTimings)) (stages[`${k}.cpu`] ??= []).push(v);
  }
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    done: median(done),
    result: median(result),
    after: median(after),
    cpu: median(cpu),
    mainCpu: median(mainCpu),
    loadAverage: os.loadavg()[0],
    detection: median(detection),
    segmentation: median(segmentation),
    ...Object.fromEntries(Object.entries(stages).map(([k, v]) => [`stage:${k}`, median(v)])),
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    packageMiB: packageBytes / 2 ** 20,
  };
}

if (process.env.PIPELINE_BENCH_CHILD) {
  process.stdout.write(JSON.stringify(await measure()));
}

export default async function (): Promise<Figure[]> {
  // The child runs with this process's node flags (--import tsx, and any V8 flag under trial).
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    env: { ...process.env, PIPELINE_BENCH_CHILD: '1' },
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) throw new Error(`pipeline bench child failed: ${child.stderr.slice(-2000)}`);
  const m = JSON.parse(child.stdout) as Record<string, number>;
  const figures: Figure[] = [
    { key: 'pipeline.photo-to-done.median', value: round(m.done), unit: 'ms', baseline: 'pipeline.landmark-inference.median', goal: '<= 1500 ms' },
    { key: 'pipeline.landmark-inference.median', value: round(m.detection), unit: 'ms' },
    // The person segmentation (hair observation) runs on the same backend, right after the landmark model.
    { key: 'pipeline.segmentation-inference.median', value: round(m.segmentation), unit: 'ms', baseline: 'pipeline.landmark-inference.median' },
    // CPU time of the process (all threads) per job: less sensitive than wall time to other load on the machine.
    { key: 'pipeline.photo-to-done.cpu.median', value: round(m.cpu), unit: 'ms', baseline: 'pipeline.landmark-inference.median' },
    { key: 'pipeline.photo-to-done.main-thread-cpu.median', value: round(m.mainCpu), unit: 'ms', baseline: 'pipeline.landmark-inference.median' },
    // The two parts of photo to done: the pipeline, then the model document, packages, writes, meta and status.
    { key: 'pipeline.photo-to-result.median', value: round(m.result), unit: 'ms', baseline: 'pipeline.landmark-inference.median' },
    { key: 'pipeline.result-to-done.median', value: round(m.after), unit: 'ms', baseline: 'pipeline.landmark-inference.median' },
    { key: 'pipeline.load-average-1min', value: round(m.loadAverage), unit: '' },
    // What a user downloads, the three packages.
    { key: 'pipeline.packages-3-platforms.size', value: round(m.packageMiB), unit: 'MiB' },
    { key: 'pipeline.peak-rss', value: Math.round(m.peakRssMiB), unit: 'MiB', goal: '<= 1024 MiB' },
  ];
  for (const [k, v] of Object.entries(m)) {
    if (k.startsWith('stage:')) figures.push({ key: `pipeline.${k.replace('stage:', 'stage.')}.median`, value: round(v), unit: 'ms', baseline: 'pipeline.landmark-inference.median' });
  }
  return figures;
}
