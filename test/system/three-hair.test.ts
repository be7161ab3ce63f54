import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { writeGlb } from '../../src/formats/write/gltf.ts';

/**
 * The hair of an avatar made from a test photo, in three.js as a web page would show it: GLTFLoader
 * reads the GLB's hair mesh with its texture and the texture's alpha, and WebGL draws it with that
 * alpha (cut out between the strands), in front of the head.
 */
const CHROMIUM = '/usr/bin/chromium';
const skip = fs.existsSync(CHROMIUM) ? false : `three.js hair test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`;
if (skip) console.log(`# ${skip}`);

const THREE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.resolve('three'))), '..');
const ORIGIN = 'http://three-hair.test';

/** Runs in the page: loads the GLB, reports the hair's material and texture, and counts drawn pixels. */
const PAGE = `<!doctype html><canvas id="c" width="256" height="256"></canvas>
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
try {
  const gltf = await new GLTFLoader().loadAsync('/avatar.glb');
  const scene = new THREE.Scene();
  scene.add(gltf.scene);
  scene.add(new THREE.AmbientLight(0xffffff, 2));
  const meshes = [];
  gltf.scene.traverse((o) => { if (o.isMesh) meshes.push(o); });
  const hair = meshes.find((m) => m.material.name === 'hair');
  const renderer = new THREE.WebGLRenderer({ canvas: document.getElementById('c'), preserveDrawingBuffer: true });
  renderer.setClearColor(0x000000, 1);
  const box = new THREE.Box3().setFromObject(hair);
  const centre = box.getCenter(new THREE.Vector3());
  const size = box.getSize(new THREE.Vector3());
  const camera = new THREE.PerspectiveCamera(30, 1, 0.01, 100);
  camera.position.set(centre.x, centre.y, box.max.z + (1.2 * Math.max(size.x, size.y)) / (2 * Math.tan((15 * Math.PI) / 180)));
  camera.lookAt(centre);
  const gl = renderer.getContext();
  const pixels = new Uint8Array(256 * 256 * 4);
  const frame = () => {
    renderer.render(scene, camera);
    gl.readPixels(0, 0, 256, 256, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    return pixels.slice();
  };
  const lit = (p) => { let n = 0; for (let i = 0; i < p.length; i += 4) if (p[i] + p[i + 1] + p[i + 2] > 12) n++; return n; };
  const differ = (a, b) => { let n = 0; for (let i = 0; i < a.length; i += 4) if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 24) n++; return n; };
  const withHair = frame();
  hair.visible = false;
  const withoutHair = frame();
  hair.visible = true;
  for (const m of meshes) if (m !== hair) m.visible = false;
  const hairAlone = lit(frame());
  // The same cards with the texture's alpha ignored: solid ribbons.
  const { alphaTest, transparent } = hair.material;
  hair.material.alphaTest = 0;
  hair.material.transparent = false;
  hair.material.needsUpdate = true;
  const hairSolid = lit(frame());
  hair.material.alphaTest = alphaTest;
  hair.material.transparent = transparent;
  // The texture's own alpha, as three decoded it.
  const image = hair.material.map?.image;
  let alphaMin = 255, alphaMax = 0;
  if (image) {
    const c = document.createElement('canvas');
    c.width = image.width; c.height = image.height;
    const g = c.getContext('2d');
    g.drawImage(image, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < d.length; i += 4) { alphaMin = Math.min(alphaMin, d[i]); alphaMax = Math.max(alphaMax, d[i]); }
  }
  window.report = {
    names: meshes.map((m) => m.material.name),
    skinned: hair.isSkinnedMesh === true,
    triangles: hair.geometry.index.count / 3,
    alphaTest, transparent, doubleSided: hair.material.side === THREE.DoubleSide,
    map: image ? [image.width, image.height] : null, alphaMin, alphaMax,
    hairChanges: differ(withHair, withoutHair), hairAlone, hairSolid,
  };
} catch (e) {
  window.report = { error: String(e && e.stack || e) };
}
</script>`;

test('three.js reads the hair of a photo avatar with its texture and alpha, and draws it cut out by that alpha', { skip }, async () => {
  const { createPipeline } = await import('../../src/pipeline/index.ts');
  // Long hair: cards with gaps between the strands, hanging in front of the shoulders.
  const photo = fs.readFileSync(new URL('../fixtures/faces/p02-a.jpg', import.meta.url));
  const { model } = await (await createPipeline()).run({ inputType: 'photo', file: photo, template: '2.0', features: [] }, () => {});
  const hairMaterial = model.materials.find((m) => m.name === 'hair');
  assert.ok(hairMaterial, 'the avatar of a photo with hair has a hair material');
  const glb = await writeGlb(model);

  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader'] });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.log(`# page error: ${e.message}`));
    await page.route(`${ORIGIN}/**`, async (route) => {
      const rel = new URL(route.request().url()).pathname;
      if (rel === '/') return route.fulfill({ contentType: 'text/html', body: PAGE });
      if (rel === '/avatar.glb') return route.fulfill({ contentType: 'model/gltf-binary', body: Buffer.from(glb) });
      const file = rel.startsWith('/three/') ? path.join(THREE_ROOT, rel.slice('/three/'.length)) : '';
      if (!file.startsWith(THREE_ROOT + path.sep) || !fs.existsSync(file)) return route.fulfill({ status: 404 });
      return route.fulfill({ contentType: 'text/javascript', body: fs.readFileSync(file) });
    });
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => 'report' in window, undefined, { timeout: 120_000 });
    const r = (await page.evaluate(() => (window as unknown as { report: Record<string, unknown> }).report)) as {
      error?: string; names: string[]; skinned: boolean; triangles: number; alphaTest: number; transparent: boolean; doubleSided: boolean;
      map: [number, number] | null; alphaMin: number; alphaMax: number; hairChanges: number; hairAlone: number; hairSolid: number;
    };
    assert.equal(r.error, undefined, r.error);
    console.log(`# three.js hair: ${JSON.stringify(r)}`);
    assert.ok(r.names.includes('hair') && r.names.includes('head'), `meshes' materials: ${r.names}`);
    assert.equal(r.skinned, true, 'the hair is skinned (it follows the head bone)');
    assert.equal(r.triangles, model.meshes.find((m) => m.name === 'hair')!.geometry.indices.length / 3);
    // glTF MASK becomes an alpha test at the cutoff; BLEND a transparent material.
    if (hairMaterial.alphaMode === 'MASK') assert.ok(Math.abs(r.alphaTest - (hairMaterial.alphaCutoff ?? 0.5)) < 1e-6, `alphaTest ${r.alphaTest}`);
    else assert.equal(r.transparent, true);
    assert.equal(r.doubleSided, true);
    assert.ok(r.map && r.map[0] > 0 && r.map[1] > 0, 'the hair texture is loaded');
    assert.ok(r.alphaMin === 0 && r.alphaMax === 255, `the texture's alpha reaches three: ${r.alphaMin}..${r.alphaMax}`);
    // Drawn: the hair changes much of the frame; its alpha cuts gaps between strands that solid cards would fill.
    assert.ok(r.hairChanges > 256 * 256 * 0.03, `hair changes ${r.hairChanges} pixels`);
    assert.ok(r.hairAlone > 0.3 * r.hairSolid && r.hairAlone < 0.97 * r.hairSolid, `hair alone ${r.hairAlone} pixels, as solid cards ${r.hairSolid}`);
  } finally {
    await browser.close();
  }
});
