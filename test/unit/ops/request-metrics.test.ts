import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMetrics } from '../../../src/ops/metrics.ts';
import { RequestMetrics } from '../../../src/ops/request-metrics.ts';

test('request metrics: counter and cumulative histogram per route, method and status in the Prometheus text format', () => {
  const m = new RequestMetrics({ total: 't_total', duration: 'd_seconds' }, { total: 'requests', duration: 'latency' }, [0.01, 0.1, 1]);
  m.observe('/v2/avatar/:key/status', 'GET', 200, 0.005);
  m.observe('/v2/avatar/:key/status', 'GET', 200, 0.05);
  m.observe('/v2/avatar/:key/status', 'GET', 200, 5);
  m.observe('/v2/avatar/:key/status', 'GET', 404, 0.5);
  m.observe('a"b\\c\nd', 'POST', 500, 0.001);
  const text = m.text();
  const labels = 'route="/v2/avatar/:key/status",method="GET",status="200"';
  const lines = text.split('\n');
  assert.ok(lines.includes('# TYPE t_total counter'));
  assert.ok(lines.includes('# TYPE d_seconds histogram'));
  assert.ok(lines.includes(`t_total{${labels}} 3`));
  assert.ok(lines.includes(`d_seconds_bucket{le="0.01",${labels}} 1`));
  assert.ok(lines.includes(`d_seconds_bucket{le="0.1",${labels}} 2`));
  assert.ok(lines.includes(`d_seconds_bucket{le="1",${labels}} 2`));
  assert.ok(lines.includes(`d_seconds_bucket{le="+Inf",${labels}} 3`));
  assert.ok(lines.includes(`d_seconds_sum{${labels}} 5.055`));
  assert.ok(lines.includes(`d_seconds_count{${labels}} 3`));
  assert.ok(lines.includes('t_total{route="/v2/avatar/:key/status",method="GET",status="404"} 1'));
  assert.ok(lines.includes('t_total{route="a\\"b\\\\c\\nd",method="POST",status="500"} 1'), 'label values are escaped');
  assert.ok(text.endsWith('\n'));
});

test('request metrics: the process metrics and the request metrics come out as one well-formed exposition', async () => {
  const metrics = createMetrics(async () => 7);
  metrics.request('/healthz', 'GET', 200, 0.003);
  const text = await metrics.text();
  assert.match(text, /^avatar_job_queue_depth 7$/m);
  assert.match(text, /^avatar_http_requests_total\{route="\/healthz",method="GET",status="200"\} 1$/m);
  assert.match(text, /^process_cpu_user_seconds_total \d/m);
  for (const line of text.split('\n').filter(Boolean)) assert.match(line, /^(# (HELP|TYPE) \S+ .+|[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? \S+( \d+)?)$/, line);
});
