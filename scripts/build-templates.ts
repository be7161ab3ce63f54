/**
 * Writes each template's neutral mesh to assets/templates/<version>/neutral.obj (one object per
 * part, with UVs), the file clients author their assets around. Run:
 * `node --import tsx scripts/build-templates.ts`. A unit test checks the committed files match.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeObj } from '../src/formats/obj-write.ts';
import { buildTemplate } from '../src/geometry/template/build.ts';
import { PART_NAMES } from '../src/geometry/template/types.ts';
import type { TemplateVersion } from '../src/model/avatar.ts';

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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const version of TEMPLATE_VERSIONS) {
    const path = neutralObjPath(version);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, neutralObj(version));
    console.log(`wrote ${path}`);
  }
}
