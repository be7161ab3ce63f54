import type { PortalLogin, PortalSession, PortalSessionStore } from '../../domain/ports.ts';
import type { Executor } from './executor.ts';

/** Portal sign-ins and sessions (only a hash of each session's cookie value is stored), over any SQL backend. */
export class SqlPortalSessions implements PortalSessionStore {
  constructor(private readonly db: Executor) {}

  async addPortalLogin(l: PortalLogin) {
    await this.db.run('INSERT INTO portal_logins (email, account_id, password_hash, created_at) VALUES (?, ?, ?, ?)', [
      l.email, l.accountId, l.passwordHash, l.createdAt,
    ]);
  }

  async getPortalLogin(email: string) {
    const r = await this.db.get('SELECT * FROM portal_logins WHERE email = ?', [email]);
    return r && { email: String(r.email), accountId: String(r.account_id), passwordHash: String(r.password_hash), createdAt: Number(r.created_at) };
  }

  async addPortalSession(s: PortalSession) {
    await this.db.run('INSERT INTO portal_sessions (id_hash, email, account_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)', [
      s.idHash, s.email, s.accountId, s.createdAt, s.expiresAt,
    ]);
  }

  async getPortalSession(idHash: string) {
    const r = await this.db.get('SELECT * FROM portal_sessions WHERE id_hash = ?', [idHash]);
    return r && { idHash: String(r.id_hash), email: String(r.email), accountId: String(r.account_id), createdAt: Number(r.created_at), expiresAt: Number(r.expires_at) };
  }

  async deletePortalSession(idHash: string) {
    await this.db.run('DELETE FROM portal_sessions WHERE id_hash = ?', [idHash]);
  }

  async deleteExpiredPortalSessions(now: number) {
    await this.db.run('DELETE FROM portal_sessions WHERE expires_at <= ?', [now]);
  }
}
