import { createServer } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWebPanel, hashPassword, verifyPassword, type WebPanel } from '../../web/index.ts';
import { StubClient } from './support/stub-client.ts';
import { sampleState } from './support/states.ts';

let passwordHash = '';
beforeAll(async () => {
  passwordHash = await hashPassword('s3cret-venue', { N: 1024 });
});

const running: WebPanel[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) await p.stop();
});

async function panel(over: Record<string, unknown> = {}) {
  const stub = new StubClient();
  const p = createWebPanel({ mqtt: { client: stub.asClient() }, port: 0, venue: { username: 'venue', passwordHash }, requestTimeoutMs: 300, ...over });
  running.push(p);
  await p.start();
  return { p, stub, app: p.app };
}

async function login(app: WebPanel['app'], headers: Record<string, string> = {}) {
  const res = await app.request('/login', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ username: 'venue', password: 's3cret-venue' }) });
  expect(res.status).toBe(200);
  const cookie = res.headers.get('set-cookie')!;
  const { csrf } = (await res.json()) as { csrf: string };
  return { cookie: cookie.split(';')[0]!, csrf, setCookie: cookie };
}

describe('options', () => {
  it('names the bad option', () => {
    const mqtt = { url: 'mqtt://127.0.0.1:1883' };
    const venue = { username: 'v', passwordHash: 'scrypt$1024$8$1$AAAA$BBBB' };
    expect(() => createWebPanel({ mqtt, venue, port: -1 })).toThrow(/options\.port: /);
    expect(() => createWebPanel({ mqtt, venue: { username: 'v', passwordHash: 'plain' } })).toThrow(/options\.venue\.passwordHash: /);
    expect(() => createWebPanel({ mqtt: { url: 'http://x' }, venue })).toThrow(/options\.mqtt\.url: a broker URL/);
    expect(() => createWebPanel({ mqtt, venue, colour: 'red' } as never)).toThrow(/colour/);
    expect(() => createWebPanel({ mqtt, venue, requestTimeoutMs: 0 })).toThrow(/requestTimeoutMs/);
    // A given client must have what the panel calls (an in-process client once lacked unsubscribe).
    const noUnsubscribe = { on() {}, off() {}, subscribe() {}, publishAsync: async () => undefined, connected: true };
    expect(() => createWebPanel({ mqtt: { client: noUnsubscribe as never }, venue })).toThrow(/options\.mqtt.*unsubscribeAsync/);
  });

  it('construction has no side effects: nothing listens or connects', async () => {
    const p = createWebPanel({ mqtt: { url: 'mqtt://127.0.0.1:1' }, venue: { username: 'v', passwordHash }, port: 0 });
    const res = await p.app.request('/healthz');
    expect(res.status).toBe(503);
    await p.stop();
  });

  it('hashPassword makes a scrypt hash that verifies', async () => {
    expect(passwordHash).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('s3cret-venue', passwordHash)).toBe(true);
    expect(await verifyPassword('wrong', passwordHash)).toBe(false);
  });
});

