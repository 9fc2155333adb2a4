import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { EndedSessions } from './ended-sessions.ts';

/**
 * Venue credentials, sessions and login rate limiting.
 *
 * Password hash format: `scrypt$N$r$p$<salt base64>$<key base64>` (key 32 bytes, salt 16).
 */
export { hashPassword, PasswordVerifier, verifyPassword } from '../hub/ops/password.ts';

export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface Session {
  id: string;
  csrf: string;
  username: string;
  expiresAt: number;
}

/**
 * Server-side sessions: a random id in the cookie, everything else here; sliding expiry.
 * With a `secret` (kept in DATA_DIR, so it outlives the process) the id is signed and says
 * who logged in and when: after a restart the session is taken up again from the cookie,
 * for at most the session lifetime after the login, and its CSRF token is the same. The
 * password typed at login is never in the cookie: a session taken up again has none.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  /** Logged-out signed ids: never taken up again, across restarts when kept in a file. */
  private readonly ended: EndedSessions;
  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly secret: Buffer | null = null,
    endedFile: string | null = null,
  ) {
    this.ended = new EndedSessions(secret ? endedFile : null, ttlMs, now);
  }

  private sign(text: string): string {
    return createHmac('sha256', this.secret!).update(text).digest('base64url');
  }

  private newId(username: string): string {
    const random = randomBytes(24).toString('base64url');
    if (!this.secret) return random;
    const body = `${random}.${Buffer.from(username).toString('base64url')}.${this.now().toString(36)}`;
    return `${body}.${this.sign(body)}`;
  }

  private csrfFor(id: string): string {
    return this.secret ? this.sign(`csrf|${id}`) : randomBytes(32).toString('base64url');
  }

  /** A signed id from before a restart: the session again, if the signature holds and it is young enough. */
  private revive(id: string): Session | null {
    if (!this.secret || this.ended.has(id)) return null;
    const parts = id.split('.');
    if (parts.length !== 4) return null;
    const body = parts.slice(0, 3).join('.');
    if (!sameText(this.sign(body), parts[3]!)) return null;
    const issuedAt = parseInt(parts[2]!, 36);
    if (!Number.isFinite(issuedAt) || this.now() - issuedAt > this.ttlMs || issuedAt > this.now() + 60_000) return null;
    const session: Session = { id, csrf: this.csrfFor(id), username: Buffer.from(parts[1]!, 'base64url').toString(), expiresAt: this.now() + this.ttlMs };
    this.sessions.set(id, session);
    return session;
  }

  create(username: string): Session {
    this.sweep();
    const id = this.newId(username);
    const session: Session = {
      id,
      csrf: this.csrfFor(id),
      username,
      expiresAt: this.now() + this.ttlMs,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  get(id: string | undefined): Session | null {
    if (!id) return null;
    const session = this.sessions.get(id) ?? this.revive(id);
    if (!session) return null;
    if (session.expiresAt <= this.now()) {
      this.sessions.delete(id);
      return null;
    }
    session.expiresAt = this.now() + this.ttlMs;
    return session;
  }

  destroy(id: string): void {
    this.sessions.delete(id);
    if (this.secret) this.ended.add(id, this.issuedAt(id) ?? this.now());
  }

  private issuedAt(id: string): number | null {
    const at = parseInt(id.split('.')[2] ?? '', 36);
    return Number.isFinite(at) ? at : null;
  }

  clear(): void {
    this.sessions.clear();
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, s] of this.sessions) if (s.expiresAt <= now) this.sessions.delete(id);
  }
}

/** A fixed-window counter per key: `limit` attempts per `windowMs`. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts one attempt; returns the seconds to wait when over the limit, else 0. */
  hit(key: string): number {
    const now = this.now();
    if (this.windows.size > 10_000) for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return w.count > this.limit ? Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000)) : 0;
  }
}
