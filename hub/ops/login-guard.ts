/**
 * Password guessing, limited per source and per identity from that source. Checks for one
 * source, and for one identity, run one at a time: forty guesses sent at once are forty
 * checks in a row, each reading the failure count the previous one left. After a few free
 * failures a key is refused, without a check, for a time that doubles with every further
 * failure. The lock is never per identity alone: an attacker failing as `referee` locks
 * out the attacker's own address, never the referee at another one.
 */
export interface LoginGuardOptions {
  /** Wrong passwords checked before the back-off starts. */
  freeFailures?: number;
  /** The first refusal period; it doubles with each further failure up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A key with no attempt for this long is forgotten. */
  forgetMs?: number;
  now?: () => number;
}

export type LoginOutcome = { ok: true } | { ok: false; reason: 'wrong' | 'locked'; retryAfterMs: number };

interface KeyState {
  failures: number;
  blockedUntil: number;
  lastAt: number;
}

/** Runs tasks one at a time per key, in arrival order. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    try {
      return await task();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  get size(): number {
    return this.tails.size;
  }
}

export class LoginGuard {
  private readonly keys = new Map<string, KeyState>();
  private readonly queue = new KeyedQueue();
  private readonly freeFailures: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly forgetMs: number;
  private readonly now: () => number;
  /** Checks actually run (the password was hashed): what a guesser gets. */
  checks = 0;
  refusals = 0;

  constructor(options: LoginGuardOptions = {}) {
    this.freeFailures = options.freeFailures ?? 5;
    this.baseDelayMs = options.baseDelayMs ?? 2000;
    this.maxDelayMs = options.maxDelayMs ?? 15 * 60_000;
    this.forgetMs = options.forgetMs ?? 60 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Runs `check` unless the source, or the identity from that source, is backing off. */
  attempt(identity: string, source: string, check: () => Promise<boolean>): Promise<LoginOutcome> {
    const sourceKey = `source\0${source}`;
    const pairKey = `pair\0${identity}\0${source}`;
    // Source first, then identity: always the same order, so two attempts never wait on each other in a circle.
    return this.queue.run(sourceKey, () =>
      this.queue.run(`identity\0${identity}`, async () => {
        this.sweep();
        const now = this.now();
        const blockedUntil = Math.max(this.state(sourceKey).blockedUntil, this.state(pairKey).blockedUntil);
        if (blockedUntil > now) {
          this.refusals += 1;
          return { ok: false, reason: 'locked', retryAfterMs: blockedUntil - now } as const;
        }
        this.checks += 1;
        let good = false;
        try {
          good = await check();
        } catch {
          good = false;
        }
        const after = this.now();
        if (good) {
          this.keys.delete(pairKey);
          return { ok: true } as const;
        }
        const delays = [sourceKey, pairKey].map((key) => this.fail(key, after));
        return { ok: false, reason: 'wrong', retryAfterMs: Math.max(...delays) } as const;
      }),
    );
  }

  /** A key's failures, forgotten after `forgetMs` without a failure (and the back-off over). */
  private state(key: string): KeyState {
    const s = this.keys.get(key);
    const now = this.now();
    if (!s || (now - s.lastAt > this.forgetMs && s.blockedUntil <= now)) return { failures: 0, blockedUntil: 0, lastAt: 0 };
    return s;
  }

  private fail(key: string, now: number): number {
    const s = this.state(key);
    s.failures += 1;
    s.lastAt = now;
    // The last free failure already starts the back-off: `freeFailures` checks, then a wait.
    const over = s.failures - this.freeFailures + 1;
    const delay = over > 0 ? Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** Math.min(over - 1, 30)) : 0;
    s.blockedUntil = now + delay;
    this.keys.set(key, s);
    return delay;
  }

  private sweep(): void {
    if (this.keys.size < 1000) return;
    const now = this.now();
    for (const [key, s] of this.keys) if (now - s.lastAt > this.forgetMs && s.blockedUntil <= now) this.keys.delete(key);
  }
}
