import { Matrix4, type Group, type Object3D, type SkinnedMesh } from 'three';

/** An `img` element that reports `load` as soon as it gets a source; no pixels are decoded. */
class StubImage {
  width = 1;
  height = 1;
  private listeners = new Map<string, ((e: unknown) => void)[]>();
  private source = '';
  addEventListener(type: string, f: (e: unknown) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), f]);
  }
  removeEventListener(): void {}
  setAttribute(): void {}
  get src(): string { return this.source; }
  set src(value: string) {
    this.source = value;
    queueMicrotask(() => this.listeners.get('load')?.forEach((f) => f.call(this, {})));
  }
}

/**
 * three's loaders expect a browser; they only touch these globals (an image element per
 * texture). Installed by the tests, never by product code.
 */
function stubBrowserGlobals(): void {
  const g = globalThis as Record<string, unknown>;
  g.window ??= { innerWidth: 1024, innerHeight: 768 };
  g.self ??= g;
  g.document ??= { createElementNS: () => new StubImage() };
}

const arrayBuffer = (bytes: Uint8Array): ArrayBuffer => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

export async function loadFbxWithThree(bytes: Uint8Array): Promise<Group> {
  stubBrowserGlobals();
  const { FBXLoader } = await import('three/examples/jsm/loaders/FBXLoader.js');
  return new FBXLoader().parse(arrayBuffer(bytes), '');
}

export async function loadGlbWithThree(bytes: Uint8Array): Promise<{ scene: Group; animations: { name: string }[] }> {
  stubBrowserGlobals();
  const { GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js');
  return new GLTFLoader().parseAsync(arrayBuffer(bytes), '');
}

export function collect<T extends Object3D>(root: Object3D, match: (o: Object3D) => o is T): T[] {
  const out: T[] = [];
  root.traverse((o) => { if (match(o)) out.push(o); });
  return out;
}

/**
 * Largest deviation from identity of bindMatrixInverse * boneWorld * boneInverse over every bone of
 * every skinned mesh: zero when the skeleton's rest pose is the bind pose the skin was made in.
 */
export function restPoseError(root: Object3D): number {
  root.updateMatrixWorld(true);
  let worst = 0;
  root.traverse((o) => {
    const mesh = o as SkinnedMesh;
    if (!mesh.isSkinnedMesh) return;
    mesh.skeleton.bones.forEach((bone, i) => {
      const m = new Matrix4().multiplyMatrices(bone.matrixWorld, mesh.skeleton.boneInverses[i]).premultiply(mesh.bindMatrixInverse);
      m.elements.forEach((e, k) => { worst = Math.max(worst, Math.abs(e - (k % 5 === 0 ? 1 : 0))); });
    });
  });
  return worst;
}
