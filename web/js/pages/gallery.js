import { api, seg } from '../api.js';
import { capital, h } from '../dom.js';
import { pollWithBackoff } from '../poll.js';

const making = (a) => a.status === 'pending' || a.status === 'processing';
/** What happened to a failed avatar, in short: the part of its `msg` before what to do. */
const shortReason = (a) => capital(/^\d{5} ([^;]*)/.exec(a.msg ?? '')?.[1] ?? 'it could not be made');

/**
 * The account's avatars, newest first, then the samples every account sees; previews of finished ones, the
 * reason of failed ones. While some are being made it follows the list's `update` URI, first after the `ttl`
 * the list answer recommends, then less and less often while nothing changes, and stops once none is left.
 */
export async function galleryPage(main) {
  const grid = h('div', { class: 'gallery', id: 'gallery' });
  const more = h('button', { type: 'button', hidden: true }, 'More');
  const tiles = new Map();
  let next;
  let update;

  async function tile(a) {
    const preview = a.status === 'done' ? await api.get(`/avatars/${seg(a.key)}/preview/jpg`).then((p) => p.location, () => undefined) : undefined;
    return h('a', { class: `tile${a.status === 'error' ? ' failed' : ''}`, href: `#/avatar/${a.key}`, 'data-key': a.key, 'data-status': a.status },
      preview
        ? h('img', { src: preview, alt: `preview of ${a.key}`, loading: 'lazy' })
        : h('div', { class: 'placeholder' }, a.status === 'error' ? h('span', {}, h('strong', {}, 'Failed'), h('br'), shortReason(a), ` (error ${a.error_code})`) : `${a.status} ${a.percent} %`),
      h('span', { class: 'mono' }, a.key.slice(0, 12)),
      h('span', {}, a.is_sample ? 'sample' : a.created_at),
    );
  }
  async function place(a, where) {
    const el = await tile(a);
    const old = tiles.get(a.key);
    if (old) old.replaceWith(el);
    else if (where === 'start') grid.prepend(el);
    else grid.append(el);
    tiles.set(a.key, el);
  }
  async function load(path) {
    const page = await api.get(path);
    for (const a of page.models) await place(a, 'end');
    next = page.next;
    more.hidden = !next;
    return page;
  }
  more.addEventListener('click', () => void load(`/avatars${next.replace(/^\/avatar/, '')}`));

  const first = await load('/avatars');
  update = first.update;
  main.append(h('section', { class: 'card' },
    h('h2', {}, 'Gallery'),
    h('p', {}, `${first.total_list_size - first.samples_count} of your own, ${first.samples_count} samples.`),
    first.models.length ? grid : h('p', {}, 'No avatars yet: ', h('a', { href: '#/new' }, 'make one')),
    more));

  if (!first.models.some(making)) return undefined;
  return pollWithBackoff(async () => {
    const changes = await api.get(`/avatars${update.replace(/^\/avatar/, '')}`);
    update = changes.update;
    for (const a of changes.models) await place(a, 'start');
    for (const key of changes.deleted ?? []) {
      tiles.get(key)?.remove();
      tiles.delete(key);
    }
    if (![...tiles.values()].some((t) => making(t.dataset))) return 'finished';
    return changes.models.length ? 'changed' : 'same';
  }, { first: first.ttl * 1000, max: first.ttl * 10_000, now: false });
}
