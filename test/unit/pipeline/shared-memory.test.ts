import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imagesInSharedMemory, ReusedSharedMemory, sharedCopies } from '../../../src/pipeline/shared-memory.ts';

test('arrays of different element sizes copy into one shared memory, each on its own alignment, once each', () => {
  const bytes = Uint8Array.of(1, 2, 3);
  const floats = Float32Array.of(0.5, -2);
  const copies = sharedCopies<Uint8Array | Float32Array>([bytes, floats, bytes]);
  assert.equal(copies.size, 2);
  const [b, f] = [copies.get(bytes)!, copies.get(floats)!];
  assert.deepEqual(b, bytes);
  assert.deepEqual(f, floats);
  const memory = b.buffer as ArrayBufferLike;
  assert.ok(memory instanceof SharedArrayBuffer);
  assert.equal(f.buffer, memory);
  assert.equal(f.byteOffset % 4, 0);
  assert.equal(memory.byteLength, 4 + 8);
});

test('images move into shared memory: those already there kept as the same objects, shared pixels shared still', () => {
  const eye = Uint8Array.from({ length: 16 }, (_, k) => k);
  const template = imagesInSharedMemory(new Map([['teeth', { width: 1, height: 2, rgba: Uint8Array.of(9, 9, 9, 255, 8, 8, 8, 255) }]]));
  const images = new Map([
    ['albedo', { width: 2, height: 1, rgba: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8) }],
    ['eyeLeft', { width: 2, height: 2, rgba: eye }],
    ['eyeRight', { width: 2, height: 2, rgba: eye }],
    ['teeth', template.get('teeth')!],
  ]);
  const shared = imagesInSharedMemory(images);
  assert.deepEqual([...shared.keys()], [...images.keys()]);
  for (const [name, image] of shared) {
    assert.ok(image.rgba.buffer instanceof SharedArrayBuffer, name);
    assert.deepEqual(image, images.get(name), name);
  }
  assert.equal(shared.get('teeth'), template.get('teeth'), 'already shared: the same object');
  assert.equal(shared.get('eyeLeft')!.rgba, shared.get('eyeRight')!.rgba);
  assert.equal(shared.get('albedo')!.rgba.buffer, shared.get('eyeLeft')!.rgba.buffer, 'one buffer for those copied together');
  assert.ok(!(images.get('albedo')!.rgba.buffer instanceof SharedArrayBuffer), 'the input left as it was');
});

test('reused shared memory: the buffer given back is lent again when large enough, never while lent', () => {
  const memory = new ReusedSharedMemory();
  const first = memory.lend();
  const a = first.allocate(16);
  const meanwhile = memory.lend().allocate(8);
  assert.notEqual(meanwhile, a, 'lent: not lent twice');
  first.giveBack();
  const second = memory.lend();
  assert.equal(second.allocate(12), a, 'given back: lent again');
  second.giveBack();
  const larger = memory.lend();
  const b = larger.allocate(32);
  assert.notEqual(b, a, 'too small: a new one');
  larger.giveBack();
  assert.equal(memory.lend().allocate(20), b, 'the larger kept');
});

test('images copied into lent memory: the same pixels, in that buffer', () => {
  const memory = new ReusedSharedMemory();
  const images = new Map([['albedo', { width: 2, height: 1, rgba: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8) }]]);
  const first = memory.lend();
  const shared = imagesInSharedMemory(images, first.allocate);
  first.giveBack();
  const again = imagesInSharedMemory(new Map([['albedo', { width: 1, height: 1, rgba: Uint8Array.of(9, 9, 9, 9) }]]), memory.lend().allocate);
  assert.equal(again.get('albedo')!.rgba.buffer, shared.get('albedo')!.rgba.buffer);
  assert.deepEqual(Array.from(again.get('albedo')!.rgba), [9, 9, 9, 9]);
});
