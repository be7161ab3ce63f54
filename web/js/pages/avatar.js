import { api, seg } from '../api.js';
import { errorLine, failureOf, h, show } from '../dom.js';
import { newAvatarLink } from '../labels.js';
import { MouthDriver } from '../viewer/mouth.js';
import { loadWebviewerPackage } from '../viewer/package.js';
import { speak } from '../viewer/speech.js';
import { AvatarViewer } from '../viewer/viewer.js';
import { watchProgress } from './progress.js';

const reload = () => window.dispatchEvent(new HashChangeEvent('hashchange'));
const featuresOf = (a) => a.optional_features.split(',').filter(Boolean);

/**
 * One avatar. While it is being made: its progress (backing off), then the page again. Failed: the reason,
 * what to do, and Delete. Done: downloads of the platforms it was made for (and how to get the others), the
 * blendshape export, meta, delete, and the 3D viewer when it has the webviewer package.
 */
export async function avatarPage(main, key) {
  const a = await api.get(`/avatars/${seg(key)}`);
  const status = h('div', { id: 'avatar-status' });
  const stops = [];
  const fail = (e) => status.append(errorLine(e));

  const header = h('section', { class: 'card', id: 'avatar', 'data-status': a.status },
    h('h2', {}, 'Avatar ', h('span', { class: 'mono' }, a.key)),
    h('p', {}, `${a.type}, template ${a.template_version}, features: ${a.optional_features || 'none'}, made for ${a.platforms.join(', ')}; created ${a.created_at} UTC${a.is_sample ? '; a sample (read-only)' : ''}`));
  main.append(header);

  if (a.status === 'pending' || a.status === 'processing') {
    const watch = watchProgress(a.key, reload, a);
    header.append(watch.el, status);
    return watch.stop;
  }
  if (a.status === 'error') {
    header.append(
      h('div', { class: 'failure', id: 'failure' }, h('p', { class: 'error', role: 'alert' }, failureOf(a))),
      h('p', { class: 'actions' }, a.is_sample ? '' : deleteButton(a, fail), ' ', h('a', { href: newAvatarLink({ input: a.type, platforms: a.platforms, template: a.template_version, features: featuresOf(a) }) }, 'Upload another file with the same choices')),
      status);
    return undefined;
  }

  const catalog = await api.get('/catalog');
  const missing = catalog.platforms.filter((p) => !a.platforms.includes(p));
  header.append(
    h('p', { class: 'actions' },
      ...a.platforms.map((p) => h('button', { type: 'button', class: 'download', 'data-type': p, onclick: () => download(a.key, p, fail) }, `Download ${p}`)),
      a.is_sample ? '' : deleteButton(a, fail)),
    missing.length && !a.is_sample
      ? h('p', { class: 'hint', id: 'missing-platforms' },
          `Not made for ${missing.join(', ')}: platforms are chosen when an avatar is made. `,
          h('a', { href: newAvatarLink({ input: a.type, platforms: [...a.platforms, ...missing], template: a.template_version, features: featuresOf(a) }) }, 'Make a new one with them'),
          ` (${catalog.prices[a.type] ?? 0} points).`)
      : '',
    status);

  const viewerSection = h('section', { class: 'card viewer' }, h('h3', {}, '3D viewer'));
  main.append(viewerSection);
  const shapes = blendshapeSection(a, fail);
  if (shapes) {
    main.append(shapes.el);
    stops.push(shapes.stop);
  }
  main.append(metaSection(a, fail));
  if (!a.platforms.includes('webviewer')) {
    viewerSection.append(h('p', { id: 'viewer-state' }, 'This avatar was made without the webviewer package, which the 3D viewer shows. ',
      a.is_sample ? '' : h('a', { href: newAvatarLink({ input: a.type, platforms: [...a.platforms, 'webviewer'], template: a.template_version, features: featuresOf(a) }) }, 'Make a new avatar with Web viewer ticked'),
      a.is_sample ? '' : ' to look at it here.'));
    return () => stops.forEach((s) => s());
  }
  viewerSection.append(h('p', { id: 'viewer-state' }, 'loading the webviewer package…'));
  try {
    const pkg = await loadWebviewerPackage(a.key);
    stops.push(await viewerPanel(viewerSection, pkg));
  } catch (e) {
    viewerSection.append(errorLine(e));
    viewerSection.querySelector('#viewer-state').textContent = 'no viewer';
  }
  return () => stops.forEach((s) => s());
}

async function download(key, type, fail) {
  try {
    location.href = (await api.get(`/avatars/${seg(key)}/download/${seg(type)}`)).location;
  } catch (e) {
    fail(e);
  }
}

function deleteButton(a, fail) {
  return h('button', { type: 'button', class: 'danger', id: 'delete', onclick: async () => {
    if (!confirm(`Delete ${a.key} with all its files?`)) return;
    try {
      await api.post(`/avatars/${seg(a.key)}/delete`);
      location.hash = '#/gallery';
    } catch (e) {
      fail(e);
    }
  } }, 'Delete');
}

