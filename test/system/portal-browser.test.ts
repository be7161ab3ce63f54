import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { loadConfig } from '../../src/config.ts';
import { startTestService, tempDir, TestClient } from '../../tools/harness/service.ts';

const CHROMIUM = '/usr/bin/chromium';
const skip = fs.existsSync(CHROMIUM) ? false : `portal browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`;
if (skip) console.log(`# ${skip}`);

const photo = new URL('../fixtures/faces/p01-a.jpg', import.meta.url).pathname;
const docs = new URL('../../docs/', import.meta.url).pathname;

interface Frame {
  width: number;
  height: number;
  rgb: Buffer;
}

/** Frames are read in the page (the viewer keeps its drawing buffer), scaled down to this square. */
const SAMPLE = 256;

/** Defines `window.sampleViewer()`: the viewer's current frame as base64 RGB, SAMPLE x SAMPLE. */
function installSampler(page: Page) {
  return page.evaluate((size) => {
    const small = document.createElement('canvas');
    small.width = small.height = size;
    const g = small.getContext('2d', { willReadFrequently: true })!;
    (window as unknown as { sampleViewer: () => string }).sampleViewer = () => {
      g.drawImage(document.getElementById('viewer') as HTMLCanvasElement, 0, 0, size, size);
      const d = g.getImageData(0, 0, size, size).data;
      let s = '';
      for (let i = 0; i < d.length; i += 4) s += String.fromCharCode(d[i]!, d[i + 1]!, d[i + 2]!);
      return btoa(s);
    };
  }, SAMPLE);
}

const frameOf = (base64: string): Frame => ({ width: SAMPLE, height: SAMPLE, rgb: Buffer.from(base64, 'base64') });
const grab = async (page: Page) => frameOf(await page.evaluate(() => (window as unknown as { sampleViewer: () => string }).sampleViewer()));

/** Share of pixels whose colour differs by more than `threshold` in some channel. */
function changed(a: Frame, b: Frame, threshold = 12): number {
  assert.equal(a.rgb.length, b.rgb.length);
  let n = 0;
  for (let i = 0; i < a.rgb.length; i += 3) {
    if (Math.max(Math.abs(a.rgb[i]! - b.rgb[i]!), Math.abs(a.rgb[i + 1]! - b.rgb[i + 1]!), Math.abs(a.rgb[i + 2]! - b.rgb[i + 2]!)) > threshold) n++;
  }
  return n / (a.rgb.length / 3);
}

/** Share of pixels that are not the viewer's background colour (0x2b2f36). */
function covered(f: Frame): number {
  let n = 0;
  for (let i = 0; i < f.rgb.length; i += 3) if (Math.abs(f.rgb[i]! - 0x2b) + Math.abs(f.rgb[i + 1]! - 0x2f) + Math.abs(f.rgb[i + 2]! - 0x36) > 24) n++;
  return n / (f.rgb.length / 3);
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(docs, `portal-${name}.png`), fullPage: true });

/** Signs in with the demo login of a service's data directory. */
async function signIn(page: Page, url: string, dataDir: string) {
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as { portal_email: string; portal_password: string };
  await page.goto(url);
  await page.fill('#login input[name=email]', creds.portal_email);
  await page.fill('#login input[name=password]', creds.portal_password);
  await page.click('#login button[type=submit]');
  await page.waitForSelector('#nav:not([hidden])');
}

/** Times (ms since `since`) of the status requests a page makes for one avatar. */
function statusRequests(page: Page, key: string, since = Date.now()) {
  const times: number[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === `/portal/api/avatars/${key}`) times.push(Date.now() - since);
  });
  return times;
}

/**
 * The portal end to end in Debian's chromium, against the service with the real pipeline and the real
 * speech engine: sign in, make a key, upload a test photo, and see the head drawn, a blendshape move
 * it and speech move its mouth. Screenshots go to docs/portal-*.png.
 */
