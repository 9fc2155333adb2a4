import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebPanel, hashPassword, type WebPanel } from '../../web/index.ts';
import { ManualClock, startTestHub, VENUE_PASSWORD, type TestHub } from '../hub/support.ts';
import { componentMissing, executableExists } from '../support/components.ts';
import { REPO_ROOT } from '../support/paths.ts';

/** The league pages against the real hub: admin forms, the API, CSV, and the club TV in Chromium. */
const CHROMIUM = '/usr/bin/chromium';
const noChromium = componentMissing('Debian chromium at /usr/bin/chromium', executableExists(CHROMIUM));
const SCREENS = join(REPO_ROOT, 'test-artifacts', 'screens');
const scoring = { events: [{ kind: 'ball', balls: ['white', 'red'] }, { kind: 'ball', balls: ['white', 'yellow'] }] };

describe('house league in the web panel', () => {
  let t: TestHub;
  let panel: WebPanel;
  let base = '';
  let cookie = '';
  let csrf = '';

  beforeAll(async () => {
    const clock = new ManualClock();
    clock.t = Date.parse('2026-11-30T19:30:00Z');
    t = await startTestHub({ clock });
    panel = createWebPanel({ mqtt: { url: t.hub.mqttUrl, username: 'referee', password: VENUE_PASSWORD }, port: 0, venue: { username: 'venue', passwordHash: await hashPassword(VENUE_PASSWORD, { N: 1024 }) }, requestTimeoutMs: 3000 });
    base = (await panel.start()).url;
    const res = await panel.app.request('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'venue', password: VENUE_PASSWORD }) });
    cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    csrf = ((await res.json()) as { csrf: string }).csrf;
    // Connected and subscribed once the hub's retained league state has arrived.
    for (let i = 0; i < 100 && (await panel.app.request('/api/league')).status !== 200; i++) await new Promise((r) => setTimeout(r, 50));
  });

  afterAll(async () => {
    await panel?.stop();
    await t?.hub.stop();
  });

  const form = (action: string, fields: Record<string, string>) =>
    panel.app.request(`/league/admin/${action}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: new URLSearchParams({ csrf, ...fields }).toString() });
  const api = (path: string, body: unknown) => panel.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf }, body: JSON.stringify(body) });
  const leagueState = async () => (await (await panel.app.request('/api/league')).json()) as any;

  it('admin forms set up a season and its fixtures; a table plays one; pages, CSV and the TV show it', async () => {
    // Forms: refused without the CSRF token, errors name the field, nothing applied.
    const noToken = await panel.app.request('/league/admin/setup', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: 'id=x' });
    expect(noToken.status).toBe(403);
    const bad = await form('setup', { id: 'w26', name: 'Winter', discipline: 'carom', target: '0', win: '2', draw: '1', loss: '0', players: 'Ana\nBen' });
    expect(bad.status).toBe(303);
    expect(decodeURIComponent(bad.headers.get('location')!)).toContain('season.target');

    const ok = await form('setup', { id: 'w26', name: 'Winter league', discipline: 'carom', target: '3', win: '2', draw: '1', loss: '0', hInnings: '', players: 'Ana Alvarez\nBen Brook\nCid Cole\nDee Dunn\nEve Eder' });
    expect(decodeURIComponent(ok.headers.get('location')!)).toContain('ok=league/setup');
    const gen = await form('generate', { season: 'w26', startDate: '2026-11-30', daysBetweenRounds: '7' });
    expect(decodeURIComponent(gen.headers.get('location')!)).toContain('ok=');
    await expect.poll(async () => (await leagueState()).seasons?.[0]?.fixtureCount, { timeout: 3000 }).toBe(10);
    const admin = await (await panel.app.request('/league/admin', { headers: { cookie } })).text();
    expect(admin).toContain('w26-r1-1');
    expect((await panel.app.request('/league/admin')).status).toBe(303); // login first

    // Start today's first fixture on table t1 (JSON API), play it out through the panel's console API.
    const today = (await leagueState()).todayFixtures;
    expect(today).toHaveLength(2);
    const [f1, f2] = today;
    const started = await api('/api/league/start-fixture', { table: 't1', fixture: f1.id });
    expect(started.status, await started.clone().text()).toBe(200);
    await expect.poll(async () => (await (await panel.app.request('/api/tables/t1')).json()).match?.players, { timeout: 3000 }).toEqual([f1.home, f1.away]);
    for (let i = 0; i < 3; i++) expect((await api('/api/tables/t1/shot', { shot: scoring })).status).toBe(200);
    await expect.poll(async () => (await leagueState()).recentResults.length, { timeout: 3000 }).toBe(1);
    const standings = (await leagueState()).seasons[0].standings;
    expect(standings[0]).toMatchObject({ player: f1.home, won: 1, points: 2, score: 3 });

    // A correction through the form; the reason and the user are kept.
    const corr = await form('result', { fixture: f1.id, homeScore: '3', homeInnings: '2', homeHighRun: '2', awayScore: '1', awayInnings: '2', awayHighRun: '1', winner: 'home', reason: 'innings miscounted' });
    expect(decodeURIComponent(corr.headers.get('location')!)).toContain('ok=league/result');
    await expect.poll(async () => (await leagueState()).recentResults[0]?.version, { timeout: 3000 }).toBe(2);
    const noReason = await api('/api/league/result', { fixture: f1.id, home: { score: 1, innings: 1, highRun: 1 }, away: { score: 0, innings: 1, highRun: 0 }, winner: 'home', reason: '' });
    expect(noReason.status).toBe(400);
    expect(((await noReason.json()) as { error: string }).error).toMatch(/^reason: /);

    const csv = await panel.app.request('/api/league/results.csv');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = (await csv.text()).trim().split('\n');
    expect(rows).toHaveLength(3);
    expect(rows[2]).toContain('venue,innings miscounted');
    expect((await (await panel.app.request('/api/league/standings.csv')).text()).split('\n')[1]).toContain(`w26,1,${f1.home}`);
    const results = await (await panel.app.request('/league/results')).text();
    expect(results).toContain('corrected (v2): innings miscounted');

    // The second fixture goes on the table and stays live for the TV.
    expect((await api('/api/league/start-fixture', { table: 't1', fixture: f2.id })).status).toBe(200);
    await expect.poll(async () => (await leagueState()).live.length, { timeout: 3000 }).toBe(1);
    expect((await api('/api/tables/t1/shot', { shot: scoring })).status).toBe(200);
    const tv = await (await panel.app.request('/league')).text();
    expect(tv).toContain('Winter league');
    expect(tv).not.toMatch(/<style|style=|<script>/);
  });

  it('reads only well-formed league states; CSV season ids are checked', async () => {
    const { LeagueCache } = await import('../../web/league-store.ts');
    const cache = new LeagueCache();
    expect(cache.ingest('{nope')).toBe(false);
    expect(cache.ingest(JSON.stringify({ seq: 1 }))).toBe(false);
    expect(cache.state).toBeNull();
    expect((await panel.app.request('/api/league/standings.csv?season=../x')).status).toBe(400);
    const one = await panel.app.request('/api/league/standings.csv?season=w26');
    expect((await one.text()).startsWith('season,rank,player')).toBe(true);
    const unknown = await panel.app.request('/api/league/standings.csv?season=zz');
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as { error: string }).error).toBe("season: no season 'zz'");
  });

  it.skipIf(noChromium)('the club TV in Chromium: standings first, then it rotates', async () => {
    mkdirSync(SCREENS, { recursive: true });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${base}/league?rotate=3`); // the shortest pace, to keep the test short (10 s by default)
      const active = page.locator('.lg-page.active');
      await expect.poll(() => active.count()).toBe(1);
      expect(await active.locator('h1').textContent()).toContain('Winter league');
      expect(await active.locator('tbody tr').count()).toBe(5);
      const size = await active.locator('tbody td').first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      expect(size).toBeGreaterThanOrEqual(24); // readable from across the room
      await page.screenshot({ path: join(SCREENS, 'league.png') });
      await page.waitForFunction(() => document.body.dataset.page === 'today', undefined, { timeout: 6_000 });
      expect(await page.locator('.lg-page.active .lg-fixture').count()).toBe(2);
      await page.screenshot({ path: join(SCREENS, 'league-today.png') });
      const live = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      await live.goto(`${base}/league?page=live&rotate=0`);
      await live.waitForFunction(() => document.body.dataset.page === 'live');
      expect(await live.locator('.lg-page.active .lg-table.league li').count()).toBe(2);
      await live.screenshot({ path: join(SCREENS, 'league-live.png') });
      const adminContext = await browser.newContext({ viewport: { width: 1100, height: 1500 } });
      const [name, value] = cookie.split('=') as [string, string];
      await adminContext.addCookies([{ name, value, url: base }]);
      const admin = await adminContext.newPage();
      await admin.goto(`${base}/league/admin`);
      expect(await admin.locator('form.lg-form').count()).toBe(4);
      await admin.screenshot({ path: join(SCREENS, 'league-admin.png'), fullPage: true });
      expect(errors).toEqual([]);
      const print = await browser.newPage({ viewport: { width: 1000, height: 1200 } });
      await print.goto(`${base}/league/results`);
      await print.emulateMedia({ media: 'print' });
      expect(await print.locator('.topnav').isVisible()).toBe(false);
      await print.screenshot({ path: join(SCREENS, 'league-results-print.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  }, 30_000);
});
