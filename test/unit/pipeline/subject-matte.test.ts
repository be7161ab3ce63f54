import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { faceSpot, subjectMatte, type FaceSpot } from '../../../src/pipeline/face/subject-matte.ts';
import { analyseFace } from '../../../src/pipeline/face/analyse.ts';
import { estimatePersonMatte, PERSON_ALPHA } from '../../../src/pipeline/face/person-matte.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';

const W = 200, H = 100;
const everyone = { width: W, height: H, alpha: new Uint8Array(W * H).fill(255) };
const at = (m: { alpha: Uint8Array }, x: number, y: number) => m.alpha[y * W + x];

test("two faces of a size split the people between them half way; a smaller face claims less, round itself", () => {
  const subject: FaceSpot = { centre: [50, 50], size: 40 };
  const even = subjectMatte(everyone, subject, [{ centre: [150, 50], size: 40 }]);
  assert.equal(at(even, 99, 50), 255);
  assert.equal(at(even, 101, 50), 0);
  assert.equal(at(even, 101, 0), 0);
  const small = subjectMatte(everyone, subject, [{ centre: [150, 50], size: 20 }]);
  // 60 px from the subject over 40 against 40 px from the other over 20: the subject's; 10 px from the other: not.
  assert.equal(at(small, 110, 50), 255);
  assert.equal(at(small, 140, 50), 0);
  // Beyond the smaller face, far from both, its claim ends: the Apollonius circle round it.
  assert.equal(at(small, 199, 50), 0);
  assert.equal(at(small, 110, 0), 255);
  // Background stays background, and the matte given is left as it was.
  const part = { width: W, height: H, alpha: Uint8Array.from(everyone.alpha, (a, i) => (i % W < 20 ? 0 : a)) };
  assert.equal(at(subjectMatte(part, subject, [{ centre: [150, 50], size: 40 }]), 10, 50), 0);
  assert.ok(everyone.alpha.every((a) => a === 255));
});

test('without another face the matte is the person matte itself; the subject\'s own face read twice claims nothing', () => {
  assert.equal(subjectMatte(everyone, { centre: [50, 50], size: 40 }, []), everyone);
  assert.equal(subjectMatte(everyone, { centre: [50, 50], size: 40 }, [{ centre: [58, 46], size: 36 }]), everyone);
});

test("the couple: the other face is found where the man's is, and his head and body are no longer the subject's", async () => {
  const a = await analyseFace(new Uint8Array(readFileSync(new URL('../../fixtures/faces/couple.jpg', import.meta.url))), loadTemplateView('2.0').canonicalFace);
  assert.equal(a.otherFaces.length, 1);
  const subject = faceSpot(a.landmarks);
  const [other] = a.otherFaces;
  // Side by side, alike in size: the woman (modelled) on the image's left, the man on its right.
  assert.ok(other.centre[0] > subject.centre[0] + subject.size, `subject ${subject.centre}, other ${other.centre}`);
  assert.ok(Math.abs(Math.log(other.size / subject.size)) < Math.log(1.3), `sizes ${subject.size}, ${other.size}`);
  const everyone = await estimatePersonMatte(a.image);
  const matte = subjectMatte(everyone, subject, a.otherFaces);
  const person = (m: typeof matte, x: number, y: number) => m.alpha[Math.round(y) * m.width + Math.round(x)] >= PERSON_ALPHA;
  // The man's face is a person in the photo's matte and not in the subject's; the woman's stays in both.
  assert.ok(person(everyone, ...other.centre) && !person(matte, ...other.centre));
  assert.ok(person(everyone, ...subject.centre) && person(matte, ...subject.centre));
});
