/**
 * Writes each template's neutral mesh to assets/templates/<version>/neutral.obj (one object per
 * part, with UVs), the file clients author their assets around, and a picture of both templates
 * to docs/templates.png. Run: `node --import tsx scripts/build-templates.ts`. A unit test checks
 * the committed OBJ files match.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeObj } from '../src/formats/write/obj-write.ts';
import { buildTemplate } from '../src/pipeline/head-template.ts';
import { BONE, PART_NAMES, type HeadTemplate } from '../src/geometry/template/types.ts';
import type { TemplateVersion, Vec3 } from '../src/model/avatar.ts';
import { renderMeshes, type RenderItem, type RenderMode } from '../src/geometry/render/rasterize.ts';
import { contactSheet, type SheetCell } from '../tools/contact-sheet.ts';
import { axisAngle, poseVertices } from '../tools/skinning.ts';
import { vertexNormals } from '../src/geometry/mesh/normals.ts';

export const TEMPLATE_VERSIONS: TemplateVersion[] = ['1.6', '2.0'];
export const neutralObjPath = (version: TemplateVersion) => join(dirname(fileURLToPath(import.meta.url)), '..', 'assets', 'templates', version, 'neutral.obj');

/**
 * The neutral OBJ of a template: writeObj writes one object per call with indices from 1, so
 * each further object's face indices are shifted past the vertices written before it.
 */
export function neutralObj(version: TemplateVersion): string {
  const template = buildTemplate(version);
  const meshes = [{ name: 'head', mesh: template.head }, ...PART_NAMES.map((name) => ({ name, mesh: template.parts[name] }))];
  let offset = 0;
  const out: string[] = [`# avatar-service head template ${version}: neutral pose, cm, Y up, face along +Z`];
  for (const { name, mesh } of meshes) {
    const text = new TextDecoder().decode(writeObj({ positions: mesh.positions, uvs: mesh.uvs, indices: mesh.indices }, { name }));
    const shift = offset;
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      out.push(line.startsWith('f ') ? 'f ' + line.slice(2).split(' ').map((corner) => corner.split('/').map((i) => Number(i) + shift).join('/')).join(' ') : line);
    }
    offset += mesh.positions.length / 3;
  }
  return out.join('\n') + '\n';
}

const COLOURS: Record<string, [number, number, number]> = {
  head: [0.62, 0.5, 0.44],
  eyeLeft: [0.85, 0.85, 0.82],
  eyeRight: [0.85, 0.85, 0.82],
  teeth: [0.9, 0.88, 0.8],
  tongue: [0.7, 0.3, 0.3],
  cornea: [0.9, 0.92, 0.95],
  eyelashes: [0.12, 0.1, 0.09],
  tearLine: [0.85, 0.6, 0.6],
  caruncle: [0.8, 0.5, 0.5],
};
/** The cornea is clear: drawn faintly, so the eyeball's front shows through it. */
const OPACITY: Record<string, number> = { cornea: 0.25 };

/** The template's meshes for the renderer, optionally with the jaw opened by `jaw` radians. */
function renderItems(template: HeadTemplate, jaw: number): RenderItem[] {
  const pose = new Map([[BONE.jaw, axisAngle([1, 0, 0], jaw)]]);
  return (['head', ...PART_NAMES] as const).map((name) => {
    const mesh = name === 'head' ? template.head : template.parts[name];
    const positions = poseVertices(mesh.positions, template.skins[name], template.bones, pose);
    return { geometry: { ...mesh, positions, normals: vertexNormals(positions, mesh.indices) }, color: COLOURS[name], opacity: OPACITY[name] };
  });
}

/** Front, side, back, below and three-quarter views (grey), the UV layout on the head, an ear close up and the mouth opened by the jaw. */
async function picture(): Promise<Uint8Array> {
  const views: { label: string; eye: Vec3; target?: Vec3; height?: number; mode?: RenderMode; jaw?: number }[] = [
    { label: 'front', eye: [0, -2, 80] },
    { label: 'side', eye: [80, -2, -5] },
    { label: 'back', eye: [0, -2, -90] },
    { label: 'below', eye: [0, -90, 10] },
    { label: 'three-quarter', eye: [-50, -10, 50] },
    { label: 'UV layout', eye: [35, 5, 70], mode: 'uv-checker' },
    { label: 'left ear', eye: [80, 10, 20], target: [8.6, 0.4, -5.4], height: 10 },
    { label: 'jaw bone at 20 deg', eye: [25, -8, 60], target: [0, -5, 2], height: 16, jaw: (20 * Math.PI) / 180 },
  ];
  const cells: SheetCell[] = [];
  for (const version of TEMPLATE_VERSIONS) {
    const template = buildTemplate(version);
    for (const view of views) {
      // Framed on the whole bust (top of the head at about 14, the bust's bottom at -36).
      const image = renderMeshes(renderItems(template, view.jaw ?? 0), { type: 'orthographic', viewHeight: view.height ?? 54, eye: view.eye, target: view.target ?? [0, -11, -5], up: [0, 1, 0] }, { width: 360, height: 360, background: [255, 255, 255, 255], supersample: 2, mode: view.mode ?? 'grey' });
      cells.push({ image, label: `${version} ${view.label}` });
    }
  }
  return contactSheet(cells, { columns: views.length, cellWidth: 360, cellHeight: 360, title: 'Head templates 1.6 (top) and 2.0 (bottom)' });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const version of TEMPLATE_VERSIONS) {
    const path = neutralObjPath(version);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, neutralObj(version));
    console.log(`wrote ${path}`);
  }
  const docs = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'templates.png');
  writeFileSync(docs, await picture());
  console.log(`wrote ${docs}`);
}
