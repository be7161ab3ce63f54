import { api } from '../api.js';
import { errorLine, h } from '../dom.js';

/** Sign-in form; calls `done(session)` once the service has set the session cookie. */
export function loginPage(done) {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const status = h('div');
  const form = h(
    'form',
    {
      class: 'card narrow',
      id: 'login',
      onsubmit: async (ev) => {
        ev.preventDefault();
        status.replaceChildren();
        try {
          done(await api.post('/login', { email: email.value, password: password.value }));
        } catch (e) {
          status.append(errorLine(e));
        }
      },
    },
    h('h2', {}, 'Sign in'),
    h('label', {}, 'E-mail', email),
    h('label', {}, 'Password', password),
    h('button', { type: 'submit' }, 'Sign in'),
    status,
  );
  return form;
}