describe('portal in a browser', { skip }, () => {
  let s: Awaited<ReturnType<typeof startTestService>>;
  let browser: Browser;
  let page: Page;
  let work: string;
  let failedKey: string;

  before(async () => {
    s = await startTestService({ pipelineModule: loadConfig({}).pipelineModule }, {}, 'real');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
        '--autoplay-policy=no-user-gesture-required', '--enable-unsafe-swiftshader',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => console.log(`# page error: ${e.message}`));
    work = tempDir('portal-browser-');
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('shows only the sign-in form when signed out, and a wrong password with what to do', async () => {
    const creds = JSON.parse(fs.readFileSync(path.join(s.dataDir, 'demo-credentials.json'), 'utf8')) as { portal_email: string; portal_password: string };
    await page.goto(s.url);
    await page.waitForSelector('#login');
    assert.equal(await page.isVisible('#nav'), false, 'no menu signed out');
    assert.equal(await page.isVisible('text=Sign out'), false);
    await page.fill('#login input[name=email]', creds.portal_email);
    await page.fill('#login input[name=password]', 'not the password');
    await page.click('#login button[type=submit]');
    await page.waitForSelector('#login .error');
    assert.equal(await page.getAttribute('#login .error', 'data-code'), '14730');
    assert.match(await page.textContent('#login .error') ?? '', /^Incorrect credentials: unknown e-mail or wrong password\. \(error 14730\)Check both/);
    await shot(page, 'signed-out');
  });

  it('signs in with the demo login printed at first start', async () => {
    const creds = JSON.parse(fs.readFileSync(path.join(s.dataDir, 'demo-credentials.json'), 'utf8')) as { portal_email: string; portal_password: string };
    await page.fill('#login input[name=password]', creds.portal_password);
    await page.click('#login button[type=submit]');
    await page.waitForSelector('#nav:not([hidden])');
    assert.match(await page.textContent('#who') ?? '', /demo@localhost/);
    await page.goto(`${s.url}/#/account`);
    assert.equal(await page.textContent('#points', { timeout: 10_000 }), '1000');
    await shot(page, 'account');
  });

  it('creates an application key whose secret signs /v2 requests', async () => {
    await page.goto(`${s.url}/#/keys`);
    await page.click('#create-key');
    const key = (await page.textContent('#created-key'))!;
    const secret = (await page.textContent('#created-secret'))!;
    await shot(page, 'keys');
    const profile = await new TestClient(s.url, key, secret).get('/v2/profile');
    assert.equal(profile.status, 200, JSON.stringify(profile.body));
    assert.equal(profile.body.points, 1000);
    assert.equal(await page.isVisible('#copy-secret'), true, 'a copy button beside the secret');
    page.once('dialog', (d) => void d.accept());
    await page.click(`tr[data-key="${key}"] button.danger`);
    await page.waitForSelector(`tr[data-key="${key}"] >> text=revoked`);
    assert.equal(await page.isVisible('#created-secret'), false, "a revoked key's secret leaves the page");
  });

  it('refuses an upload without a platform, saying what is missing, and shows the price first', async () => {
    await page.goto(`${s.url}/#/new`);
    await page.waitForSelector('#new-avatar');
    assert.match(await page.textContent('#price') ?? '', /^Costs 10 points; the account has 1000\./);
    assert.deepEqual(await page.$$eval('#platforms input:checked', (boxes) => boxes.map((b) => (b as HTMLInputElement).value)), ['maya', 'webviewer']);
    let uploads = 0;
    const count = (r: { url(): string }) => void (r.url().includes('/portal/api/avatars/new/') && uploads++);
    page.on('request', count);
    await page.setInputFiles('#new-avatar input[type=file]', photo);
    for (const box of await page.$$('#platforms input:checked')) await box.uncheck();
    assert.equal(await page.textContent('#platform-hint'), 'Choose at least one platform.');
    await page.click('#new-avatar button[type=submit]');
    await page.waitForSelector('#form-problems .error');
    assert.equal(await page.textContent('#form-problems'), 'Choose at least one platform.');
    await shot(page, 'upload-check');
    await page.setInputFiles('#new-avatar input[type=file]', path.join(docs, 'portal-keys.png'));
    await page.check('#platforms input[value=webviewer]');
    await page.selectOption('#new-avatar select[name=input]', 'lofimesh_texture');
    await page.click('#new-avatar button[type=submit]');
    assert.match(await page.textContent('#form-problems') ?? '', /^portal-keys\.png is not a zip or rar archive/);
    page.off('request', count);
    assert.equal(uploads, 0, 'nothing was sent');
    await page.goto(`${s.url}/#/gallery`); // so that the next visit of #/new is a page change, with a fresh form
  });

  it('uploads a test photo and follows it to done', async () => {
    await page.goto(`${s.url}/#/new`);
    await page.setInputFiles('#new-avatar input[type=file]', photo);
    await page.click('#new-avatar button[type=submit]');
    await page.waitForSelector('#upload-progress .progress');
    await shot(page, 'upload');
    await page.waitForSelector('#upload-progress .progress[data-status=done]', { timeout: 240_000 });
    await page.waitForSelector('#open-avatar');
    await shot(page, 'upload-done');
  });

  it('draws the head in the viewer', async () => {
    await page.click('#open-avatar');
    await page.waitForSelector('section.viewer[data-ready="1"]', { timeout: 60_000 });
    await installSampler(page);
    await page.waitForTimeout(500);
    const frame = await grab(page);
    const share = covered(frame);
    assert.ok(share > 0.15 && share < 0.95, `head covers ${(share * 100).toFixed(1)} % of the canvas`);
    // The middle of the view is the face, not background.
    const mid = (Math.floor(frame.height / 2) * frame.width + Math.floor(frame.width / 2)) * 3;
    assert.ok(Math.abs(frame.rgb[mid]! - 0x2b) + Math.abs(frame.rgb[mid + 1]! - 0x2f) + Math.abs(frame.rgb[mid + 2]! - 0x36) > 24, 'face in the middle');
    await shot(page, 'viewer');
  });

  it('changes the face when a blendshape slider moves', async () => {
    const still = [await grab(page), await grab(page)];
    const noise = changed(still[0]!, still[1]!);
    assert.ok(noise < 0.001, `a still view changes by itself: ${noise}`);
    const slider = page.locator('input[data-shape="jawOpen"]');
    assert.equal(await slider.count(), 1, 'the avatar has the jawOpen blendshape');
    await slider.fill('1');
    await page.waitForTimeout(300);
    const open = await grab(page);
    const moved = changed(still[0]!, open);
    assert.ok(moved > 0.005, `jawOpen = 1 changed ${(moved * 100).toFixed(2)} % of the pixels`);
    await shot(page, 'blendshape');
    await slider.fill('0');
    await page.waitForTimeout(300);
    assert.ok(changed(still[0]!, await grab(page)) < 0.001, 'back to the neutral face');
  });

  it('speaks a typed sentence and moves the mouth while it plays', async () => {
    assert.match(await page.textContent('.viewer .hint') ?? '', /visemes/);
    const neutral = await grab(page);
    // Long enough (about 7 s of speech) for several frames even where the software renderer draws two frames a second.
    await page.fill('#speech-text', 'Open your mouth wide and say hello to the world. Then read this longer sentence aloud, slowly and clearly, so that every mouth shape has its turn.');
    // Frames are recorded in the page every 100 ms (or as often as the busy page allows) from the first viseme until the speech ends.
    await page.evaluate(() => {
      const w = window as unknown as { sampleViewer: () => string; spoken: string[] };
      w.spoken = [];
      const timer = setInterval(() => {
        if (document.body.dataset.speaking === '0') clearInterval(timer);
        else if (document.getElementById('speech-state')?.textContent?.startsWith('speaking')) w.spoken.push(w.sampleViewer());
      }, 100);
    });
    await page.click('#speak');
    await page.waitForFunction(() => document.getElementById('speech-state')?.textContent?.startsWith('speaking'), undefined, { timeout: 60_000 });
    await page.waitForTimeout(700);
    await shot(page, 'speaking');
    await page.waitForFunction(() => document.body.dataset.speaking === '0', undefined, { timeout: 60_000 });
    const frames = (await page.evaluate(() => (window as unknown as { spoken: string[] }).spoken)).map(frameOf);
    assert.ok(frames.length >= 5, `only ${frames.length} frames while speaking`);
    const fromNeutral = frames.map((f) => changed(neutral, f));
    const between = frames.slice(1).map((f, i) => changed(frames[i]!, f));
    const best = fromNeutral.indexOf(Math.max(...fromNeutral));
    console.log(`# speaking: ${frames.length} frames, largest change from neutral ${(fromNeutral[best]! * 100).toFixed(2)} %, frames differing from the previous one: ${between.filter((d) => d > 0.001).length}`);
    assert.ok(fromNeutral[best]! > 0.003, 'the mouth opens');
    assert.ok(between.filter((d) => d > 0.001).length >= 3, 'the mouth keeps moving');
    assert.match(await page.textContent('#speech-state') ?? '', /^spoke \d+ visemes/);
  });

  it('plays a basic animation clip', async () => {
    const clips = page.locator('button.clip');
    assert.ok((await clips.count()) > 0, 'the avatar made with basic has clips');
    const neutral = await grab(page);
    const name = await clips.first().getAttribute('data-clip');
    await clips.first().click();
    let moved = 0;
    for (let i = 0; i < 20 && moved <= 0.003; i++) {
      await page.waitForTimeout(150);
      moved = changed(neutral, await grab(page));
    }
    assert.ok(moved > 0.003, `clip ${name} changed ${(moved * 100).toFixed(2)} % of the pixels`);
    await page.click('text=Stop');
  });

  it('tells why a photo without a face failed, on the upload page and on its own page, which shows Delete and does not poll', async () => {
    const blank = path.join(work, 'blank.png');
    await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 214, g: 200, b: 184 } } }).png().toFile(blank);
    await page.goto(`${s.url}/#/new`);
    await page.waitForSelector('#new-avatar');
    await page.setInputFiles('#new-avatar input[type=file]', blank);
    await page.click('#new-avatar button[type=submit]');
    await page.waitForSelector('#upload-progress .progress[data-status=error]', { timeout: 120_000 });
    const reason = await page.textContent('#upload-progress .outcome') ?? '';
    assert.match(reason, /^Error in pipeline: no face was found in the photo\. \(error 10001\)Use a front-facing photo of one person/);
    await shot(page, 'upload-failed');
    const key = (await page.getAttribute('#upload-progress .progress', 'data-key'))!;

    await page.goto(`${s.url}/#/gallery`);
    const tile = page.locator(`#gallery .tile[data-key="${key}"]`);
    await tile.waitFor();
    assert.match(await tile.textContent() ?? '', /^FailedError in pipeline: no face was found in the photo \(error 10001\)/);

    const since = Date.now();
    const polls = statusRequests(page, key, since);
    await page.goto(`${s.url}/#/avatar/${key}`);
    await page.waitForSelector('#failure');
    assert.match(await page.textContent('#failure') ?? '', /^Error in pipeline: no face was found in the photo\. \(error 10001\)Use a front-facing photo/);
    assert.equal(await page.isVisible('#delete'), true);
    assert.equal(await page.isVisible('.download'), false, 'nothing to download');
    await page.waitForTimeout(6000);
    console.log(`# a failed avatar's page: ${polls.length} status request(s) in ${((Date.now() - since) / 1000).toFixed(1)} s`);
    assert.equal(polls.length, 1, `status requests at ${polls.join(', ')} ms`);
    await shot(page, 'failed-avatar');
    failedKey = key;
  });

  it('shows the avatars in the gallery: a preview of the finished one, the reason of the failed one', async () => {
    await page.goto(`${s.url}/#/gallery`);
    const tile = page.locator('#gallery .tile[data-status=done] img').first();
    await tile.waitFor();
    await page.waitForSelector('#gallery .tile[data-status=error]');
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('#gallery img')].every((i) => i.complete && i.naturalWidth > 0));
    await shot(page, 'gallery');
  });

  it('deletes the failed avatar from its page', async () => {
    await page.goto(`${s.url}/#/avatar/${failedKey}`);
    await page.waitForSelector('#failure');
    page.once('dialog', (d) => void d.accept());
    await page.click('#delete');
    await page.waitForSelector('#gallery .tile[data-status=done]');
    assert.equal(await page.locator(`#gallery .tile[data-key="${failedKey}"]`).count(), 0);
  });
});

