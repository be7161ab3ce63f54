import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { HelperThread, photoPrepHere } from '../../../src/pipeline/helper-thread.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { analyseFace } from '../../../src/pipeline/face/analyse.ts';
import { FACE_POINTS } from '../../../src/pipeline/face/pose.ts';
import { estimatePersonMatte } from '../../../src/pipeline/face/person-matte.ts';
import type { PhotoPrepInput } from '../../../src/pipeline/photo-prep.ts';

const faces = new URL('../../fixtures/faces/', import.meta.url);

/** The value with each typed array replaced by its type, size and hash: compared whole, a difference stays short to print. */
function digest(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return `${value.constructor.name} of ${value.byteLength} bytes ${createHash('sha256').update(bytes).digest('hex')}`;
  }
  if (Array.isArray(value)) return value.map(digest);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, digest(v)]));
  return value;
}

test('the helper thread prepares the same hair observation and photo textures as the calling thread', { timeout: 300_000 }, async () => {
  const tpl = loadTemplateView('1.6');
  const workers = new HelperThread();
  try {
    // p08-a wears glasses (its frame is filled, a new photo comes back); p03-a does not (the photo comes back as it went).
    for (const [file, glasses] of [['p08-a.jpg', true], ['p03-a.jpg', false]] as const) {
      const analysis = await analyseFace(new Uint8Array(readFileSync(new URL(file, faces))), tpl.meshes[0].geometry.positions.subarray(0, FACE_POINTS * 3));
      const input: PhotoPrepInput = { image: analysis.image, landmarks: analysis.landmarks, cmPerPixel: analysis.cmPerPixel, matte: await estimatePersonMatte(analysis.image) };
      const pixels = input.image.data.slice();
      const here = photoPrepHere(tpl, input);
      const there = workers.photo(tpl, input);
      const [hairHere, hairThere, texHere, texThere] = await Promise.all([here.hair, there.hair, here.textures, there.textures]);
      assert.ok(hairThere.ms > 0 && texThere.ms > 0, file);
      assert.deepEqual(digest(hairThere.result), digest(hairHere.result), file);
      assert.deepEqual(digest(texThere.result), digest(texHere.result), file);
      assert.equal(texHere.result.glasses, glasses, file);
      assert.equal(texHere.result.photo === input.image, !glasses, file);
      assert.equal(Buffer.from(texThere.result.photo.data).equals(Buffer.from(pixels)), !glasses, file);
      assert.ok(hairHere.result.mask.alpha.some((v) => v > 0), file);
      assert.ok(texHere.result.eye.some((v) => v > 0), file);
      // The caller's photo is left as it was.
      assert.ok(Buffer.from(input.image.data).equals(Buffer.from(pixels)), file);
    }
  } finally {
    await workers.close();
  }
});
