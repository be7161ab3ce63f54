/**
 * Which of the eye socket the photo and a viewer see past the eyeball (socket-in-photo.ts), on a unit eyeball at
 * the origin looking along +Z.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hiddenByEyeballs, socketOutOfSight } from '../../../src/geometry/texture/socket-in-photo.ts';
import type { PhotoCamera } from '../../../src/geometry/texture/photo-camera.ts';
import type { Mat3 } from '../../../src/geometry/fit/similarity.ts';

const EYE = [{ center: [0, 0, 0] as [number, number, number], radius: 1 }];
/** Behind the eyeball's middle; beside it at the equator; behind its rim, out to the side; in front of it. */
const POINTS = new Float32Array([0, 0, -1.1, 1.15, 0, 0, 0.9, 0, -0.6, 0, 0, 1.2, 0.2, 0, -1.1]);
const ALL = [0, 1, 2, 3, 4];

/** A photo camera turned `degrees` about Y, so that it looks at the head from its +X side. */
function camera(degrees: number): PhotoCamera {
  const a = (degrees * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
  const rotation: Mat3 = [c, 0, -s, 0, 1, 0, s, 0, c];
  return { rotation, pixelsPerCm: 10, translation: [0, 0] };
}

test('the eyeball hides from the photo what lies behind it on the line to the camera, and only socket vertices are judged', () => {
  const seen = new Uint8Array([1, 1, 1, 1, 1]);
  assert.deepEqual([...hiddenByEyeballs(seen, ALL, POINTS, camera(0), EYE)], [0, 1, 0, 1, 0]);
  assert.deepEqual([...seen], [1, 1, 1, 1, 1], 'the visibility given is not changed');
  // From 40 degrees to the side, the point behind the rim on that side comes into view.
  assert.deepEqual([...hiddenByEyeballs(seen, ALL, POINTS, camera(40), EYE)], [0, 1, 1, 1, 0]);
  assert.deepEqual([...hiddenByEyeballs(seen, [1, 3], POINTS, camera(0), EYE)], [1, 1, 1, 1, 1]);
  assert.deepEqual([...hiddenByEyeballs(new Uint8Array(5), ALL, POINTS, camera(0), EYE)], [0, 0, 0, 0, 0], 'what the photo did not see stays unseen');
});

test('the socket stays dark only where no view within 45 degrees of straight ahead sees it past the eyeball', () => {
  // The point behind the rim is seen from 45 degrees to its side; those behind the middle from nowhere in front.
  assert.deepEqual(socketOutOfSight(ALL, POINTS, EYE), [0, 4]);
  assert.deepEqual(socketOutOfSight([1, 2, 3], POINTS, EYE), []);
  assert.deepEqual(socketOutOfSight(ALL, POINTS, [{ center: [5, 0, 0], radius: 1 }]), [], 'an eyeball elsewhere hides nothing');
});
