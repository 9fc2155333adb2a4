import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { persistentSecret } from '../../hub/ops/persistent-secret.ts';
import { createWebPanel, hashPassword, type WebPanel } from '../../web/index.ts';
import { StubClient } from './support/stub-client.ts';

let passwordHash = '';
beforeAll(async () => {
  passwordHash = await hashPassword('s3cret-venue', { N: 1024 });
});
const running: WebPanel[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) await p.stop();
});

function panel(sessionKey?: Buffer, sessionsEndedFile?: string) {
  const p = createWebPanel({ mqtt: { client: new StubClient().asClient() }, port: 0, venue: { username: 'venue', passwordHash }, ...(sessionKey ? { sessionKey } : {}), ...(sessionsEndedFile ? { sessionsEndedFile } : {}) });
  running.push(p);
  return p;
}
async function login(p: WebPanel) {
  const res = await p.app.request('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'venue', password: 's3cret-venue' }) });
  expect(res.status).toBe(200);
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: ((await res.json()) as { csrf: string }).csrf };
}
const consolePage = (p: WebPanel, cookie: string) => p.app.request('/referee/1', { headers: { cookie } });

describe('sessions across a restart', () => {
  it('with a persistent key, a login made before the restart still opens the console, with the same CSRF token', async () => {
    const key = randomBytes(32);
    const { cookie, csrf } = await login(panel(key));
    const after = panel(key); // a new process: no session in memory
    const res = await consolePage(after, cookie);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`<meta name="csrf-token" content="${csrf}">`);
  });

  it('without the key, a tampered id, or another key: back to the login page', async () => {
    const key = randomBytes(32);
    const { cookie } = await login(panel(key));
    expect((await consolePage(panel(), cookie)).status).toBe(303);
    expect((await consolePage(panel(randomBytes(32)), cookie)).status).toBe(303);
    const [name, value] = cookie.split('=') as [string, string];
    const parts = value.split('.');
    parts[1] = Buffer.from('admin').toString('base64url');
    expect((await consolePage(panel(key), `${name}=${parts.join('.')}`)).status).toBe(303);
  });

  it('a logged-out session is not taken up again; an old one expires', async () => {
    const key = randomBytes(32);
    const p = panel(key);
    const { cookie, csrf } = await login(p);
    await p.app.request('/logout', { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: `csrf=${csrf}` });
    expect((await consolePage(p, cookie)).status).toBe(303);
    let now = Date.now();
    const q = createWebPanel({ mqtt: { client: new StubClient().asClient() }, port: 0, venue: { username: 'venue', passwordHash }, sessionKey: key, clock: () => now, sessionTtlMs: 60_000 });
    running.push(q);
    const old = await login(q);
    now += 61_000;
    const r = createWebPanel({ mqtt: { client: new StubClient().asClient() }, port: 0, venue: { username: 'venue', passwordHash }, sessionKey: key, clock: () => now, sessionTtlMs: 60_000 });
    running.push(r);
    expect((await consolePage(r, old.cookie)).status).toBe(303);
  });

  it('a referee who logged out stays logged out after a restart, even replaying the old cookie; one logged in stays logged in', async () => {
    const key = randomBytes(32);
    const file = join(mkdtempSync(join(tmpdir(), 'ended-')), 'sessions-ended');
    const before = panel(key, file);
    const out = await login(before);
    const stays = await login(before);
    const res = await before.app.request('/logout', { method: 'POST', headers: { cookie: out.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: `csrf=${out.csrf}` });
    expect(res.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    // The file names no session id, only its digest.
    const cookieValue = out.cookie.split('=')[1]!;
    expect(readFileSync(file, 'utf8')).not.toContain(cookieValue);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const after = panel(key, file); // a new process
    expect((await consolePage(after, out.cookie)).status).toBe(303);
    expect((await consolePage(after, stays.cookie)).status).toBe(200);
    // Without the file the logout would be forgotten: the file is what keeps it.
    expect((await consolePage(panel(key), out.cookie)).status).toBe(200);
    // And a third start still knows it (the file was rewritten, not emptied).
    expect((await consolePage(panel(key, file), out.cookie)).status).toBe(303);
  });

  it('the key (and the demo password) are made once and kept in DATA_DIR, readable by the owner only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-'));
    const a = persistentSecret(dir, 'session.key');
    expect(persistentSecret(dir, 'session.key')).toBe(a);
    expect(Buffer.from(a, 'base64url').length).toBe(32);
    expect(statSync(join(dir, 'session.key')).mode & 0o777).toBe(0o600);
  });
});
