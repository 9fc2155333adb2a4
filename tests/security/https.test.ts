import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildHub } from '../support/build.ts';
import { componentMissing } from '../support/components.ts';
import { killAll, PASSWORD, PASSWORD_HASH, startHub, tempDir, writeConfig } from './ops-support.ts';

/**
 * Issue 13, finding 9: the panel over HTTPS when a certificate is configured (TLS_CERT,
 * TLS_KEY), with a `Secure` session cookie; and behind a reverse proxy (TRUST_PROXY=1) the
 * cookie is `Secure` when the proxy says the browser came over HTTPS.
 */
beforeAll(() => buildHub(), 330_000);
afterEach(() => killAll());
afterAll(() => killAll());

const CONFIG = { hub: { id: 'club-h' }, venue: { passwordHash: PASSWORD_HASH }, tables: [{ id: 't1', source: { type: 'serial', path: '/dev/null-billiards-board' } }] };

function certificate(dir: string): { cert: string; key: string } | null {
  const r = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-days', '1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    { encoding: 'utf8' },
  );
  return r.status === 0 ? { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') } : null;
}

function call(url: string, ca: string, method: string, body?: unknown): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method, ca, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

describe('the panel over HTTPS', () => {
  it('serves the panel with the configured certificate, and the session cookie is Secure', async (ctx) => {
    const dir = tempDir('https');
    const files = certificate(dir);
    if (componentMissing('openssl (to make a test certificate)', files !== null)) return ctx.skip();
    const hub = await startHub({ CONFIG: writeConfig(dir, CONFIG), DATA_DIR: dir, TLS_CERT: files!.cert, TLS_KEY: files!.key });
    expect(hub.webUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = readFileSync(files!.cert, 'utf8');

    const page = await call(`${hub.webUrl}/`, ca, 'GET');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
    expect(page.headers['strict-transport-security']).toBeDefined();

    const login = await call(`${hub.webUrl}/login`, ca, 'POST', { username: 'referee', password: PASSWORD });
    expect(login.status).toBe(200);
    const cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? []).find((c) => c.startsWith('bsid='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);

    // Plain HTTP on the same port is not served.
    await expect(fetch(hub.webUrl.replace('https:', 'http:') + '/')).rejects.toThrow();
    expect(await hub.stop()).toBe(0);
  }, 60_000);

  it('behind a reverse proxy (TRUST_PROXY=1) the cookie is Secure when the proxy says https, and not otherwise', async () => {
    const dir = tempDir('proxy');
    const hub = await startHub({ CONFIG: writeConfig(dir, CONFIG), DATA_DIR: dir, TRUST_PROXY: '1' });
    const login = async (headers: Record<string, string>) => {
      const res = await fetch(`${hub.webUrl}/login`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ username: 'referee', password: PASSWORD }) });
      expect(res.status).toBe(200);
      return res.headers.getSetCookie().find((c) => c.startsWith('bsid='))!;
    };
    expect(await login({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'scores.club.example', origin: 'https://scores.club.example' })).toMatch(/;\s*Secure/i);
    expect(await login({})).not.toMatch(/;\s*Secure/i);
    // Without TRUST_PROXY the same header is not believed (a client could send it).
    expect(await hub.stop()).toBe(0);
    const direct = await startHub({ CONFIG: writeConfig(dir, CONFIG), DATA_DIR: dir });
    const res = await fetch(`${direct.webUrl}/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' }, body: JSON.stringify({ username: 'referee', password: PASSWORD }) });
    expect(res.headers.getSetCookie().find((c) => c.startsWith('bsid='))).not.toMatch(/;\s*Secure/i);
    await direct.stop();
  }, 60_000);
});
