import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspectPhoto } from '../../../src/domain/input-check.ts';

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { code: number }).code;
  }
  return 0;
};

describe('photo headers', () => {
  const jpeg = (w: number, h: number, app = 0) =>
    new Uint8Array([0xff, 0xd8, ...(app ? [0xff, 0xe1, (app + 2) >> 8, (app + 2) & 255, ...new Array(app).fill(0)] : []), 0xff, 0xc2, 0, 17, 8, h >> 8, h & 255, w >> 8, w & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  it('reads JPEG frame sizes past application segments, and PNG sizes', () => {
    assert.deepEqual(inspectPhoto(jpeg(640, 480, 3000)), { format: 'jpeg', width: 640, height: 480 });
    const png = new Uint8Array(24);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    new DataView(png.buffer).setUint32(16, 1000);
    new DataView(png.buffer).setUint32(20, 800);
    assert.deepEqual(inspectPhoto(png), { format: 'png', width: 1000, height: 800 });
  });
  it('enforces 8,388,608 pixels whatever the geometry', () => {
    assert.equal(codeOf(() => inspectPhoto(jpeg(4096, 2048))), 0);
    assert.equal(codeOf(() => inspectPhoto(jpeg(4096, 2049))), 30014);
    assert.equal(codeOf(() => inspectPhoto(jpeg(65535, 200))), 30014);
    assert.equal(codeOf(() => inspectPhoto(jpeg(0, 200))), 30013);
    assert.equal(codeOf(() => inspectPhoto(jpeg(10, 10).subarray(0, 6))), 30013);
    assert.equal(codeOf(() => inspectPhoto(new TextEncoder().encode('GIF89a'))), 30012);
    assert.equal(codeOf(() => inspectPhoto(new Uint8Array([1, 2, 3]))), 30011);
  });
});
