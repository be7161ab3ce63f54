import client from 'prom-client';
import type { JobEvent } from './job-events.ts';
import { RequestMetrics } from './request-metrics.ts';

const SECONDS_HTTP = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SECONDS_JOBS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160, 320];

/**
 * The Prometheus metrics of one process: HTTP requests by route and status, job runs and stage
 * durations by kind, and the shared queue depth (read from the database when scraped).
 */
export function createMetrics(queueDepth: () => Promise<number>) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const requests = new RequestMetrics(
    { total: 'avatar_http_requests_total', duration: 'avatar_http_request_duration_seconds' },
    { total: 'HTTP requests answered, by route pattern, method and status.', duration: 'Time to answer an HTTP request, by route pattern, method and status.' },
    SECONDS_HTTP,
  );
  const jobs = new client.Counter({
    name: 'avatar_jobs_total', help: 'Job runs by kind and outcome (done, retry, failed, cancelled, released).',
    labelNames: ['kind', 'outcome'] as const, registers: [registry],
  });
  const jobSeconds = new client.Histogram({
    name: 'avatar_job_duration_seconds', help: 'Duration of job runs by kind and outcome.',
    labelNames: ['kind', 'outcome'] as const, buckets: SECONDS_JOBS, registers: [registry],
  });
  const stageSeconds = new client.Histogram({
    name: 'avatar_job_stage_duration_seconds', help: 'Duration of each pipeline stage of a job, by kind and stage.',
    labelNames: ['kind', 'stage'] as const, buckets: SECONDS_JOBS, registers: [registry],
  });
  new client.Gauge({
    name: 'avatar_job_queue_depth', help: 'Jobs queued or running, across every worker (from the database).', registers: [registry],
    async collect() {
      this.set(await queueDepth());
    },
  });

  return {
    contentType: registry.contentType,
    text: async () => (await registry.metrics()) + requests.text(),
    request: (route: string, method: string, status: number, seconds: number) => requests.observe(route, method, status, seconds),
    job(e: JobEvent) {
      if (e.type === 'job') {
        jobs.inc({ kind: e.kind, outcome: e.outcome });
        jobSeconds.observe({ kind: e.kind, outcome: e.outcome }, e.seconds);
      } else {
        stageSeconds.observe({ kind: e.kind, stage: e.stage }, e.seconds);
      }
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
