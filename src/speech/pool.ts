import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

interface Task<Job, Result> {
  job: Job;
  attempts: number;
  resolve(result: Result): void;
  reject(error: Error): void;
}

interface Slot<Job, Result> {
  child: ChildProcess;
  task?: Task<Job, Result>;
  taskId: number;
  timer?: NodeJS.Timeout;
}

/** Error of a job whose worker failed twice (the first failure is retried on a fresh worker). */
export class WorkerCrashError extends Error {}

/**
 * Node flags of the worker processes: TypeScript through tsx (resolved here, so any working directory does), no warning for node:wasi, and no V8 fast API
 * calls, because Node 20 can run the garbage collector inside a fast WASI call and abort the process
 * when it destroys a WASI object there (seen with flite after a few dozen runs).
 */
const WORKER_FLAGS = ['--import', import.meta.resolve('tsx'), '--disable-warning=ExperimentalWarning', '--no-turbo-fast-api-calls'];

/**
 * A fixed number of worker processes running jobs one at a time each; a process, unlike a thread, can crash
 * (native abort, segfault in an engine) without taking the service down. A worker that reports an error or
 * exits is replaced by a fresh one and its job is retried once; a second failure rejects the job.
 * Workers receive `{ id, job }` and answer `{ id, result }` or `{ id, error }` over IPC.
 */
export class WorkerPool<Job, Result> {
  private readonly slots: Slot<Job, Result>[] = [];
  private readonly queue: Task<Job, Result>[] = [];
  private nextId = 1;
  private closed = false;
  /** Worker processes started so far, replacements included. */
  started = 0;

  /** `timeoutMs`: a job running longer counts as a worker failure (the worker is killed, the job retried once). */
  constructor(
    private readonly entry: URL,
    private readonly size: number,
    private readonly timeoutMs = 60_000,
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
    await Promise.all(this.slots.splice(0).map((slot) => stop(slot.child, !slot.task)));
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
      keepAlive(slot.child, true);
      const current = slot;
      slot.timer = setTimeout(() => this.fail(current, new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      slot.child.send({ id: slot.taskId, job: task.job });
    }
  }

  private spawn(): Slot<Job, Result> {
    const child = fork(fileURLToPath(this.entry), [], { execArgv: WORKER_FLAGS, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.started++;
    const slot: Slot<Job, Result> = { child, taskId: 0 };
    this.slots.push(slot);
    child.on('message', (message: { id: number; result?: Result; error?: string }) => {
      if (message.id !== slot.taskId || !slot.task) return;
      const task = slot.task;
      clearTimeout(slot.timer);
      if (message.error === undefined) {
        slot.task = undefined;
        keepAlive(child, false);
        task.resolve(message.result as Result);
        this.dispatch();
      } else this.fail(slot, new Error(message.error));
    });
    child.on('error', (error) => this.fail(slot, error));
    child.on('exit', (code, signal) => this.fail(slot, new Error(`worker exited with ${signal ?? `code ${code}`}`)));
    return slot;
  }

  /** Replaces a failed worker and retries its job once. */
  private fail(slot: Slot<Job, Result>, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    clearTimeout(slot.timer);
    void stop(slot.child);
    const task = slot.task;
    if (task) {
      if (task.attempts < 2 && !this.closed) this.queue.unshift(task);
      else task.reject(new WorkerCrashError(`speech synthesis failed twice: ${error.message}`));
    }
    this.dispatch();
  }
}

/** Busy workers keep the service's event loop alive; idle ones do not. */
function keepAlive(child: ChildProcess, busy: boolean): void {
  if (busy) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

/** Ends a worker: idle ones leave cleanly (removing their temporary files) when the IPC channel closes; failed or stuck ones are killed. */
function stop(child: ChildProcess, graceful = false): Promise<void> {
  child.removeAllListeners();
  child.on('error', () => {});
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceful ? 2000 : 0);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.ref();
    if (graceful && child.connected) child.disconnect();
  });
}
