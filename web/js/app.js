import { api, ApiError, setCsrf } from './api.js';
import { errorLine } from './dom.js';
import { pageSlot } from './page-slot.js';
import { accountPage } from './pages/account.js';
import { avatarPage } from './pages/avatar.js';
import { galleryPage } from './pages/gallery.js';
import { keysPage } from './pages/keys.js';
import { loginPage } from './pages/login.js';
import { newAvatarPage } from './pages/new-avatar.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');

/** Pages by the first segment of the location hash (#/gallery, #/avatar/KEY, ...). */
const pages = { gallery: galleryPage, new: newAvatarPage, keys: keysPage, account: accountPage, avatar: avatarPage };

let signedIn = false;
const open = pageSlot(main, () => document.createElement('div'), (e, root) => {
  if (e instanceof ApiError && e.status === 401) expired();
  else root.append(errorLine(e));
});

function signedInAs(session) {
  setCsrf(session.csrf);
  signedIn = true;
  nav.hidden = false;
  document.getElementById('who').textContent = `${session.email} (${session.account})`;
}

function signedOut() {
  signedIn = false;
  setCsrf('');
  document.getElementById('who').textContent = '';
}

async function route() {
  if (!signedIn) {
    nav.hidden = true;
    await open((root) => {
      root.append(loginPage((session) => {
        signedInAs(session);
        void route();
      }));
    });
    return;
  }
  // #/page/arg...?query: the query is the page's own (the upload form's prefilled choices).
  const [name, ...args] = location.hash.replace(/^#\/?/, '').split('?')[0].split('/');
  await open(pages[name] ?? galleryPage, ...args.map(decodeURIComponent));
}

function expired() {
  signedOut();
  void route();
}

document.getElementById('logout').addEventListener('click', async () => {
  await api.post('/logout').catch(() => undefined);
  signedOut();
  location.hash = '#/gallery';
  void route();
});
window.addEventListener('hashchange', () => void route());

try {
  signedInAs(await api.get('/session'));
} catch {
  signedOut();
}
void route();
