import fs from 'node:fs';
import { createPipeline } from '../src/pipeline/index.ts';
import { TestClient, tempDir } from '../tools/harness/service.ts';
import { runCli, sharedKeys, startProcess, type ServiceProcess } from '../tools/harness/cluster.ts';
import { freshDatabase } from '../tools/harness/postgres.ts';
import type { Figure } from './figure.ts';

/** Avatars per measured round; each round starts after every worker has made one avatar (warm). */
const AVATARS = Number(process.env.BENCH_SCALE_AVATARS ?? 6);
const photo = new Uint8Array(fs.readFileSync(new URL('../test/fixtures/faces/p01-a.jpg', import.meta.url)));

/** Makes n avatars at once; returns who made them (`created_by`) and the rate in avatars per minute. */
async function round(client: TestClient, n: number): Promise<{ perMin: number; makers: string[] }> {
  const started = performance.now();
  const keys = await Promise.all(Array.from({ length: n }, async () => (await client.upload('/v2/avatar/new/photo/maya/2.0', photo)).body.key as string));
  const makers: string[] = [];
  for (const key of keys) {
    const st = await client.waitFor(key, 600_000);
    if (st.status !== 'done') throw new Error(`avatar ${key} ended in ${st.status} ${st.error_code}`);
    makers.push(String(st.created_by));
  }
  return { perMin: (n / (performance.now() - started)) * 60_000, makers };
}

/** CPU seconds a process has used so far (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** CPU seconds the whole machine has been busy (every core, every process), from /proc/stat. */
function machineBusySeconds(): number {
  const [user, nice, system, , , irq, softirq, steal] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) / 100;
}

/**
 * A round with the cores its workers kept busy: one worker above 1 core means the pipeline runs
 * threads of its own; two workers well under 2 cores means they waited (on each other or on a busy machine).
 */
async function measured(client: TestClient, workers: ServiceProcess[]) {
  const cpu = () => workers.reduce((s, w) => s + cpuSeconds(w.child.pid!), 0);
  const cpuBefore = cpu();
  const busyBefore = machineBusySeconds();
  const wallBefore = performance.now();
  const { perMin } = await round(client, AVATARS);
  const seconds = (performance.now() - wallBefore) / 1000;
  const workerCpu = cpu() - cpuBefore;
  // Everything else the machine ran meanwhile (this API process, PostgreSQL, and whatever else shares the machine).
  return { perMin, cores: workerCpu / seconds, otherCores: (machineBusySeconds() - busyBefore - workerCpu) / seconds };
}

/** A new worker process loads the pipeline on its first avatar: keep the queue fed until it has made one. */
async function warm(client: TestClient, worker: ServiceProcess) {
  for (let tries = 0; tries < 20; tries++) {
    const { makers } = await round(client, 2);
    if (makers.some((m) => m.includes(`:${worker.child.pid}:`))) return;
  }
  throw new Error(`worker process ${worker.child.pid} took no job: ${worker.output().slice(-2000)}`);
}

/**
 * Avatars per minute made by the real pipeline through the scaled-out service (one API process over
 * PostgreSQL, files in one shared directory) with one worker process and then two, beside the
 * pipeline called directly in this process. On 2 cores a ratio near 2 means nothing serialises the
 * workers (the database, the queue, the file store).
 */
export default async function (): Promise<Figure[]> {
  const pipeline = await createPipeline();
  await pipeline.run({ inputType: 'photo', file: photo, template: '2.0', features: ['basic'] }, () => undefined);
  const directStart = performance.now();
  for (let i = 0; i < AVATARS; i++) await pipeline.run({ inputType: 'photo', file: photo, template: '2.0', features: ['basic'] }, () => undefined);
  const direct = (AVATARS / (performance.now() - directStart)) * 60_000;

  const db = await freshDatabase('avatar_bench');
  const env = { DATABASE_URL: db.url, DATA_DIR: tempDir('avatar-bench-scale-'), ...sharedKeys(), SAMPLES: '0', LOG_LEVEL: 'warn', RATE_LIMIT: '0', WORKERS: '1' };
  const procs: ServiceProcess[] = [];
  try {
    const account = JSON.parse(await runCli('admin', ['create-account', '--name', 'bench', '--points', '100000', '--json'], env)) as { key: string; secret: string };
    const api = await startProcess({ ...env, ROLE: 'api' });
    procs.push(api);
    const client = new TestClient(api.url, account.key, account.secret);

    const first = await startProcess({ ...env, ROLE: 'worker' });
    procs.push(first);
    await warm(client, first);
    const one = await measured(client, [first]);

    const second = await startProcess({ ...env, ROLE: 'worker' });
    procs.push(second);
    await warm(client, second);
    const two = await measured(client, [first, second]);

    const perMin = (v: number) => Math.round(v * 10) / 10;
    return [
      { key: 'pipeline_direct_per_min', value: perMin(direct), unit: 'avatars/min' },
      { key: 'scale_one_worker_per_min', value: perMin(one.perMin), unit: 'avatars/min', baseline: 'pipeline_direct_per_min' },
      { key: 'scale_two_workers_per_min', value: perMin(two.perMin), unit: 'avatars/min', baseline: 'scale_one_worker_per_min', goal: 'ratio near 2 on 2 cores' },
      { key: 'scale_two_to_one_ratio', value: Math.round((two.perMin / one.perMin) * 100) / 100, unit: '', goal: 'near 2' },
      { key: 'scale_one_worker_cores', value: Math.round(one.cores * 100) / 100, unit: 'cores' },
      { key: 'scale_two_workers_cores', value: Math.round(two.cores * 100) / 100, unit: 'cores' },
      { key: 'scale_other_cores_during_one', value: Math.round(one.otherCores * 100) / 100, unit: 'cores' },
      { key: 'scale_other_cores_during_two', value: Math.round(two.otherCores * 100) / 100, unit: 'cores' },
    ];
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await db.drop();
  }
}