describe('API', () => {
  it('serves table states and 404s unknown tables as JSON', async () => {
    const { app, stub } = await panel();
    expect(await (await app.request('/api/tables')).json()).toEqual([]);
    stub.deliver('billiards/tables/3/state', sampleState('3'));
    stub.deliver('billiards/tables/1/state', sampleState('1', { hub: 'other' }));
    stub.deliver('billiards/tables/9/state', '{not json');
    const all = (await (await app.request('/api/tables')).json()) as { table: string }[];
    expect(all.map((s) => s.table)).toEqual(['1', '3']);
    const one = await app.request('/api/tables/3');
    expect(one.status).toBe(200);
    expect(((await one.json()) as { players: unknown[] }).players).toHaveLength(2);
    const missing = await app.request('/api/tables/42');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "unknown table '42'" });
    expect((await app.request('/api/tables/bad%20id')).status).toBe(404);
    const nowhere = await app.request('/no/such/page');
    expect(nowhere.status).toBe(404);
    expect(((await nowhere.json()) as { error: string }).error).toMatch(/not found/);
  });

  it('healthz reflects the broker link and the health callback', async () => {
    let ok = true;
    const { app, stub } = await panel({ health: () => ({ ok, store: ok ? 'ok' : 'disk full' }) });
    const good = await app.request('/healthz');
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({ status: 'ok', store: 'ok', broker: 'connected' });
    ok = false;
    const bad = await app.request('/healthz');
    expect(bad.status).toBe(503);
    expect(await bad.json()).toMatchObject({ store: 'disk full', error: expect.any(String) });
    ok = true;
    stub.connected = false;
    expect((await app.request('/healthz')).status).toBe(503);
  });

  it('sets secure headers with a CSP that allows only self', async () => {
    const { app } = await panel();
    for (const path of ['/', '/api/tables', '/login', '/nope']) {
      const res = await app.request(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    }
  });

  it('pages carry no inline script and no external URL', async () => {
    const { app, stub } = await panel();
    stub.deliver('billiards/tables/1/state', sampleState('1'));
    const s = await login(app);
    for (const path of ['/', '/tables/1', '/overlay/1', '/login', '/referee/1', '/hardware/1']) {
      const res = await app.request(path, { headers: { cookie: s.cookie } });
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html).not.toMatch(/<script(?![^>]*(src="\/static\/|type="application\/json"))/);
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
      expect(html).not.toMatch(/ style="/);
    }
    const board = await (await app.request('/tables/1')).text();
    expect(board).toContain('Ana');
    expect(board).not.toContain('TC-1');
    expect(board).toContain('<h1');
    expect(board).toContain('aria-live="polite"');
  });
});

describe('hardware page', () => {
  it('names each channel by the rail the table config puts it behind (published as `rails`), in both languages', async () => {
    const { app, stub } = await panel();
    stub.deliver('billiards/tables/1/state', sampleState('1', { rails: { '0': 'foot', '1': 'head', '3': 'left', '5': 'right' } }));
    const s = await login(app);
    const en = await (await app.request('/hardware/1?lang=en', { headers: { cookie: s.cookie } })).text();
    expect(en).toContain('<td>piezo 3 (left rail)</td>');
    expect(en).toContain('<td>piezo 0 (foot rail)</td>');
    expect(en).toContain('<td>piezo 2 (not wired to a rail)</td>');
    expect(en).not.toContain('piezo 3 (right rail)');
    expect(en).toContain('<td>ball contact (click)</td>');
    const ru = await (await app.request('/hardware/1?lang=ru', { headers: { cookie: s.cookie } })).text();
    expect(ru).toContain('<td>пьезодатчик 3 (левый борт)</td>');
    // Before the hub has said (no state yet): the default wiring.
    const none = await (await app.request('/hardware/2?lang=en', { headers: { cookie: s.cookie } })).text();
    expect(none).toContain('<td>piezo 3 (right rail)</td>');
  });
});

describe('auth', () => {
  it('console and hardware pages redirect to the login page', async () => {
    const { app } = await panel();
    for (const path of ['/referee/1', '/hardware/1']) {
      const res = await app.request(path);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
  });

  it('state-changing APIs need a session', async () => {
    const { app, stub } = await panel();
    stub.answerAll();
    const res = await app.request('/api/tables/1/referee', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ referee: { action: 'undo' } }) });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'log in first' });
    expect((await app.request('/api/tables/1/export?format=csv')).status).toBe(401);
    expect(stub.published).toHaveLength(0);
  });

  it('a good login sets a HttpOnly SameSite=Strict session cookie; a bad one is refused', async () => {
    const { app } = await panel();
    const bad = await app.request('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'venue', password: 'nope' }) });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('set-cookie')).toBeNull();
    const form = await app.request('/login', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=venue&password=s3cret-venue&next=%2Freferee%2F1' });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/referee/1');
    const s = await login(app);
    expect(s.setCookie).toMatch(/HttpOnly/);
    expect(s.setCookie).toMatch(/SameSite=Strict/);
    expect((await app.request('/referee/1', { headers: { cookie: s.cookie } })).status).toBe(200);
    // An open redirect is refused.
    const evil = await app.request('/login', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=venue&password=s3cret-venue&next=%2F%2Fevil.example' });
    expect(evil.headers.get('location')).toBe('/');
  });

  it('sessions expire', async () => {
    let now = 1_000_000;
    const { app } = await panel({ clock: () => now, sessionTtlMs: 60_000 });
    const s = await login(app);
    now += 61_000;
    expect((await app.request('/referee/1', { headers: { cookie: s.cookie } })).status).toBe(303);
  });

  it('logout ends the session', async () => {
    const { app } = await panel();
    const s = await login(app);
    const out = await app.request('/logout', { method: 'POST', headers: { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: `csrf=${encodeURIComponent(s.csrf)}` });
    expect(out.status).toBe(303);
    expect((await app.request('/referee/1', { headers: { cookie: s.cookie } })).status).toBe(303);
  });

  it('CSRF: a missing or wrong token, or a foreign Origin, is refused', async () => {
    const { app, stub } = await panel();
    stub.answerAll();
    const s = await login(app);
    const post = (headers: Record<string, string>) =>
      app.request('/api/tables/1/referee', { method: 'POST', headers: { 'content-type': 'application/json', cookie: s.cookie, ...headers }, body: JSON.stringify({ referee: { action: 'undo' } }) });
    expect((await post({})).status).toBe(403);
    expect((await post({ 'x-csrf-token': 'forged' })).status).toBe(403);
    expect((await post({ 'x-csrf-token': s.csrf, origin: 'http://evil.example' })).status).toBe(403);
    expect(stub.published).toHaveLength(0);
    const ok = await post({ 'x-csrf-token': s.csrf, origin: 'http://localhost' });
    expect(ok.status).toBe(200);
    expect(stub.published).toHaveLength(1);
  });

  it('behind a trusted proxy, the origin and the Secure flag follow X-Forwarded-Proto/Host', async () => {
    const { app, stub } = await panel({ trustProxy: true });
    stub.answerAll();
    const fwd = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'club.example' };
    const res = await app.request('/login', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://club.example', ...fwd }, body: JSON.stringify({ username: 'venue', password: 's3cret-venue' }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/Secure/);
    const { csrf } = (await res.json()) as { csrf: string };
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const post = (origin: string) =>
      app.request('/api/tables/1/referee', { method: 'POST', headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf, origin, ...fwd }, body: JSON.stringify({ referee: { action: 'undo' } }) });
    expect((await post('https://club.example')).status).toBe(200);
    expect((await post('http://club.example')).status).toBe(403);
  });

  it('login attempts are limited per client IP', async () => {
    const { app } = await panel({ trustProxy: true });
    const attempt = (ip: string, password = 'wrong') =>
      app.request('/login', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify({ username: 'venue', password }) });
    for (let i = 0; i < 5; i++) expect((await attempt('10.0.0.1')).status).toBe(401);
    const limited = await attempt('10.0.0.1', 's3cret-venue');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await limited.json()) as { error: string }).error).toMatch(/too many/);
    expect((await attempt('10.0.0.2', 's3cret-venue')).status).toBe(200);
  });
});

