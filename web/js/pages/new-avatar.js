import { api, seg } from '../api.js';
import { errorLine, h, show } from '../dom.js';
import { label } from '../labels.js';
import { watchProgress } from './progress.js';

/** What the file chooser offers, and what a chosen file must end with, by input type. */
const FILES = {
  photo: { accept: '.jpg,.jpeg,.png', what: 'a photo (.jpg, .jpeg or .png)' },
  lofimesh_texture: { accept: '.zip,.rar', what: 'a zip or rar archive' },
  hifimesh_texture_photo: { accept: '.zip,.rar', what: 'a zip or rar archive' },
};
const fits = (file, inputType) => FILES[inputType].accept.split(',').some((ext) => file.name.toLowerCase().endsWith(ext));

const checkboxes = (name, values, checked, allowed) =>
  values.map((value) => h('label', { class: 'check' },
    h('input', { type: 'checkbox', name, value, checked: checked.includes(value) && allowed(value), disabled: !allowed(value) }),
    label(value), allowed(value) ? '' : ' (not available to this account)'));
const checkedValues = (form, name) => [...form.querySelectorAll(`input[name=${name}]:checked`)].map((i) => i.value);

/**
 * Upload a photo or a mesh archive with platforms, template and features, then watch it being made. The form
 * starts from the service's defaults (or the choices in the link that opened it), shows the price before the
 * upload, and sends nothing until a file and at least one platform are chosen.
 */
export async function newAvatarPage(main) {
  const [catalog, profile] = await Promise.all([api.get('/catalog'), api.get('/profile')]);
  const asked = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const listed = (name, fallback) => (asked.has(name) ? asked.get(name).split(',').filter(Boolean) : fallback);
  const allowed = (word) => profile.available_features.includes(word);
  const startInput = catalog.input_types.includes(asked.get('input')) ? asked.get('input') : catalog.input_types.find(allowed) ?? catalog.input_types[0];

  const progress = h('div', { id: 'upload-progress' });
  const problems = h('div', { id: 'form-problems' });
  const platformHint = h('p', { class: 'hint', id: 'platform-hint' });
  const price = h('p', { id: 'price' });
  const submit = h('button', { type: 'submit' }, 'Upload');
  const fileInput = h('input', { type: 'file', name: 'file' });
  const inputSelect = h('select', { name: 'input' },
    catalog.input_types.map((v) => h('option', { value: v, selected: v === startInput, disabled: !allowed(v) }, `${label(v)}${allowed(v) ? '' : ' (not available to this account)'}`)));
  const templateSelect = h('select', { name: 'template' },
    catalog.templates.map((v) => h('option', { value: v, selected: v === (asked.get('template') ?? catalog.defaults.template) }, v)));
  let stop = () => {};

  const form = h('form', { class: 'card', id: 'new-avatar', novalidate: true, onsubmit: (ev) => {
    ev.preventDefault();
    void upload();
  }, onchange: () => refresh() },
  h('h2', {}, 'New avatar'),
  h('label', {}, 'Input', inputSelect),
  h('label', {}, 'File', fileInput),
  h('fieldset', { id: 'platforms' }, h('legend', {}, 'Platforms'), checkboxes('platform', catalog.platforms, listed('platforms', catalog.defaults.platforms), () => true), platformHint),
  h('label', {}, 'Template', templateSelect),
  h('fieldset', { id: 'features' }, h('legend', {}, 'Features'), checkboxes('feature', catalog.features, listed('features', catalog.defaults.features), allowed)),
  price, problems, submit, progress);

  /** Keeps the file chooser, the hints and the price in step with the choices. */
  function refresh() {
    const inputType = inputSelect.value;
    fileInput.accept = FILES[inputType].accept;
    const platforms = checkedValues(form, 'platform');
    platformHint.className = platforms.length ? 'hint' : 'hint error';
    platformHint.textContent = !platforms.length
      ? 'Choose at least one platform.'
      : platforms.includes('webviewer') ? '' : 'Without Web viewer the avatar cannot be shown in the 3D viewer here (downloads only).';
    const cost = catalog.prices[inputType] ?? 0;
    const enough = profile.points >= cost;
    price.className = enough ? '' : 'error';
    price.textContent = enough
      ? `Costs ${cost} points; the account has ${profile.points}. A failed avatar gives its points back.`
      : `Costs ${cost} points, but the account has ${profile.points}: ask the service's administrator for more points.`;
    submit.disabled = !enough;
  }

  async function upload() {
    stop();
    const file = fileInput.files[0];
    const inputType = inputSelect.value;
    const platforms = checkedValues(form, 'platform');
    const features = checkedValues(form, 'feature');
    const missing = [
      !file && `Choose ${FILES[inputType].what} to upload.`,
      file && !fits(file, inputType) && `${file.name} is not ${FILES[inputType].what}: choose another file, or another input.`,
      !platforms.length && 'Choose at least one platform.',
    ].filter(Boolean);
    if (missing.length) {
      show(problems, missing.map((m) => h('p', { class: 'error', role: 'alert' }, m)));
      return;
    }
    show(problems);
    const data = new FormData();
    data.append('file', file, file.name);
    // Every segment is present: an empty platform list is refused above, and features are the optional last one.
    const path = [inputType, platforms.join(','), templateSelect.value, ...(features.length ? [features.join(',')] : [])].map(seg).join('/');
    try {
      submit.disabled = true;
      show(progress, h('p', {}, `Uploading ${file.name}…`));
      const { key } = await api.post(`/avatars/new/${path}`, data);
      const cost = catalog.prices[inputType] ?? 0;
      profile.points -= cost;
      const watch = watchProgress(key, (a) => {
        if (a.status === 'error') profile.points += cost;
        refresh();
        progress.append(a.status === 'done'
          ? h('p', {}, h('a', { href: `#/avatar/${key}`, id: 'open-avatar' }, 'Open the avatar'))
          : h('p', {}, h('a', { href: `#/avatar/${key}` }, 'Its page'), ' keeps the reason; its points were given back.'));
      });
      stop = watch.stop;
      show(progress, h('p', {}, 'Avatar ', h('span', { class: 'mono' }, key)), watch.el);
    } catch (e) {
      show(progress, errorLine(e, 'upload-error'));
    } finally {
      refresh();
    }
  }

  refresh();
  main.append(form);
  return () => stop();
}
