import type { AvatarMesh } from '../../model/avatar.ts';

/**
 * Scene-graph name of a mesh's node or object. Meshes and bones share names (`head`, `eyeLeft`);
 * Maya and Unity need unique node names, so mesh nodes always carry this suffix.
 */
export const meshNodeName = (mesh: AvatarMesh): string => `${mesh.name}_mesh`;
