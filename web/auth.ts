import { randomBytes, timingSafeEqual } from 'node:crypto';

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

/** Server-side sessions: a random id in the cookie, everything else here; sliding expiry. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  create(username: string): Session {
    this.sweep();
    const session: Session = {
      id: randomBytes(32).toString('base64url'),
      csrf: randomBytes(32).toString('base64url'),
      username,
      expiresAt: this.now() + this.ttlMs,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  get(id: string | undefined): Session | null {
    if (!id) return null;
    const session = this.sessions.get(id);
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