/** The on-demand blendshape export (one OBJ per shape): offered when the avatar has the expressions shapes. */
function blendshapeSection(a, fail) {
  if (a.is_sample) return undefined;
  const section = h('section', { class: 'card', id: 'blendshapes' }, h('h3', {}, 'Blendshape export'));
  let stop = () => {};
  if (!featuresOf(a).includes('expressions')) {
    section.append(h('p', { class: 'hint' }, 'The export needs an avatar made with Expressions; this one was made without.'));
    return { el: section, stop };
  }
  const progress = h('div');
  const button = h('button', { type: 'button', id: 'export-blendshapes', onclick: async () => {
    button.disabled = true;
    try {
      const { key } = await api.post(`/avatars/${seg(a.key)}/execute/blendshapes`);
      const watch = watchProgress(key, (r) => {
        button.disabled = false;
        if (r.status === 'done') progress.append(h('button', { type: 'button', class: 'download', id: 'download-blendshapes', onclick: () => download(key, 'maya', fail) }, 'Download the blendshapes (zip of OBJ files)'));
      });
      stop = watch.stop;
      show(progress, watch.el);
    } catch (e) {
      button.disabled = false;
      show(progress, errorLine(e));
    }
  } }, 'Export blendshapes');
  section.append(h('p', {}, 'Every blendshape of the head as its own OBJ mesh, beside the neutral one.'), button, progress);
  return { el: section, stop: () => stop() };
}

function metaSection(a, fail) {
  const rows = h('tbody');
  const render = (meta) =>
    show(rows, meta.map((m) => h('tr', {},
      h('td', { class: 'mono' }, m.name), h('td', {}, m.value),
      h('td', {}, m.defined ? `(${m.defined})` : a.is_sample ? '' : h('button', { type: 'button', onclick: () => change(() => api.post(`/avatars/${seg(a.key)}/meta/unset/${seg(m.name)}`)) }, 'Remove')))));
  const change = async (fn) => {
    try {
      await fn();
      render((await api.get(`/avatars/${seg(a.key)}`)).meta);
    } catch (e) {
      fail(e);
    }
  };
  render(a.meta);
  const name = h('input', { name: 'name', placeholder: 'name', required: true });
  const value = h('input', { name: 'value', placeholder: 'value' });
  return h('section', { class: 'card' }, h('h3', {}, 'Meta'),
    h('table', { class: 'list', id: 'meta' }, rows),
    a.is_sample ? '' : h('form', { class: 'inline', onsubmit: (ev) => {
      ev.preventDefault();
      void change(() => api.post(`/avatars/${seg(a.key)}/meta`, { [name.value]: value.value }));
    } }, name, value, h('button', { type: 'submit' }, 'Set')));
}

/** The voices the service speaks with: its default first, then by language. */
async function voiceSelect() {
  const select = h('select', { id: 'speech-voice', 'aria-label': 'Voice' });
  try {
    const list = await api.get('/speech/voices');
    const voices = [...list.voices].sort((x, y) => (x.name === list.default_voice ? -1 : y.name === list.default_voice ? 1 : x.language.localeCompare(y.language) || x.name.localeCompare(y.name)));
    show(select, voices.map((v) => h('option', { value: v.name, selected: v.name === list.default_voice }, `${v.name} (${v.language}, ${v.gender})${v.name === list.default_voice ? ', default' : ''}`)));
  } catch {
    select.hidden = true; // the service's default voice is used
  }
  return select;
}

async function viewerPanel(section, pkg) {
  const canvas = h('canvas', { id: 'viewer' });
  const state = section.querySelector('#viewer-state');
  section.append(h('div', { class: 'viewer-layout' }, canvas, h('div', { class: 'viewer-side', id: 'viewer-side' })));
  const viewer = new AvatarViewer(canvas);
  await viewer.load(pkg.glb, pkg.files);
  const mouth = new MouthDriver(viewer, pkg.rig.visemes);
  viewer.onFrame.push((dt) => mouth.update(dt));
  const side = section.querySelector('#viewer-side');

  const names = viewer.morphNames();
  const sliders = names.map((n) => {
    const input = h('input', { type: 'range', min: 0, max: 1, step: 0.01, value: 0, 'data-shape': n, oninput: () => viewer.setMorph(n, Number(input.value)) });
    return h('label', { class: 'slider' }, h('span', {}, n), input);
  });
  const clips = viewer.clips.map((c) => h('button', { type: 'button', class: 'clip', 'data-clip': c.name, onclick: () => viewer.play(c.name) }, c.name));
  const text = h('textarea', { id: 'speech-text', rows: 3 }, 'Hello! I am your new avatar, and I can talk.');
  const voice = await voiceSelect();
  const speechState = h('span', { id: 'speech-state' });
  const speechError = h('div');
  const speakButton = h('button', { type: 'button', id: 'speak', onclick: async () => {
    speakButton.disabled = true;
    speechState.textContent = 'synthesising…';
    speechError.replaceChildren();
    document.body.dataset.speaking = '1';
    try {
      const r = await speak(text.value, (v) => {
        speechState.textContent = `speaking (${v})`;
        mouth.viseme(v);
      }, voice.hidden ? undefined : voice.value);
      speechState.textContent = `spoke ${r.marks} visemes${r.audio ? '' : ' (without sound: the browser would not play it)'}`;
    } catch (e) {
      speechState.textContent = 'not spoken';
      show(speechError, errorLine(e));
    } finally {
      document.body.dataset.speaking = '0';
      speakButton.disabled = false;
    }
  } }, 'Speak');

  show(side,
    h('h4', {}, 'Speak'), text, voice, h('div', {}, speakButton, ' ', speechState), speechError,
    h('p', { class: 'hint' }, `Mouth driven by ${mouth.mode}.`),
    h('h4', {}, 'Animations'), clips.length ? h('div', { class: 'clips' }, clips, h('button', { type: 'button', onclick: () => viewer.stopClips() }, 'Stop')) : h('p', { class: 'hint' }, 'No clips (made without the basic feature).'),
    h('h4', {}, `Blendshapes (${names.length})`), names.length ? h('div', { class: 'sliders' }, sliders) : h('p', { class: 'hint' }, 'No blendshapes.'),
  );
  state.textContent = 'ready';
  section.dataset.ready = '1';
  return () => viewer.dispose();
}
