import os from 'node:os';
import type { Config } from '../config.ts';
import { isJobEvent, type JobEvent } from '../ops/job-events.ts';
import { tsWorker } from '../util/ts-worker.ts';
import type { ServiceKeys } from './keys.ts';

/** Starts the job worker threads of this process; `stop` lets each finish its current job (or hand it back after SHUTDOWN_GRACE). */
export function startWorkers(config: Config, keys: ServiceKeys, onError: (e: unknown) => void, onEvent: (e: JobEvent) => void = () => undefined) {
  const b64 = (k: Buffer) => k.toString('base64');
  const workers = Array.from({ length: config.workers }, (_, i) => {
    const w = tsWorker(new URL('./worker-thread.ts', import.meta.url), {
      workerData: { config, keys: { master: b64(keys.master), links: b64(keys.links), lists: b64(keys.lists) }, worker: `${os.hostname()}:${process.pid}:w${i}` },
    });
    w.on('error', onError);
    w.on('message', (m) => isJobEvent(m) && onEvent(m));
    const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
    return { w, exited };
  });
  return {
    poke: () => workers.forEach(({ w }) => w.postMessage('poke')),
    async stop() {
      await Promise.all(
        workers.map(({ w, exited }) => {
          w.on('message', (m) => m === 'stopped' && void w.terminate());
          w.postMessage('stop');
          return exited;
        }),
      );
    },
  };
}
