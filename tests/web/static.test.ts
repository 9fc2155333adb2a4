import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebPanel, hashPassword, type WebPanel } from '../../web/index.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { StubClient } from './support/stub-client.ts';

/** `/static/*` by Hono's serveStatic: every asset with its type, revalidated by ETag, nothing outside web/static/. */
const STATIC = join(REPO_ROOT, 'web', 'static');
const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml; charset=utf-8' };
const PACKAGE_NAME = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).name as string;

let panel: WebPanel;
let url = '';
beforeAll(async () => {
  const passwordHash = await hashPassword('s3cret-venue', { N: 1024 });
  panel = createWebPanel({ mqtt: { client: new StubClient().asClient() }, port: 0, venue: { username: 'venue', passwordHash } });
  url = (await panel.start()).url;
});
afterAll(() => panel?.stop());

/** A request line sent as written (fetch and app.request normalise `..` away before it leaves). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static assets', () => {
  it('serves every file of web/static with its content type, no-cache and a strong ETag', async () => {
    const files = readdirSync(STATIC);
    expect(files).toContain('panel.css');
    for (const file of files) {
      const res = await panel.app.request(`/static/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toBe(TYPES[file.slice(file.lastIndexOf('.'))]);
      expect(res.headers.get('cache-control'), file).toBe('no-cache');
      expect(res.headers.get('etag'), file).toMatch(/^"[0-9a-f]{40}"$/);
      expect(await res.text(), file).toBe(readFileSync(join(STATIC, file), 'utf8'));
    }
  });

  it('answers 304 while the file is unchanged, and HEAD without a body', async () => {
    const first = await panel.app.request('/static/common.js');
    const tag = first.headers.get('etag')!;
    const again = await panel.app.request('/static/common.js', { headers: { 'if-none-match': tag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
    expect(await again.text()).toBe('');
    const other = await panel.app.request('/static/common.js', { headers: { 'if-none-match': '"stale"' } });
    expect(other.status).toBe(200);
    const head = await panel.app.request('/static/panel.css', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('an unknown asset is the JSON 404; the mqtt.js browser build is served the same way from its package', async () => {
    const res = await panel.app.request('/static/nope.js');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'not found: GET /static/nope.js' });
    const vendor = await panel.app.request('/static/vendor/mqtt.esm.js');
    expect(vendor.status).toBe(200);
    expect(vendor.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(vendor.headers.get('etag')).toMatch(/^"[0-9a-f]{40}"$/);
    expect(await vendor.text()).toContain('export');
  });

  it('serves hub/vision as browser modules at /static/vision/ (the tracker page’s detector): relative imports as .js, nothing else of the tree', async () => {
    const res = await panel.app.request('/static/vision/tracker.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    const text = await res.text();
    expect(text).toContain('export class VisionTracker');
    expect(text).toMatch(/from ["']\.\/contacts\.js["']/);
    expect(text).not.toMatch(/from ["']\.\/[a-z-]+\.ts["']/);
    expect(text).not.toContain('BallTrack {'); // types are gone: plain JavaScript
    expect((await panel.app.request('/static/vision/tracker.js', { headers: { 'If-None-Match': etag! } })).status).toBe(304);
    for (const path of ['/static/vision/nope.js', '/static/vision/tracker.ts', '/static/vision/..%2fcamera%2fvision-processor.js', '/static/vision/%2e%2e%2frules%2fmatch.js', '/static/vision/Tracker.js']) {
      const bad = await panel.app.request(path);
      expect(bad.status, path).toBe(404);
      expect(await bad.text(), path).not.toContain('export');
    }
    for (const path of ['/static/vision/../rules/match.js', '/static/vision/../../package.json']) {
      const raw = await rawGet(path);
      expect([400, 404], path).toContain(raw.status);
      expect(raw.body, path).not.toContain(PACKAGE_NAME);
      expect(raw.body, path).not.toContain('export');
    }
  });

  it('refuses every path out of web/static (../package.json and its encodings)', async () => {
    const attempts = [
      '/static/../package.json',
      '/static/../../package.json',
      '/static/%2e%2e/package.json',
      '/static/%2E%2E/%2E%2E/package.json',
      '/static/..%2fpackage.json',
      '/static/..%2f..%2fpackage.json',
      '/static/%2e%2e%2f%2e%2e%2fpackage.json',
      '/static/..%5c..%5cpackage.json',
      '/static/..\\..\\package.json',
      '/static//etc/passwd',
      '/static/%2fetc%2fpasswd',
      '/static/./../package.json',
      '/static/%252e%252e/package.json',
      '/static/vendor/../../package.json',
    ];
    for (const path of attempts) {
      for (const res of [await rawGet(path), await rawGet(path.replace('/static/', '/static/x/'))]) {
        // 404 from the panel, or 400 where Node's HTTP parser refuses the request line itself.
        expect([400, 404], path).toContain(res.status);
        expect(res.body, path).not.toContain(PACKAGE_NAME);
        expect(res.body, path).not.toContain('root:');
      }
      const inProcess = await panel.app.request(path);
      expect(inProcess.status, path).toBe(404);
      expect(await inProcess.text(), path).not.toContain(PACKAGE_NAME);
    }
  });
});
