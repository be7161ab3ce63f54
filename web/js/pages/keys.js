import { api, seg } from '../api.js';
import { errorLine, h, show } from '../dom.js';

const when = (ms) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/** Application keys of the account: create (the secret is shown once, here) and revoke. */
export async function keysPage(main) {
  const fresh = h('div', { id: 'new-key' });
  const table = h('tbody');
  const status = h('div');

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
      show(fresh, h('div', { class: 'secret-box' },
        h('p', {}, 'Copy the secret now: it is shown only once and cannot be read again.'),
        h('dl', {}, h('dt', {}, 'Key'), h('dd', { class: 'mono', id: 'created-key' }, k.key), h('dt', {}, 'Secret'), h('dd', { class: 'mono', id: 'created-secret' }, k.secret)),
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
