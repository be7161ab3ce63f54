/** How the interface's words read in the portal; a word without a label reads as itself. */
const LABELS = {
  photo: 'Photo (JPEG or PNG, at most 8 MP)',
  lofimesh_texture: 'Head mesh archive: zip with mesh.obj and mesh.jpg',
  hifimesh_texture_photo: 'Scan archive: zip with mesh.obj, mesh.png and photo.jpg',
  webviewer: 'Web viewer (GLB; the 3D viewer here needs it)',
  maya: 'Maya (FBX)',
  unity: 'Unity (JSON)',
  basic: 'Basic animation',
  expressions: 'Expressions (ARKit blendshapes)',
  visemes: 'Visemes (speech)',
};

export const label = (word) => LABELS[word] ?? word;

/** A link to the upload form with these choices ticked (the file must be chosen again). */
export const newAvatarLink = ({ input, platforms, template, features }) =>
  `#/new?${new URLSearchParams({ input, platforms: platforms.join(','), template, features: features.join(',') })}`;
