import { createHmac, randomBytes, scrypt as scryptCb, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Venue and broker passwords are stored as `scrypt$N$r$p$<salt base64>$<key base64>`,
 * never in clear. One module for the hub, its broker and the web panel. Verification is
 * asynchronous so that checking a password never stalls scoring.
 * `npm run --silent cli -- hash-password` prints a hash for the configuration file.
 */
const COST = { N: 16384, r: 8, p: 1 };

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password, salt, keylen, options, (e, key) => (e ? reject(e) : resolve(key))));
}

function format(N: number, r: number, p: number, salt: Buffer, key: Buffer): string {
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

function checkPassword(password: unknown): asserts password is string {
  if (typeof password !== 'string' || password.length === 0) throw new TypeError('hashPassword: the password must be a non-empty string');
}

export async function hashPassword(password: string, cost: { N?: number; r?: number; p?: number } = {}): Promise<string> {
  checkPassword(password);
  const { N, r, p } = { ...COST, ...cost };
  const salt = randomBytes(16);
  return format(N, r, p, salt, await scrypt(password, salt, 32, { N, r, p, maxmem: 256 * N * r }));
}

/** For the command line and tests, where blocking does not matter. */
export function hashPasswordSync(password: string): string {
  checkPassword(password);
  const { N, r, p } = COST;
  const salt = randomBytes(16);
  return format(N, r, p, salt, scryptSync(password, salt, 32, { N, r, p, maxmem: 256 * N * r }));
}

/**
 * What is wrong with a stored hash, or null when it is one `verifyPassword` can check: the
 * configuration is refused at start-up with this, rather than every login failing later
 * (the example's placeholder, or a password pasted in clear, must never start a hub).
 */
export function passwordHashProblem(stored: string): string | null {
  const advice = 'make one with `npm run --silent cli -- hash-password`';
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    return `not a password hash (scrypt$N$r$p$salt$key): a placeholder or a password in clear is refused; ${advice}`;
  }
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (!Number.isInteger(N) || N < 2 || N > 1 << 20 || (N & (N - 1)) !== 0 || !Number.isInteger(r) || r < 1 || r > 64 || !Number.isInteger(p) || p < 1 || p > 16) {
    return `scrypt cost '${parts.slice(1, 4).join('$')}' is out of range; ${advice}`;
  }
  const base64 = /^[A-Za-z0-9+/]+={0,2}$/;
  if (!base64.test(parts[4]!) || Buffer.from(parts[4]!, 'base64').length < 8) return `its salt is not base64 of at least 8 bytes (a placeholder?); ${advice}`;
  if (!base64.test(parts[5]!) || Buffer.from(parts[5]!, 'base64').length < 16) return `its key is not base64 of at least 16 bytes (a placeholder?); ${advice}`;
  return null;
}

/** False for a wrong password and for a malformed stored hash alike; never throws. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (expected.length < 16 || !Number.isInteger(N) || N < 2 || N > 1 << 20) return false;
  try {
    const key = await scrypt(password, salt, expected.length, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 });
    return timingSafeEqual(key, expected);
  } catch {
    return false;
  }
}

/**
 * Checks passwords against stored hashes, remembering accepted ones for a while. The
 * referee console sends the venue password with every command, and each scrypt check
 * costs 16 MB (kept afterwards by the C library's allocator on each of libuv's threads: a
 * hub's resident memory rose by 70 MB under a few commands) and tens of milliseconds on a
 * Pi. An accepted password is remembered as an HMAC under a key made at start-up, never in
 * clear; a wrong one always pays the full check.
 */
export class PasswordVerifier {
  private readonly key = randomBytes(32);
  private readonly accepted = new Map<string, { digest: Buffer; until: number }>();
  /** Checks under way, by hash and digest: commands that arrive together share one. */
  private readonly checking = new Map<string, Promise<boolean>>();

  constructor(
    private readonly rememberMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
    private readonly check: (password: string, stored: string) => Promise<boolean> = verifyPassword,
  ) {}

  async verify(password: string, stored: string): Promise<boolean> {
    const digest = createHmac('sha256', this.key).update(password).digest();
    const known = this.accepted.get(stored);
    if (known && known.until > this.now() && timingSafeEqual(known.digest, digest)) return true;
    const id = `${stored}\n${digest.toString('base64')}`;
    let check = this.checking.get(id);
    if (!check) {
      check = this.check(password, stored)
        .then((good) => {
          if (good) this.accepted.set(stored, { digest, until: this.now() + this.rememberMs });
          return good;
        })
        .finally(() => this.checking.delete(id));
      this.checking.set(id, check);
    }
    return check;
  }
}
