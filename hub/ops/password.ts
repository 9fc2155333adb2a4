import { randomBytes, scrypt as scryptCb, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

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
