import type { JobKind } from '../domain/ports.ts';

/** How a job run ended: finished, failed and queued again, given up, stopped because its avatar went away, or handed back at shutdown. */
export type JobOutcome = 'done' | 'retry' | 'failed' | 'cancelled' | 'released';

/** What a job worker reports for metrics; worker threads post these to the process that serves /metrics. */
export type JobEvent =
  | { type: 'job'; kind: JobKind; outcome: JobOutcome; seconds: number }
  | { type: 'stage'; kind: JobKind; stage: string; seconds: number };

export const isJobEvent = (m: unknown): m is JobEvent =>
  typeof m === 'object' && m !== null && ((m as JobEvent).type === 'job' || (m as JobEvent).type === 'stage');
