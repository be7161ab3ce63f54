/**
 * An avatar model as it crosses to the helper thread: without the arrays it shares with its template
 * (both threads hold the template), so that less is copied and the helper writes the template's own
 * arrays, whose FBX encodings it keeps from one avatar to the next (formats/write/fbx/recurring.ts).
 */
import type { AvatarModel } from '../model/avatar.ts';
import type { TemplateView } from './template-view.ts';

export interface SentModel {
  model: AvatarModel;
  /** Meshes whose UVs, triangles and skin are the template's (left out of `model`). */
  fromTemplate: string[];
}

const NONE = { uvs: new Float32Array(0), indices: new Uint32Array(0), skin: { joints: new Uint16Array(0), weights: new Float32Array(0) } };

export function withoutTemplateArrays(model: AvatarModel, tpl: TemplateView): SentModel {
  const fromTemplate: string[] = [];
  const meshes = model.meshes.map((mesh) => {
    const own = tpl.meshes.find((m) => m.name === mesh.name);
    if (!own || own.geometry.uvs !== mesh.geometry.uvs || own.geometry.indices !== mesh.geometry.indices || own.skin !== mesh.skin) return mesh;
    fromTemplate.push(mesh.name);
    return { ...mesh, geometry: { ...mesh.geometry, uvs: NONE.uvs, indices: NONE.indices }, skin: NONE.skin };
  });
  return { model: { ...model, meshes }, fromTemplate };
}

/** The model as it was sent, the left-out arrays taken from this thread's template. */
export function withTemplateArrays(sent: SentModel, tpl: TemplateView): AvatarModel {
  const shared = new Set(sent.fromTemplate);
  const meshes = sent.model.meshes.map((mesh) => {
    if (!shared.has(mesh.name)) return mesh;
    const own = tpl.meshes.find((m) => m.name === mesh.name)!;
    return { ...mesh, geometry: { ...mesh.geometry, uvs: own.geometry.uvs, indices: own.geometry.indices }, skin: own.skin };
  });
  return { ...sent.model, meshes };
}
