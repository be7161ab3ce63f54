/**
 * Drives the mouth from Polly viseme values. Best: the avatar's viseme blendshapes (the rig's table,
 * value -> shape); else the ARKit `jawOpen` shape; else the `jaw` bone. The last two only open and
 * close the mouth, by how open each viseme is.
 */
const OPENNESS = { sil: 0, p: 0, f: 0.12, T: 0.25, t: 0.3, k: 0.35, S: 0.3, s: 0.15, r: 0.3, a: 1, '@': 0.55, e: 0.6, E: 0.7, i: 0.35, o: 0.75, O: 0.85, u: 0.3 };
const JAW_MAX_RADIANS = 0.3;
/** Weights move towards their target with this time constant (s): visemes blend instead of jumping. */
const BLEND_SECONDS = 0.05;

export class MouthDriver {
  constructor(viewer, visemeTable) {
    this.viewer = viewer;
    const names = new Set(viewer.morphNames());
    this.table = Object.fromEntries(Object.entries(visemeTable ?? {}).filter(([, shape]) => names.has(shape)));
    this.jawOpenShape = names.has('jawOpen') ? 'jawOpen' : undefined;
    this.mode = Object.keys(this.table).length ? 'visemes' : this.jawOpenShape ? 'jawOpen' : viewer.bone('jaw') ? 'jaw bone' : 'none';
    this.weights = new Map();
    this.targets = new Map();
  }

  /** Sets the viseme being spoken now (or 'sil'). */
  viseme(value) {
    this.targets.clear();
    if (this.mode === 'visemes') {
      const shape = this.table[value];
      if (shape) this.targets.set(shape, 1);
    } else {
      const open = OPENNESS[value] ?? 0;
      if (open > 0) this.targets.set(this.jawOpenShape ?? 'jaw', open);
    }
  }

  /** Moves every weight towards its target; call once per frame with the frame's duration. */
  update(dt) {
    const k = 1 - Math.exp(-dt / BLEND_SECONDS);
    const names = new Set([...this.weights.keys(), ...this.targets.keys()]);
    for (const name of names) {
      const w = this.weights.get(name) ?? 0;
      const next = w + ((this.targets.get(name) ?? 0) - w) * k;
      // A settled closed mouth is let go, so that clips may move the same shapes and bone.
      if (Math.abs(next) < 1e-3 && !this.targets.has(name)) this.weights.delete(name);
      else this.weights.set(name, next);
      if (name === 'jaw') this.viewer.openJaw(next * JAW_MAX_RADIANS);
      else this.viewer.setMorph(name, next);
    }
  }
}
