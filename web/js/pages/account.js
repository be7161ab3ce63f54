import { api } from '../api.js';
import { h } from '../dom.js';

/** Points, their next expiry, the tier and the features of the account (the spec's profile). */
export async function accountPage(main) {
  const p = await api.get('/profile');
  main.append(
    h('section', { class: 'card' },
      h('h2', {}, 'Account'),
      h('dl', { id: 'profile' },
        h('dt', {}, 'Points'), h('dd', { id: 'points' }, p.points),
        h('dt', {}, 'Tier'), h('dd', {}, `${p.tier_label} (${p.tier_code})`),
        h('dt', {}, 'Next expiry'), h('dd', {}, p.next_expiration_date ? `${p.next_expiration_points} points on ${p.next_expiration_date} UTC` : 'no points'),
        h('dt', {}, 'Features'), h('dd', {}, p.available_features.join(', ')),
      ),
    ),
  );
}