describe('commands over MQTT', () => {
  it('forwards a validated command with a transaction id and no password (the broker login is the authority)', async () => {
    const { app, stub } = await panel();
    stub.answerAll((command) => ({ data: { command } }));
    const s = await login(app);
    const res = await app.request('/api/tables/7/match', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: s.cookie, 'x-csrf-token': s.csrf },
      body: JSON.stringify({ variant: 'three-cushion', players: ['Ana', 'Ben'], target: 15 }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, data: { command: 'match/start' } });
    const sent = stub.published[0]!;
    expect(sent.topic).toBe('billiards/request/match/start');
    expect(JSON.parse(sent.payload)).toMatchObject({ table: '7', variant: 'three-cushion', transaction: expect.any(String) });
    expect(sent.payload).not.toContain('s3cret-venue');
    expect(JSON.parse(sent.payload)).not.toHaveProperty('password');
  });

  it('rejects bad bodies with a 400 naming the field, before anything is sent', async () => {
    const { app, stub } = await panel();
    const s = await login(app);
    const post = (path: string, body: string) => app.request(`/api/tables/1/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: s.cookie, 'x-csrf-token': s.csrf }, body });
    const a = await post('match', JSON.stringify({ variant: 'carom', players: ['Solo'], target: 10 }));
    expect(a.status).toBe(400);
    expect(((await a.json()) as { error: string }).error).toMatch(/^players/);
    const b = await post('shot', '{nope');
    expect(b.status).toBe(400);
    expect(await b.json()).toEqual({ error: 'the body must be a JSON object' });
    const c = await post('referee', JSON.stringify({ referee: { action: 'adjust', player: 'Ana', delta: 1, reason: ' ' } }));
    expect(c.status).toBe(400);
    const d = await post('thresholds', JSON.stringify({ channels: [{ channel: 9, threshold: 10, refractoryMs: 5 }] }));
    expect(((await d.json()) as { error: string }).error).toMatch(/channels\[0\]\.channel/);
    const e = await post('shot', JSON.stringify({ shot: { events: [] }, password: 'x' }));
    expect(((await e.json()) as { error: string }).error).toMatch(/password/);
    expect(stub.published).toHaveLength(0);
  });

  it('refuses oversized bodies with 413 JSON', async () => {
    const { app } = await panel();
    const res = await app.request('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'x'.repeat(300_000), password: 'y' }) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toMatch(/too large/);
  });

  it('answers 504 JSON when the hub does not answer in time, 422 with the hub error', async () => {
    const { app, stub } = await panel();
    const s = await login(app);
    const post = () => app.request('/api/tables/1/referee', { method: 'POST', headers: { 'content-type': 'application/json', cookie: s.cookie, 'x-csrf-token': s.csrf }, body: JSON.stringify({ referee: { action: 'undo' } }) });
    const slow = await post();
    expect(slow.status).toBe(504);
    expect(await slow.json()).toEqual({ error: 'the hub did not answer match/referee within 300 ms' });
    stub.answerAll(() => ({ error: 'undo: nothing to undo' }));
    const refused = await post();
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ error: 'undo: nothing to undo' });
    stub.connected = false;
    expect((await post()).status).toBe(503);
  });

  it('exports the match log as a download', async () => {
    const { app, stub } = await panel();
    stub.answerAll((_c, body) => ({ data: { format: body.format, content: 'shot,shooter\n1,Ana\n' } }));
    const s = await login(app);
    const res = await app.request('/api/tables/1/export?format=csv', { headers: { cookie: s.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="table-1.csv"');
    expect(await res.text()).toBe('shot,shooter\n1,Ana\n');
    expect((await app.request('/api/tables/1/export?format=xml', { headers: { cookie: s.cookie } })).status).toBe(400);
  });
});

describe('server', () => {
  it('a port already taken rejects with a one-line message', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    const p = createWebPanel({ mqtt: { client: new StubClient().asClient() }, port, venue: { username: 'v', passwordHash } });
    await expect(p.start()).rejects.toThrow(new RegExp(`^web panel: cannot listen on 127\\.0\\.0\\.1:${port}: address already in use$`));
    await p.stop();
    blocker.close();
  });

  it('streams state changes over SSE', async () => {
    const { p, stub } = await panel();
    stub.deliver('billiards/tables/5/state', sampleState('5'));
    const res = await p.app.request('/events/5?view=scoreboard');
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('event: state')) text += new TextDecoder().decode((await reader.read()).value);
    stub.deliver('billiards/tables/5/state', sampleState('5', { seq: 8, players: [{ name: 'Ana', score: 13, innings: 9, highRun: 4, average: 1.444, run: 3, target: 40 }, { name: 'Ben', score: 9, innings: 8, highRun: 3, average: 1.125, run: 0, target: 40 }] }));
    while (!text.includes('"seq":8')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('data-score=\\"13\\"');
    await reader.cancel();
  });

  it('streams the followed table\'s sensor events in order, a turn\'s in one write; a rendered view leaves the vibration frames out', async () => {
    const { p, stub } = await panel();
    stub.deliver('billiards/tables/5/state', sampleState('5'));
    const sensor = (table: string, sensor: string, seq: number, more: Record<string, unknown> = {}) => ({ type: 'sensor', table, at: '2026-12-01T00:00:00.000Z', hubTime: seq, boardUs: seq * 1000, seq, sensor, ...more });
    const open = async (url: string) => {
      const reader = (await p.app.request(url)).body!.getReader();
      let text = '';
      while (!text.includes('event: state')) text += new TextDecoder().decode((await reader.read()).value);
      return { reader, read: async () => new TextDecoder().decode((await reader.read()).value) };
    };
    const raw = await open('/events/5');
    const scoreboard = await open('/events/5?view=scoreboard');
    stub.deliver('billiards/tables/5/events', sensor('5', 'rail-hit', 1, { channel: 0, rail: 'head', amplitude: 120 }));
    stub.deliver('billiards/tables/6/events', sensor('6', 'rail-hit', 2, { channel: 0, rail: 'head', amplitude: 120 }));
    stub.deliver('billiards/tables/5/events', sensor('5', 'vibration', 3, { level: 90 }));
    stub.deliver('billiards/tables/5/events', { ...sensor('5', 'click', 4, { amplitude: 'loud' }) }); // refused: not a number
    stub.deliver('billiards/tables/5/events', sensor('5', 'click', 5, { amplitude: 80 }));
    const seqs = (text: string) => [...text.matchAll(/"seq":(\d+)/g)].map((m) => Number(m[1]));
    const all = await raw.read(); // one write holds the whole turn
    expect(seqs(all)).toEqual([1, 3, 5]);
    expect(all.match(/event: table-event\ndata: \{[^\n]*\}\n\n/g)).toHaveLength(3);
    expect(seqs(await scoreboard.read())).toEqual([1, 5]);
    await raw.reader.cancel();
    await scoreboard.reader.cancel();
  });

  it('the venue overview stream carries states only: no table events', async () => {
    const { p, stub } = await panel();
    stub.deliver('billiards/tables/5/state', sampleState('5'));
    const reader = (await p.app.request('/events?view=overview')).body!.getReader();
    let text = '';
    while (!text.includes('event: state')) text += new TextDecoder().decode((await reader.read()).value);
    stub.deliver('billiards/tables/5/events', { type: 'sensor', table: '5', at: '2026-12-01T00:00:00.000Z', hubTime: 1, boardUs: 1000, seq: 1, sensor: 'rail-hit', channel: 0, amplitude: 120 });
    stub.deliver('billiards/tables/5/state', sampleState('5', { seq: 9 }));
    text = '';
    while (!text.includes('event: state')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).not.toContain('table-event');
    await reader.cancel();
  });
});
