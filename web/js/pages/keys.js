import { api, seg } from '../api.js';
import { errorLine, h, show } from '../dom.js';

const when = (ms) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/** Puts `text` on the clipboard; where the page may not (plain http on another host), selects it for Ctrl+C instead. */
async function copy(text, shown, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    getSelection().selectAllChildren(shown);
    button.textContent = 'Selected: press Ctrl+C';
  }
}

/** Application keys of the account: create (the secret is shown once, here, with a copy button) and revoke. */
export async function keysPage(main) {
  const fresh = h('div', { id: 'new-key' });
  const table = h('tbody');
  const status = h('div');
  let shownKey;

  async function refresh() {
    const { keys } = await api.get('/keys');
    show(table, keys.map((k) =>
      h('tr', { 'data-key': k.key },
        h('td', { class: 'mono' }, k.key),
        h('td', {}, when(k.created_at)),
        h('td', {}, k.revoked_at ? `revoked ${when(k.revoked_at)}` : 'active'),
        h('td', {}, k.revoked_at ? '' : h('button', { type: 'button', class: 'danger', onclick: () => revoke(k.key) }, 'Revoke')),
      ),
    ));
  }
  async function create() {
    status.replaceChildren();
    try {
      const k = await api.post('/keys');
      shownKey = k.key;
      const secret = h('dd', { class: 'mono', id: 'created-secret' }, k.secret);
      const button = h('button', { type: 'button', id: 'copy-secret', onclick: () => copy(k.secret, secret, button) }, 'Copy the secret');
      show(fresh, h('div', { class: 'secret-box' },
        h('p', {}, 'Copy the secret now: it is shown only once and cannot be read again.'),
        h('dl', {}, h('dt', {}, 'Key'), h('dd', { class: 'mono', id: 'created-key' }, k.key), h('dt', {}, 'Secret'), secret),
        button,
        h('p', { class: 'hint' }, `With the command line: avatar init --host ${location.origin} --key ${k.key} (it asks for the secret).`),
      ));
      await refresh();
    } catch (e) {
      status.append(errorLine(e));
    }
  }
  async function revoke(key) {
    if (!confirm(`Revoke ${key}? Clients using it stop working at once.`)) return;
    status.replaceChildren();
    try {
      await api.post(`/keys/${seg(key)}/revoke`);
      // A revoked key's secret is of no use any more: it leaves the page.
      if (key === shownKey) fresh.replaceChildren();
      await refresh();
    } catch (e) {
      status.append(errorLine(e));
    }
  }

  await refresh();
  main.append(
    h('section', { class: 'card' },
      h('h2', {}, 'Application keys'),
      h('p', {}, 'A key and its secret sign requests to the /v2 interface (the avatar command, the client library).'),
      h('button', { type: 'button', id: 'create-key', onclick: create }, 'Create a key'),
      fresh, status,
      h('table', { class: 'list' }, h('thead', {}, h('tr', {}, h('th', {}, 'Key'), h('th', {}, 'Created (UTC)'), h('th', {}, 'State'), h('th'))), table),
    ),
  );
}
