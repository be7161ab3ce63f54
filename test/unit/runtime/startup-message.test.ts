import assert from 'node:assert/strict';
import { test } from 'node:test';
import { portalUrl, startupLines } from '../../../src/runtime/startup-message.ts';

test('the portal is reached as localhost when the service listens on every or the loopback address', () => {
  assert.equal(portalUrl('http://0.0.0.0:8080'), 'http://localhost:8080/');
  assert.equal(portalUrl('http://127.0.0.1:8080'), 'http://localhost:8080/');
  assert.equal(portalUrl('http://[::]:9000'), 'http://localhost:9000/');
  assert.equal(portalUrl('http://192.0.2.7:8080'), 'http://192.0.2.7:8080/');
});

test('first start: the demo credentials once, then the portal line; later starts: the portal line alone, without the password', () => {
  const made = { accountId: 'a1', key: 'ak_1', secret: 'S3CRET', email: 'demo@localhost', password: 'PASSWORD', file: '/d/demo-credentials.json' };
  const demo = { email: 'demo@localhost', file: '/d/demo-credentials.json' };
  const first = startupLines('http://127.0.0.1:8080', { role: 'all', made, demo });
  assert.deepEqual(first.slice(1, 4), ['  key:    ak_1', '  secret: S3CRET', '  portal: demo@localhost / PASSWORD']);
  assert.equal(first.at(-1), 'Portal: http://localhost:8080/ - sign in as demo@localhost (the password is in /d/demo-credentials.json)');
  const later = startupLines('http://127.0.0.1:8080', { role: 'all', demo });
  assert.deepEqual(later, [first.at(-1)]);
  assert.match(startupLines('http://127.0.0.1:8080', { role: 'api' })[0]!, /sign in with a login from "npm run admin -- create-login"/);
  assert.match(startupLines('http://127.0.0.1:8080', { role: 'worker' })[0]!, /^Worker running jobs; health and metrics at http:\/\/localhost:8080\/healthz/);
});
