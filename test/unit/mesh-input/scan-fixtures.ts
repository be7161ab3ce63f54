/**
 * Test inputs for the mesh pipeline made from the service's own photo avatars: the head and eyes merged
 * into one textured mesh (one atlas: the head's beside the eye's), then moved, scaled, re-ordered,
 * decimated or subdivided, written as OBJ + texture and zipped like a studio's upload.
 */
import sharp from 'sharp';
import type { AvatarModel, MeshData } from '../../../src/model/avatar.ts';
import { writeObj } from '../../../src/formats/write/obj-write.ts';
import { writeZip } from '../../../src/formats/write/zip-write.ts';
import { decodeImage } from '../../../src/formats/read/decode-image.ts';
import type { RgbaImage } from '../../../src/geometry/render/image.ts';
import { subdivide } from '../../../src/geometry/mesh/subdivide.ts';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';

export type ScanMesh = Pick<MeshData, 'positions' | 'uvs' | 'indices'>;

/**
 * The avatar's head and eyes as one mesh with one texture atlas (cm, the avatar's frame). The bust is
 * left out, the neck open where it was, as a studio's head scan is cut.
 */
export async function avatarScan(model: AvatarModel): Promise<{ mesh: ScanMesh; texture: RgbaImage }> {
  const parts = model.meshes.filter((m) => m.name === 'head' || m.name.startsWith('eye'));
  const images = await Promise.all(parts.map((m) => decodeImage(model.textures.find((t) => t.name === model.materials.find((x) => x.name === m.material)!.baseColorTexture)!.data)));
  const height = images[0].height;
  const width = images[0].width + images[1].width;
  // The atlas: the head's texture, then one eye texture (both eyes share it) in the bottom corner.
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) rgba.set(images[0].rgba.subarray(y * images[0].width * 4, (y + 1) * images[0].width * 4), y * width * 4);
  const eye = images[1];
  for (let y = 0; y < eye.height; y++) rgba.set(eye.rgba.subarray(y * eye.width * 4, (y + 1) * eye.width * 4), ((height - eye.height + y) * width + images[0].width) * 4);
  const positions: number[] = [], uvs: number[] = [], indices: number[] = [];
  parts.forEach((m, i) => {
    const base = positions.length / 3;
    const g = m.geometry;
    positions.push(...g.positions);
    for (let v = 0; v < g.uvs.length; v += 2) {
      if (i === 0) uvs.push((g.uvs[v] * images[0].width) / width, g.uvs[v + 1]);
      else uvs.push((images[0].width + g.uvs[v] * eye.width) / width, (g.uvs[v + 1] * eye.height) / height);
    }
    const bust = new Set(i === 0 ? buildTemplate(model.template).regions.bust : []);
    for (let t = 0; t < g.indices.length; t += 3) {
      const corners = [g.indices[t], g.indices[t + 1], g.indices[t + 2]];
      if (!corners.some((k) => bust.has(k))) indices.push(...corners.map((k) => base + k));
    }
  });
  return {
    mesh: { positions: Float32Array.from(positions), uvs: Float32Array.from(uvs), indices: Uint32Array.from(indices) },
    texture: { width, height, rgba },
  };
}

/** Deterministic random numbers in [0, 1). */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** p -> scale * (R p + t) with R a rotation by `angleDeg` about a (normalised) axis. */
export function moveRigid(mesh: ScanMesh, axis: [number, number, number], angleDeg: number, t: [number, number, number], scale: number): ScanMesh {
  const l = Math.hypot(...axis);
  const [x, y, z] = axis.map((a) => a / l);
  const a = (angleDeg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a), C = 1 - c;
  const R = [c + x * x * C, x * y * C - z * s, x * z * C + y * s, y * x * C + z * s, c + y * y * C, y * z * C - x * s, z * x * C - y * s, z * y * C + x * s, c + z * z * C];
  const p = mesh.positions;
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) out[i + k] = scale * (R[k * 3] * p[i] + R[k * 3 + 1] * p[i + 1] + R[k * 3 + 2] * p[i + 2] + t[k]);
  }
  return { ...mesh, positions: out };
}

/** The same surface with vertices and triangles in a random order. */
export function shuffle(mesh: ScanMesh, rnd: () => number): ScanMesh {
  const n = mesh.positions.length / 3;
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const newIndex = new Uint32Array(n);
  order.forEach((old, i) => (newIndex[old] = i));
  const positions = new Float32Array(n * 3), uvs = new Float32Array(n * 2);
  order.forEach((old, i) => {
    positions.set(mesh.positions.subarray(old * 3, old * 3 + 3), i * 3);
    uvs.set(mesh.uvs.subarray(old * 2, old * 2 + 2), i * 2);
  });
  const tris = Array.from({ length: mesh.indices.length / 3 }, (_, t) => t);
  for (let i = tris.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [tris[i], tris[j]] = [tris[j], tris[i]];
  }
  const indices = new Uint32Array(mesh.indices.length);
  tris.forEach((t, i) => {
    // Rotating the corners keeps the winding.
    const r = i % 3;
    for (let k = 0; k < 3; k++) indices[i * 3 + k] = newIndex[mesh.indices[t * 3 + ((k + r) % 3)]];
  });
  return { positions, uvs, indices };
}