/**
 * An avatar that stays pending (a service without job workers): its page polls with a growing pause, so an open
 * tab costs a few requests a minute, not a flood.
 */
describe('portal polling a pending avatar', { skip }, () => {
  it('backs off on its page (each pause longer than the one before, up to 10 s) and in the gallery (from the list ttl)', async () => {
    const s = await startTestService({ workers: 0 });
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      await signIn(page, s.url, s.dataDir);
      const key = (await s.client.upload('/v2/avatar/new/photo/maya,webviewer/2.0', fs.readFileSync(photo))).body.key as string;
      const since = Date.now();
      const polls = statusRequests(page, key, since);
      await page.goto(`${s.url}/#/avatar/${key}`);
      await page.waitForSelector('.progress[data-status=pending]');
      await page.waitForTimeout(30_000);
      const pauses = polls.slice(1).map((t, i) => t - polls[i]!);
      console.log(`# a pending avatar's page: ${polls.length} status requests in 30 s, pauses ${pauses.map((p) => (p / 1000).toFixed(1)).join(', ')} s`);
      // The page reads the status once, then polls after 1 s, then half as long again each time: 1, 1.5, 2.25, 3.4, 5.1, 7.6, 10 (the most): 8 requests in 30 s.
      assert.ok(polls.length >= 6 && polls.length <= 9, `${polls.length} requests`);
      pauses.slice(1).forEach((p, i) => assert.ok(p >= pauses[i]! - 150, `pause ${i + 2} (${p} ms) shorter than the one before (${pauses[i]} ms)`));
      assert.ok(Math.max(...pauses) <= 10_500, `longest pause ${Math.max(...pauses)} ms`);

      // The gallery follows it through the list's update URI, first after the list's ttl (3 s), then less often.
      const updates: number[] = [];
      const start = Date.now();
      page.on('request', (r) => void (new URL(r.url()).pathname.startsWith('/portal/api/avatars/list/update/') && updates.push(Date.now() - start)));
      await page.goto(`${s.url}/#/gallery`);
      await page.waitForSelector(`#gallery .tile[data-key="${key}"][data-status=pending]`);
      await page.waitForTimeout(20_000);
      console.log(`# the gallery with a pending avatar: ${updates.length} update requests in 20 s, at ${updates.map((t) => (t / 1000).toFixed(1)).join(', ')} s`);
      // 3, then 4.5 and 6.75 s later: at about 3, 7.5 and 14.3 s.
      assert.ok(updates.length >= 2 && updates.length <= 4, `${updates.length} update requests`);
      assert.ok(updates[0]! >= 2500, `the first update after the ttl, not at ${updates[0]} ms`);
    } finally {
      await browser.close();
      await s.stop();
    }
  });
});
