import { api, seg } from '../api.js';
import { errorLine, h, show } from '../dom.js';
import { MouthDriver } from '../viewer/mouth.js';
import { loadWebviewerPackage } from '../viewer/package.js';
import { speak } from '../viewer/speech.js';
import { AvatarViewer } from '../viewer/viewer.js';
import { watchProgress } from './progress.js';

/** One avatar: status, previews, downloads, meta, delete, and the 3D viewer with blendshapes, clips and speech. */
export async function avatarPage(main, key) {
  const a = await api.get(`/avatars/${seg(key)}`);
  const status = h('div');
  const stops = [];
  const fail = (e) => status.append(errorLine(e));

  const header = h('section', { class: 'card' },
    h('h2', {}, 'Avatar ', h('span', { class: 'mono' }, a.key)),
    h('p', {}, `${a.type}, template ${a.template_version}, features: ${a.optional_features || 'none'}, created ${a.created_at} UTC${a.is_sample ? ', sample (read-only)' : ''}`),
    status);
  main.append(header);

  if (a.status !== 'done') {
    const watch = watchProgress(a.key, () => window.dispatchEvent(new HashChangeEvent('hashchange')));
    header.append(watch.el);
    stops.push(watch.stop);
    return () => stops.forEach((s) => s());
  }

  const platforms = ['maya', 'webviewer', 'unity'];
  const download = async (type) => {
    try {
      location.href = (await api.get(`/avatars/${seg(a.key)}/download/${type}`)).location;
    } catch (e) {
      fail(e);
    }
  };
  header.append(h('p', { class: 'actions' },
    ...platforms.map((p) => h('button', { type: 'button', class: 'download', 'data-type': p, onclick: () => download(p) }, `Download ${p}`)),
    a.is_sample ? '' : h('button', { type: 'button', class: 'danger', id: 'delete', onclick: async () => {
      if (!confirm(`Delete ${a.key} with all its files?`)) return;
      try {
        await api.post(`/avatars/${seg(a.key)}/delete`);
        location.hash = '#/gallery';
      } catch (e) {
        fail(e);
      }
    } }, 'Delete')));

  main.append(metaSection(a, fail));
  const viewerSection = h('section', { class: 'card viewer' }, h('h3', {}, '3D viewer'), h('p', { id: 'viewer-state' }, 'loading the webviewer package…'));
  main.append(viewerSection);
  try {
    const pkg = await loadWebviewerPackage(a.key);
    stops.push(await viewerPanel(viewerSection, pkg));
  } catch (e) {
    viewerSection.append(errorLine(e));
    viewerSection.querySelector('#viewer-state').textContent = 'no viewer';
  }
  return () => stops.forEach((s) => s());
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
  const speechState = h('span', { id: 'speech-state' });
  const speakButton = h('button', { type: 'button', id: 'speak', onclick: async () => {
    speakButton.disabled = true;
    speechState.textContent = 'synthesising…';
    document.body.dataset.speaking = '1';
    try {
      const r = await speak(text.value, (v) => {
        speechState.textContent = `speaking (${v})`;
        mouth.viseme(v);
      });
      speechState.textContent = `spoke ${r.marks} visemes${r.audio ? '' : ' (without sound: the browser would not play it)'}`;
    } catch (e) {
      speechState.textContent = e.message;
    } finally {
      document.body.dataset.speaking = '0';
      speakButton.disabled = false;
    }
  } }, 'Speak');

  show(side,
    h('h4', {}, 'Speak'), text, h('div', {}, speakButton, ' ', speechState),
    h('p', { class: 'hint' }, `Mouth driven by ${mouth.mode}.`),
    h('h4', {}, 'Animations'), clips.length ? h('div', { class: 'clips' }, clips, h('button', { type: 'button', onclick: () => viewer.stopClips() }, 'Stop')) : h('p', { class: 'hint' }, 'No clips (made without the basic feature).'),
    h('h4', {}, `Blendshapes (${names.length})`), names.length ? h('div', { class: 'sliders' }, sliders) : h('p', { class: 'hint' }, 'No blendshapes.'),
  );
  state.textContent = 'ready';
  section.dataset.ready = '1';
  return () => viewer.dispose();
}