/**
 * Vertex clustering on a grid of `cell` (cm) in position and `cell / 20` in UV (so that the two sides of
 * a UV seam stay apart): each cluster becomes its mean vertex, collapsed triangles go.
 */
export function decimate(mesh: ScanMesh, cell: number): ScanMesh {
  const n = mesh.positions.length / 3;
  const key = (v: number) =>
    [0, 1, 2].map((k) => Math.floor(mesh.positions[v * 3 + k] / cell)).join(',') + '|' + [0, 1].map((k) => Math.floor((mesh.uvs[v * 2 + k] * 20) / cell)).join(',');
  const clusters = new Map<string, number>();
  const of = new Uint32Array(n);
  const sums: number[][] = [];
  for (let v = 0; v < n; v++) {
    const k = key(v);
    let c = clusters.get(k);
    if (c === undefined) clusters.set(k, (c = sums.push([0, 0, 0, 0, 0, 0]) - 1));
    of[v] = c;
    const s = sums[c];
    for (let a = 0; a < 3; a++) s[a] += mesh.positions[v * 3 + a];
    s[3] += mesh.uvs[v * 2];
    s[4] += mesh.uvs[v * 2 + 1];
    s[5]++;
  }
  const positions = new Float32Array(sums.length * 3), uvs = new Float32Array(sums.length * 2);
  sums.forEach((s, c) => {
    positions.set([s[0] / s[5], s[1] / s[5], s[2] / s[5]], c * 3);
    uvs.set([s[3] / s[5], s[4] / s[5]], c * 2);
  });
  const indices: number[] = [];
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const [a, b, c] = [0, 1, 2].map((k) => of[mesh.indices[t + k]]);
    if (a !== b && b !== c && a !== c) indices.push(a, b, c);
  }
  return { positions, uvs, indices: Uint32Array.from(indices) };
}

/** One 1:4 split of every triangle, new vertices at edge midpoints (the surface stays the same). */
export function split(mesh: ScanMesh): ScanMesh {
  const s = subdivide({ ...mesh, rows: Array.from({ length: mesh.positions.length / 3 }, () => []), smooth: () => false });
  return { positions: s.positions, uvs: s.uvs, indices: s.indices };
}

/** The zip a studio would upload: mesh.obj with mesh.jpg (lofimesh) or mesh.png and photo.jpg (hifimesh). */
export async function zipScan(mesh: ScanMesh, texture: RgbaImage, photo?: Uint8Array): Promise<Uint8Array> {
  const raw = sharp(texture.rgba, { raw: { width: texture.width, height: texture.height, channels: 4 } }).removeAlpha();
  const image = photo ? await raw.png().toBuffer() : await raw.jpeg({ quality: 92 }).toBuffer();
  return writeZip([
    { name: 'mesh.obj', data: writeObj(mesh, { name: 'head' }) },
    { name: photo ? 'mesh.png' : 'mesh.jpg', data: new Uint8Array(image) },
    ...(photo ? [{ name: 'photo.jpg', data: photo }] : []),
  ]);
}

/** The avatar with its eyes closed (the head's eyeBlink morphs applied fully), as a studio scan of a sitter with closed eyes. */
export function closeEyes(model: AvatarModel): AvatarModel {
  const meshes = model.meshes.map((m) => {
    const blinks = m.morphs.filter((x) => x.name === 'eyeBlinkLeft' || x.name === 'eyeBlinkRight');
    if (blinks.length === 0) return m;
    const positions = m.geometry.positions.slice();
    for (const b of blinks) for (let i = 0; i < positions.length; i++) positions[i] += b.deltas[i];
    return { ...m, geometry: { ...m.geometry, positions } };
  });
  return { ...model, meshes };
}

/** A UV sphere of radius `r` cm with a neck-like hole at the bottom: a textured mesh without a face. */
export function sphere(r: number): ScanMesh {
  const rows = 40, cols = 60;
  const positions: number[] = [], uvs: number[] = [], indices: number[] = [];
  for (let i = 0; i <= rows - 2; i++) {
    const phi = (Math.PI * (i + 1)) / rows;
    for (let j = 0; j <= cols; j++) {
      const th = (2 * Math.PI * j) / cols;
      positions.push(r * Math.sin(phi) * Math.sin(th), r * Math.cos(phi), r * Math.sin(phi) * Math.cos(th));
      uvs.push(j / cols, 1 - i / rows);
    }
  }
  for (let i = 0; i < rows - 2; i++) {
    for (let j = 0; j < cols; j++) {
      const a = i * (cols + 1) + j, b = a + cols + 1;
      indices.push(a, b, a + 1, a + 1, b, b + 1);
    }
  }
  return { positions: Float32Array.from(positions), uvs: Float32Array.from(uvs), indices: Uint32Array.from(indices) };
}
