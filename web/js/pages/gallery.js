import { api, seg } from '../api.js';
import { h } from '../dom.js';

/** The account's avatars, newest first, then the samples every account sees; previews of finished ones. */
export async function galleryPage(main) {
  const grid = h('div', { class: 'gallery', id: 'gallery' });
  const more = h('button', { type: 'button', hidden: true }, 'More');
  let next;

  async function card(a) {
    const preview = a.status === 'done' ? await api.get(`/avatars/${seg(a.key)}/preview/jpg`).then((p) => p.location, () => undefined) : undefined;
    return h('a', { class: 'tile', href: `#/avatar/${a.key}`, 'data-key': a.key, 'data-status': a.status },
      preview ? h('img', { src: preview, alt: `preview of ${a.key}`, loading: 'lazy' }) : h('div', { class: 'placeholder' }, a.status === 'error' ? `error ${a.error_code}` : `${a.status} ${a.percent} %`),
      h('span', { class: 'mono' }, a.key.slice(0, 12)),
      h('span', {}, a.is_sample ? 'sample' : a.created_at),
    );
  }
  async function load(path) {
    const page = await api.get(path);
    grid.append(...(await Promise.all(page.models.map(card))));
    next = page.next;
    more.hidden = !next;
    return page;
  }
  more.addEventListener('click', () => void load(`/avatars${next.replace(/^\/avatar/, '')}`));

  const first = await load('/avatars');
  main.append(h('section', { class: 'card' },
    h('h2', {}, 'Gallery'),
    h('p', {}, `${first.total_list_size - first.samples_count} of your own, ${first.samples_count} samples.`),
    first.models.length ? grid : h('p', {}, 'No avatars yet: ', h('a', { href: '#/new' }, 'make one')),
    more));
}
