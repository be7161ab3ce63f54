import { unzipSync } from 'fflate';
import { api, seg } from '../api.js';

/** The webviewer package of an avatar, unzipped here: the GLB, the textures it names, and the realtime rig (its viseme table). */
export async function loadWebviewerPackage(key) {
  const { location } = await api.get(`/avatars/${seg(key)}/download/webviewer`);
  const res = await fetch(location);
  if (!res.ok) throw new Error(`download failed: HTTP ${res.status}`);
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()), { filter: (f) => f.name !== 'avatar_model.fbx' });
  const glb = files['avatar_model.glb'];
  if (!glb) throw new Error('the webviewer package has no avatar_model.glb');
  const rig = files['avatar_rig.json'] ? JSON.parse(new TextDecoder().decode(files['avatar_rig.json'])) : { visemes: {} };
  return { glb, rig, files };
}
