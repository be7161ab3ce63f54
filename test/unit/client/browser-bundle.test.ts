import assert from 'node:assert/strict';
import vm from 'node:vm';
import { test } from 'node:test';
import { build } from 'esbuild';
import { serviceDigest } from '../../../src/protocol/digest.ts';

/**
 * The library as a browser gets it: bundled by esbuild (installed with tsx) for the browser platform,
 * then run in a context with only web globals (no `process`, no `require`), signing through WebCrypto.
 */
test('bundles for browsers without Node modules and signs with WebCrypto there', async () => {
  const out = await build({
    entryPoints: [new URL('../../../src/client/index.ts', import.meta.url).pathname],
    bundle: true, platform: 'browser', format: 'iife', globalName: 'AvatarLib', write: false, logLevel: 'silent',
  });
  const code = out.outputFiles[0].text;
  assert.doesNotMatch(code, /["']node:/, 'no Node module reaches the bundle');

  const seen: { url: string; authorization: string }[] = [];
  const context = vm.createContext({
    crypto: globalThis.crypto, TextEncoder, URL, FormData, Blob, Response, Request, Headers, setTimeout, clearTimeout,
    fetch: async (url: string, init: RequestInit) => {
      seen.push({ url, authorization: (init.headers as Record<string, string>).authorization });
      return Response.json({ stt: 'OK', points: 7 });
    },
  });
  vm.runInContext(`${code}\nglobalThis.AvatarLib = AvatarLib;`, context);
  assert.equal(vm.runInContext('typeof process', context), 'undefined');
  const lib = (context as { AvatarLib: typeof import('../../../src/client/index.ts') }).AvatarLib;
  const client = new lib.AvatarClient({ baseUrl: 'https://svc.example/base', key: 'K', secret: 'S' });
  assert.equal((await client.profile()).points, 7);
  assert.equal(seen[0].url, 'https://svc.example/base/v2/profile');
  const nonce = /auth_nonce="([^"]+)"/.exec(seen[0].authorization)![1];
  assert.match(seen[0].authorization, new RegExp(`auth_digest="${serviceDigest('sha256', 'K', 'S', nonce, '/base/v2/profile')}"`));
});
