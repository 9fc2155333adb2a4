import { describe, expect, it } from 'vitest';
import { hashPassword, PasswordVerifier, verifyPassword } from '../../hub/ops/password.ts';

describe('venue passwords', () => {
  it('scrypt hashes verify the right password only, and a malformed hash verifies nothing', async () => {
    const stored = await hashPassword('chalk-and-cue', { N: 1024 });
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('chalk-and-cue', stored)).toBe(true);
    expect(await verifyPassword('chalk-and-cu', stored)).toBe(false);
    expect(await verifyPassword('chalk-and-cue', 'scrypt$1024$8$1$bad')).toBe(false);
  });

  it('the verifier remembers an accepted password for a while (one scrypt per console session, not per command); a wrong one is always checked', async () => {
    const stored = await hashPassword('chalk-and-cue', { N: 1024 });
    let t = 0;
    const checks: string[] = [];
    const verifier = new PasswordVerifier(60_000, () => t, async (password, hash) => (checks.push(password), verifyPassword(password, hash)));
    expect(await verifier.verify('chalk-and-cue', stored)).toBe(true);
    expect(await verifier.verify('chalk-and-cue', stored)).toBe(true);
    expect(await verifier.verify('wrong', stored)).toBe(false);
    expect(await verifier.verify('wrong', stored)).toBe(false);
    expect(checks).toEqual(['chalk-and-cue', 'wrong', 'wrong']);
    // Another stored hash (the configuration changed): checked afresh.
    const other = await hashPassword('new-password', { N: 1024 });
    expect(await verifier.verify('chalk-and-cue', other)).toBe(false);
    // After the memory lapses, the full check again.
    t += 60_001;
    expect(await verifier.verify('chalk-and-cue', stored)).toBe(true);
    expect(checks).toEqual(['chalk-and-cue', 'wrong', 'wrong', 'chalk-and-cue', 'chalk-and-cue']);
  });

  it('commands that arrive together with the same password share one check', async () => {
    const stored = await hashPassword('chalk-and-cue', { N: 1024 });
    let checks = 0;
    const verifier = new PasswordVerifier(60_000, Date.now, async (password, hash) => (checks++, verifyPassword(password, hash)));
    expect(await Promise.all(Array.from({ length: 8 }, () => verifier.verify('chalk-and-cue', stored)))).toEqual(Array(8).fill(true));
    expect(checks).toBe(1);
  });
});
