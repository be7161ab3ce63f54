import { api, seg } from '../api.js';
import { errorLine, h, show } from '../dom.js';
import { watchProgress } from './progress.js';

const INPUTS = [
  ['photo', 'Photo (JPEG or PNG, at most 8 MP)'],
  ['lofimesh_texture', 'Head mesh archive: zip with mesh.obj and mesh.jpg'],
  ['hifimesh_texture_photo', 'Scan archive: zip with mesh.obj, mesh.png and photo.jpg'],
];
const PLATFORMS = [['webviewer', 'Web viewer (GLB, needed for the 3D viewer)'], ['maya', 'Maya (FBX)'], ['unity', 'Unity (JSON)']];
const FEATURES = [['basic', 'Basic animation'], ['expressions', 'Expressions'], ['visemes', 'Visemes (speech)']];

const checkboxes = (name, items, checked) =>
  items.map(([value, label]) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name, value, checked: checked.includes(value) }), label));
const checkedValues = (form, name) => [...form.querySelectorAll(`input[name=${name}]:checked`)].map((i) => i.value);

/** Upload a photo or a mesh archive with platforms, template and features, then watch it being made. */
export async function newAvatarPage(main) {
  const progress = h('div', { id: 'upload-progress' });
  let stop = () => {};
  const form = h('form', {
    class: 'card',
    id: 'new-avatar',
    onsubmit: async (ev) => {
      ev.preventDefault();
      stop();
      const file = form.querySelector('input[type=file]').files[0];
      if (!file) return show(progress, errorLine('Choose a file first.'));
      const data = new FormData();
      data.append('file', file, file.name);
      const platforms = checkedValues(form, 'platform');
      const features = checkedValues(form, 'feature');
      const path = [form.input.value, platforms.join(','), form.template.value, features.join(',')].filter(Boolean).map(seg).join('/');
      try {
        show(progress, h('p', {}, `Uploading ${file.name}…`));
        const { key } = await api.post(`/avatars/new/${path}`, data);
        const watch = watchProgress(key, (a) => {
          if (a.status === 'done') progress.append(h('p', {}, h('a', { href: `#/avatar/${key}`, id: 'open-avatar' }, 'Open the avatar')));
        });
        stop = watch.stop;
        show(progress, h('p', {}, 'Avatar ', h('span', { class: 'mono' }, key)), watch.el);
      } catch (e) {
        show(progress, errorLine(e));
      }
    },
  },
  h('h2', {}, 'New avatar'),
  h('label', {}, 'Input', h('select', { name: 'input' }, INPUTS.map(([v, l]) => h('option', { value: v }, l)))),
  h('label', {}, 'File', h('input', { type: 'file', name: 'file', accept: '.jpg,.jpeg,.png,.zip,.rar', required: true })),
  h('fieldset', {}, h('legend', {}, 'Platforms'), checkboxes('platform', PLATFORMS, ['webviewer', 'maya'])),
  h('label', {}, 'Template', h('select', { name: 'template' }, h('option', { value: '2.0' }, '2.0'), h('option', { value: '1.6' }, '1.6'))),
  h('fieldset', {}, h('legend', {}, 'Features'), checkboxes('feature', FEATURES, ['basic', 'expressions', 'visemes'])),
  h('button', { type: 'submit' }, 'Upload'),
  progress);
  main.append(form);
  return () => stop();
}
