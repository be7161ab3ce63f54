import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jpeg, startTestService } from '../../tools/harness/service.ts';

describe('operations endpoints: /healthz, /readyz, /metrics', () => {
  let s: Awaited<ReturnType<typeof startTestService>>;
  before(async () => {
    s = await startTestService();
  });
  after(async () => s.stop());

  it('answer without authentication', async () => {
    assert.deepEqual(await (await fetch(`${s.url}/healthz`)).json(), { status: 'up' });
    const ready = await fetch(`${s.url}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ready' });
  });

  it('count and time every answer by route pattern, method and status, and count the jobs', async () => {
    const key = (await s.client.upload('/v2/avatar/new/photo/maya/2.0', await jpeg(32, 32))).body.key as string;
    await s.client.waitFor(key);
    for (let i = 0; i < 3; i++) assert.equal((await s.client.get(`/v2/avatar/${key}/status`)).status, 200);
    assert.equal((await s.client.get('/v2/avatar/00000000000000000000000000000000/status')).status, 404);
    // The job is counted when the queue has closed it, which follows the avatar reading done: under load (two test
    // runs on two cores) the first read came before it. Read again until it shows, for at most ten seconds.
    const jobCounted = /^avatar_jobs_total\{kind="avatar",outcome="done"\} 1$/m;
    let res = await fetch(`${s.url}/metrics`);
    let text = await res.text();
    for (let waited = 0; !jobCounted.test(text) && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      res = await fetch(`${s.url}/metrics`);
      text = await res.text();
    }
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    const count = (status: number) => Number(new RegExp(`^avatar_http_requests_total\\{route="/v2/avatar/:key/status",method="GET",status="${status}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
    assert.ok(count(200) >= 4, 'the three polls and the wait');
    assert.equal(count(404), 1);
    assert.match(text, /^avatar_http_request_duration_seconds_bucket\{le="\+Inf",route="\/v2\/avatar\/new\/:a\/:b\/:c",method="POST",status="200"\} 1$/m);
    assert.match(text, jobCounted);
    assert.match(text, /^avatar_job_queue_depth 0$/m);
  });
});
