import { test } from 'node:test';
import assert from 'node:assert/strict';
import { int32Pixels, landmarkModel } from '../../../src/pipeline/face/landmark-model.ts';

test("an image's bytes as int32 in one array kept between calls, which a tensor made from them does not hold", async () => {
  const a = Uint8Array.from({ length: 12 }, (_, i) => i * 20);
  const first = int32Pixels(a);
  assert.deepEqual([...first], [...a]);
  const { tf } = (await landmarkModel()) as unknown as { tf: { tensor(v: Int32Array, s: number[], d: 'int32'): { dataSync(): Int32Array; dispose(): void } } };
  const tensor = tf.tensor(first, [1, 2, 2, 3], 'int32');
  const b = Uint8Array.from({ length: 6 }, () => 255);
  const second = int32Pixels(b);
  assert.equal(second.buffer, first.buffer, 'the same memory');
  assert.deepEqual([...second], [...b]);
  // The tensor copied the first image's values when it was made.
  assert.deepEqual([...tensor.dataSync()], [...a]);
  tensor.dispose();
});
