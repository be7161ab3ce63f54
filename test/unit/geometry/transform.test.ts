import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Euler, Matrix4, Quaternion, Vector3 } from 'three';
import type { Quat } from '../../../src/model/avatar.ts';
import { compose, invertAffine, multiply, quatToEulerXYZDegrees } from '../../../src/geometry/mesh/transform.ts';

const close = (a: ArrayLike<number>, b: ArrayLike<number>, eps = 1e-9): void => {
  assert.equal(a.length, b.length);
  for (let k = 0; k < a.length; k++) assert.ok(Math.abs(a[k] - b[k]) < eps, `${k}: ${a[k]} vs ${b[k]}`);
};

const samples: Quat[] = [[0, 0, 0, 1], [0.1, 0.7, -0.2, 0.6], [0.5, -0.5, 0.5, 0.5], [0, Math.SQRT1_2, 0, Math.SQRT1_2], [-0.3, 0.1, 0.9, 0.2]];
const unit = (q: Quat): Quat => { const l = Math.hypot(...q); return q.map((x) => x / l) as Quat; };

test('FBX XYZ Euler angles rebuild the quaternion (three calls that order ZYX), also at gimbal lock', () => {
  for (const q of samples.map(unit)) {
    const [x, y, z] = quatToEulerXYZDegrees(q).map((d) => (d * Math.PI) / 180);
    const back = new Quaternion().setFromEuler(new Euler(x, y, z, 'ZYX'));
    const sign = Math.sign(back.w * q[3] + back.x * q[0] + back.y * q[1] + back.z * q[2]) || 1;
    close([back.x * sign, back.y * sign, back.z * sign, back.w * sign], q, 1e-7);
  }
});

test('compose matches three, multiply and invertAffine give the identity', () => {
  const q = unit([0.1, 0.7, -0.2, 0.6]);
  const m = compose([1, 2, 3], q, [2, 2, 2]);
  const ref = new Matrix4().compose(new Vector3(1, 2, 3), new Quaternion(...q), new Vector3(2, 2, 2));
  close(m, ref.elements);
  close(multiply(m, invertAffine(m)), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
});
