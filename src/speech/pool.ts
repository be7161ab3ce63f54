import { Worker } from 'node:worker_threads';

interface Task<Job, Result> {
  job: Job;
  attempts: number;
  resolve(result: Result): void;
  reject(error: Error): void;
}

interface Slot<Job, Result> {
  worker: Worker;
  task?: Task<Job, Result>;
  taskId: number;
}

/** Error of a job whose worker failed twice (the first failure is retried on a fresh worker). */
export class WorkerCrashError extends Error {}

/**
 * A fixed number of worker threads running jobs one at a time each. A worker that reports an error, throws or
 * exits is replaced by a fresh one and its job is retried once; a second failure rejects the job.
 * Workers receive `{ id, job }` and answer `{ id, result }` or `{ id, error }`.
 */
export class WorkerPool<Job, Result> {
  private readonly slots: Slot<Job, Result>[] = [];
  private readonly queue: Task<Job, Result>[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers started so far, replacements included. */
  started = 0;

  constructor(
    private readonly entry: URL,
    private readonly size: number,
  ) {}

  run(job: Job): Promise<Result> {
    if (this.closed) return Promise.reject(new Error('worker pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ job, attempts: 0, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error('worker pool is closed'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.task);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const task = this.queue.shift()!;
      slot.task = task;
      slot.taskId = this.nextId++;
      task.attempts++;
      // Busy workers keep the process alive; idle ones do not.
      slot.worker.ref();
      slot.worker.postMessage({ id: slot.taskId, job: task.job });
    }
  }

  private spawn(): Slot<Job, Result> {
    // Loader hooks of the parent (tsx) do not reach worker threads on Node 20: the worker registers tsx itself.
    const worker = new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(this.entry.href)}); });`, {
      eval: true,
    });
    this.started++;
    const slot: Slot<Job, Result> = { worker, taskId: 0 };
    this.slots.push(slot);
    worker.on('message', (message: { id: number; result?: Result; error?: string }) => {
      if (message.id !== slot.taskId || !slot.task) return;
      const task = slot.task;
      if (message.error === undefined) {
        slot.task = undefined;
        slot.worker.unref();
        task.resolve(message.result as Result);
        this.dispatch();
      } else this.fail(slot, new Error(message.error));
    });
    worker.on('error', (error) => this.fail(slot, error));
    worker.on('exit', (code) => this.fail(slot, new Error(`worker exited with code ${code}`)));
    worker.unref();
    return slot;
  }

  /** Replaces a failed worker and retries its job once. */
  private fail(slot: Slot<Job, Result>, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => {});
    void slot.worker.terminate();
    const task = slot.task;
    if (task) {
      if (task.attempts < 2 && !this.closed) this.queue.unshift(task);
      else task.reject(new WorkerCrashError(`speech synthesis failed twice: ${error.message}`));
    }
    this.dispatch();
  }
}
