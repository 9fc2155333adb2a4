import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebPanel, hashPassword, type WebPanel } from '../../web/index.ts';
import { componentMissing, executableExists } from '../support/components.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { startFakeHub, type FakeHub } from './support/fake-hub.ts';

/**
 * End to end in Debian's headless Chromium, against an embedded aedes broker on loopback
 * and the fake hub: log in, start a match, feed shots, watch the scoreboard, answer a
 * prompt, undo. Screenshots land in test-artifacts/screens/.
 */
const CHROMIUM = '/usr/bin/chromium';
const skip = componentMissing('Debian chromium at /usr/bin/chromium', executableExists(CHROMIUM));
const SCREENS = join(REPO_ROOT, 'test-artifacts', 'screens');
const PASSWORD = 'club-night-42';

const scoring = {
  events: [
    { kind: 'ball' as const, balls: ['white', 'red'] as [string, string], t: 120 },
    { kind: 'cushion' as const, rail: 'foot' as const, ball: 'white', t: 600 },
    { kind: 'cushion' as const, rail: 'left' as const, ball: 'white', t: 1100 },
    { kind: 'cushion' as const, rail: 'head' as const, ball: 'white', t: 1900 },
    { kind: 'ball' as const, balls: ['white', 'yellow'] as [string, string], t: 2600 },
  ],
};
const ambiguous = {
  events: [
    { kind: 'ball' as const, balls: ['white', 'red'] as [string, string], t: 100 },
    { kind: 'cushion' as const, rail: 'foot' as const, ball: null, t: 500 },
    { kind: 'cushion' as const, rail: 'left' as const, ball: null, t: 900 },
    { kind: 'cushion' as const, rail: 'head' as const, ball: null, t: 1500 },
    { kind: 'ball' as const, balls: ['white', 'yellow'] as [string, string], t: 2200 },
  ],
};

describe.skipIf(skip)('web panel in Chromium', () => {
  let broker: { close(cb?: () => void): void; handle: (socket: never) => void };
  let mqttServer: Server;
  let hub: FakeHub;
  let panel: WebPanel;
  let base = '';
  let browser: Browser;
  let mqttUrl = '';
  let passwordHash = '';

  beforeAll(async () => {
    mkdirSync(SCREENS, { recursive: true });
    const { Aedes } = await import('aedes');
    broker = (await Aedes.createBroker()) as unknown as typeof broker;
    mqttServer = createServer(broker.handle as never);
    await new Promise<void>((r) => mqttServer.listen(0, '127.0.0.1', r));
    mqttUrl = `mqtt://127.0.0.1:${(mqttServer.address() as { port: number }).port}`;
    passwordHash = await hashPassword(PASSWORD, { N: 1024 });
    hub = await startFakeHub({ url: mqttUrl, password: PASSWORD });
    panel = createWebPanel({ mqtt: { url: mqttUrl }, port: 0, venue: { username: 'referee', passwordHash }, requestTimeoutMs: 3000 });
    base = (await panel.start()).url;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    // A second hub's table, with link trouble, and a skittles table drawn from a hand-made state.
    await hub.publishAvailability('1', 'online');
    await hub.publishHealth('1', { framesDropped: 0 });
    await hub.publishAvailability('2', 'offline');
    await hub.publishHealth('2', { link: 'down', framesDropped: 17, alerts: [{ kind: 'silent-rail', detail: 'no hit on the foot rail for 40 shots', since: new Date().toISOString() }] });
    await hub.client.publishAsync('billiards/hubs/annex/state', JSON.stringify({ state: 'offline', tables: ['2'] }), { qos: 1, retain: true });
    await hub.client.publishAsync('billiards/hubs/test/state', JSON.stringify({ state: 'online', tables: ['1'] }), { qos: 1, retain: true });
    await hub.publishState('2', {
      variant: 'skittles-5',
      family: 'skittles-5',
      scoring: 'count-up',
      status: 'playing',
      winner: null,
      turn: 'Cleo',
      hub: 'annex',
      simulated: true,
      players: [
        { name: 'Cleo', score: 6, innings: 3, highRun: 4, average: 2, run: 2, target: 30 },
        { name: 'Dan', score: 4, innings: 2, highRun: 4, average: 2, run: 0, target: 30 },
      ],
      prompt: null,
      shots: [{ shooter: 'Cleo', points: 4, foul: null, rules: ['SK5-3a', 'SK5-6'], turnPasses: false, cueBall: 'cue' }],
      cueBall: 'cue',
      endRule: null,
      instructions: [{ item: 'head', to: 'its spot', rule: 'SK5-16' }, { item: 'left', to: 'its spot', rule: 'SK5-16' }],
    });
    await hub.client.publishAsync(
      'billiards/tables/2/events',
      JSON.stringify({ type: 'shot', table: '2', at: new Date().toISOString(), result: null, prompt: false, events: [{ kind: 'ball', balls: ['cue', 'one'], t: 80 }, { kind: 'cushion', rail: 'left', ball: 'one', t: 700 }, { kind: 'skittle', skittle: 'head', by: 'one', t: 1200 }, { kind: 'skittle', skittle: 'left', by: 'one', t: 1350 }] }),
    );
  });

  afterAll(async () => {
    await browser?.close();
    await panel?.stop();
    await hub?.stop();
    await new Promise<void>((r) => (mqttServer ? mqttServer.close(() => r()) : r()));
    await new Promise<void>((r) => (broker ? broker.close(() => r()) : r()));
  });

  const shot = async (page: Page, name: string) => page.screenshot({ path: join(SCREENS, `${name}.png`) });
  const scoreOf = (page: Page, player: string) => page.locator(`#live .player[data-player="${player}"] .score`);
  const undo = async (page: Page) => {
    await page.click('#undo');
    await page.click('#undo-confirm:not([hidden]) #undo-yes');
  };

  it('referee logs in, starts a match; the scoreboard follows live; a prompt is answered; undo', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    const ref = await ctx.newPage();
    ref.setDefaultTimeout(5000);
    ref.on('pageerror', (e) => console.log('pageerror:', e.message));
    await ref.goto(`${base}/referee/1`);
    expect(new URL(ref.url()).pathname).toBe('/login');
    await shot(ref, 'login');
    await ref.fill('input[name=username]', 'referee');
    await ref.fill('input[name=password]', PASSWORD);
    await ref.click('button[type=submit]');
    await ref.waitForURL(`${base}/referee/1`);

    await ref.selectOption('#start-form select[name=variant]', 'three-cushion');
    await ref.fill('#start-form input[name=target]', '3');
    await ref.fill('#start-form input[name=p1]', 'Ana');
    await ref.fill('#start-form input[name=p2]', 'Ben');
    await ref.click('#start-form button[type=submit]');
    await ref.locator('#toast.ok').waitFor();
    await ref.locator('#live .score-table').waitFor();

    const tv = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
    await tv.goto(`${base}/tables/1?clock=40&ext=1`);
    await expect.poll(() => scoreOf(tv, 'Ana').textContent()).toBe('0');

    // A scoring shot from the "sensors": the scoreboard changes without a reload.
    expect(await hub.feedShot('1', scoring)).toBeNull();
    await expect.poll(() => scoreOf(tv, 'Ana').textContent(), { timeout: 3000 }).toBe('1');
    await expect.poll(() => tv.locator('.lastshot').textContent()).toContain('Ana scores 1');
    expect(await tv.locator('.timeline-svg.wide .tl-mark').count()).toBe(5);
    await tv.locator('#shotclock:not([hidden])').waitFor();
    await shot(tv, 'scoreboard-tv');

    // An undetermined shot: the console shows the evidence and the options.
    expect(await hub.feedShot('1', ambiguous)).toBeNull();
    await ref.locator('#prompt').waitFor();
    expect(await ref.locator('#prompt .evidence li.unknown').count()).toBe(3);
    await expect.poll(() => tv.locator('.banner.ref').count()).toBe(1);
    await shot(ref, 'referee-prompt');
    await ref.setViewportSize({ width: 800, height: 1280 });
    await shot(ref, 'referee-prompt-tablet');
    await ref.setViewportSize({ width: 1440, height: 1000 });
    await shot(tv, 'scoreboard-prompt');
    await ref.click('#prompt button[data-ruling="score"]');
    await expect.poll(() => scoreOf(tv, 'Ana').textContent(), { timeout: 3000 }).toBe('2');
    await expect.poll(() => ref.locator('#prompt').count()).toBe(0);

    // Undo the ruling: back to the prompt; undo again: back to 1.
    await undo(ref);
    await expect.poll(() => scoreOf(tv, 'Ana').textContent(), { timeout: 3000 }).toBe('1');
    await ref.locator('#prompt').waitFor();
    await undo(ref);
    await expect.poll(() => ref.locator('#prompt').count(), { timeout: 3000 }).toBe(0);
    expect(await scoreOf(tv, 'Ana').textContent()).toBe('1');

    // A foul entered for the next shot reaches the hub.
    await ref.selectOption('#next-form select[name=foul]', 'touch');
    await ref.click('#next-form button[type=submit]');
    await ref.locator('#live .pending').waitFor();
    expect(hub.requests.at(-1)?.command).toBe('match/next-shot');

    // An adjustment with a reason.
    await ref.selectOption('#adjust-form select[name=player]', 'Ben');
    await ref.fill('#adjust-form input[name=delta]', '1');
    await ref.fill('#adjust-form input[name=reason]', 'scorer error');
    await ref.click('#adjust-form button[type=submit]');
    await expect.poll(() => scoreOf(tv, 'Ben').textContent(), { timeout: 3000 }).toBe('1');
    await shot(ref, 'referee-console');
    await shot(tv, 'scoreboard-tv-after');

    // Export as a download.
    const dl = await ref.request.get(`${base}/api/tables/1/export?format=csv`);
    expect(dl.status()).toBe(200);
    expect(await dl.text()).toMatch(/^shot,shooter,points,foul,rules\n1,Ana,1,,TC-1 TC-2\n/);

    // Ben forfeits: the scoreboard shows the winner.
    ref.on('dialog', (d) => void d.accept());
    await ref.selectOption('#forfeit-form select[name=player]', 'Ben');
    await ref.click('#forfeit-form button[type=submit]');
    await tv.locator('.banner.end').waitFor();
    expect(await tv.locator('.banner.end').textContent()).toContain('Ana wins');
    await shot(tv, 'scoreboard-finished');
    await undo(ref);
    await expect.poll(() => tv.locator('.banner.end').count(), { timeout: 3000 }).toBe(0);

    // Portrait tablet and the mirrored layout.
    const tab = await (await browser.newContext({ viewport: { width: 800, height: 1280 } })).newPage();
    await tab.goto(`${base}/tables/1`);
    await scoreOf(tab, 'Ana').waitFor();
    await shot(tab, 'scoreboard-tablet');
    await tv.goto(`${base}/tables/1?mirror=1`);
    await scoreOf(tv, 'Ana').waitFor();
    await shot(tv, 'scoreboard-mirror');
    await ctx.close();
  });

  it('displays are read-only: no controls and the API refuses them', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
    await page.goto(`${base}/`);
    await page.locator('.tcard[data-table="2"]').waitFor();
    expect(await page.locator('.tcard[data-table="2"] .alert').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('.tcard[data-table="2"] .alert-hub-offline').count()).toBe(1);
    expect(await page.locator('.tcard[data-table="2"] .badge.sim').count()).toBe(1);
    await shot(page, 'overview');
    for (const path of ['/tables/1', '/overlay/1', '/']) {
      await page.goto(`${base}${path}`);
      expect(await page.locator('form, button, input').count(), path).toBe(0);
      const status = await page.evaluate(async () => {
        const r = await fetch('/api/tables/1/referee', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ referee: { action: 'undo' } }) });
        return r.status;
      });
      expect(status).toBe(401);
    }
    await page.goto(`${base}/tables/2`);
    await page.locator('.skittles-svg .pin.down').first().waitFor();
    expect(await page.locator('.skittles-svg .pin.down').count()).toBe(2);
    await shot(page, 'scoreboard-skittles');
    const overlay = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
    await overlay.goto(`${base}/overlay/1`);
    await overlay.locator('.sb.compact').waitFor();
    expect(await overlay.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
    await overlay.screenshot({ path: join(SCREENS, 'overlay.png'), omitBackground: true });
  });

  it('hardware page lights rails as hits arrive and runs the tap test', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 1100 } })).newPage();
    await page.goto(`${base}/login?next=/hardware/1`);
    await page.fill('input[name=username]', 'referee');
    await page.fill('input[name=password]', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/hardware/1`);
    await page.waitForFunction(() => document.body.dataset.live === 'open');
    // Noise floor first: two small hits on channel 0 while recording.
    await page.click('#noise-record');
    await hub.publishSensor('1', { sensor: 'rail-hit', rail: 'head', channel: 0, amplitude: 12 });
    await hub.publishSensor('1', { sensor: 'rail-hit', rail: 'head', channel: 0, amplitude: 21 });
    await expect.poll(() => page.locator('#hits-0').textContent()).toBe('2');
    await page.click('#noise-record');
    await page.click('#taptest-start');
    const rails = [["head", 0], ["foot", 1], ["left", 2], ["right", 3]] as const;
    for (const [rail, channel] of rails) {
      await page.locator(`#taptest li[data-rail="${rail}"].current`).waitFor();
      await hub.publishSensor('1', { sensor: 'rail-hit', rail, channel, amplitude: 90 + channel * 30 });
      await page.locator(`#taptest li[data-rail="${rail}"].pass`).waitFor();
    }
    await expect.poll(() => page.locator('#taptest-msg').textContent()).toContain('passed');
    // Proposals from the data: 2 × the noise peak (42) on channel 0, under 70 % of its knock (90 → 63).
    await page.click('#propose');
    expect(await page.locator('#proposal-0').textContent()).toBe('42');
    expect(await page.locator('input[name="threshold-0"]').inputValue()).toBe('42');
    expect(await page.locator('#rate-0').textContent()).toMatch(/^0 in \d+ s/);
    expect(await page.locator('#proposal-1').textContent()).toBe('15'); // no noise: the floor of 15
    await hub.publishSensor('1', { sensor: 'vibration', level: 60 });
    await hub.publishSensor('1', { sensor: 'click', amplitude: 140 });
    await hub.publishSensor('1', { sensor: 'skittle', skittle: 'king', state: 'down' });
    await hub.publishSensor('1', { sensor: 'rail-hit', rail: 'left', channel: 2, amplitude: 200 });
    await page.locator('#rail-left.hit').waitFor();
    // Which settings the board acknowledged (table health `board`).
    await hub.publishHealth('1', { board: { bootId: 7, confirmed: 2, pending: 1, rejected: 0, unsupported: 0, unconfirmed: ['channel 3'] } });
    await expect.poll(() => page.locator('#board-settings').textContent()).toContain('2 confirmed, 1 waiting for the board');
    expect(await page.locator('#board-settings').textContent()).toContain('Not in force: channel 3');
    // Who scores the table: camera alone is flagged (the board's hits decide nothing).
    await hub.publishHealth('1', { scoring: 'camera' });
    await expect.poll(() => page.locator('#scoring-mode').textContent()).toContain('Scoring: camera — the camera alone decides');
    expect(await page.locator('#scoring-mode').getAttribute('class')).toBe('warn');
    await hub.publishHealth('1', { scoring: 'camera+sensors' });
    await expect.poll(() => page.locator('#scoring-mode').textContent()).toBe('Scoring: camera + sensors');
    await expect.poll(() => page.locator('#hits-6').textContent()).toBe('1');
    expect(await page.locator('#amp-vibration').textContent()).toBe('60');
    await shot(page, 'hardware');
    await page.click('#thresholds-form button[type=submit]');
    await page.locator('#toast.ok').waitFor();
    expect(hub.requests.at(-1)?.command).toBe('table/thresholds');
  });

  it('?speak=1 calls the score out with speechSynthesis', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
    await page.addInitScript(() => {
      const said: string[] = [];
      (window as unknown as { said: string[] }).said = said;
      Object.defineProperty(window, 'speechSynthesis', { value: { speak: (u: { text: string }) => said.push(u.text) } });
    });
    await page.goto(`${base}/tables/1?speak=1`);
    await page.waitForFunction(() => document.body.dataset.live === 'open');
    await scoreOf(page, 'Ana').waitFor();
    expect(await hub.feedShot('1', scoring)).toBeNull();
    await expect.poll(() => page.evaluate(() => (window as unknown as { said: string[] }).said.join(' ')), { timeout: 3000 }).toMatch(/Ben|Ana/);
  });

  it('a display shows "reconnecting" while the panel is away and recovers by itself', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
    await page.goto(`${base}/tables/1`);
    await page.waitForFunction(() => document.body.dataset.live === 'open');
    expect(await page.locator('#conn').isHidden()).toBe(true);
    const port = Number(new URL(base).port);
    await panel.stop();
    await page.locator('#conn').waitFor({ state: 'visible', timeout: 5000 });
    await shot(page, 'scoreboard-reconnecting');
    panel = createWebPanel({ mqtt: { url: mqttUrl }, port, venue: { username: 'referee', passwordHash }, requestTimeoutMs: 3000 });
    await panel.start();
    await page.locator('#conn').waitFor({ state: 'hidden', timeout: 8000 });
    const ana = String(hub.state('1')!.players[0]!.score);
    await expect.poll(() => scoreOf(page, 'Ana').textContent(), { timeout: 5000 }).toBe(ana);
  });

  it('bad logins are limited', async () => {
    const page = await (await browser.newContext()).newPage();
    let last = 0;
    for (let i = 0; i < 6; i++) {
      await page.goto(`${base}/login`);
      await page.fill('input[name=username]', 'referee');
      await page.fill('input[name=password]', 'guess');
      const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/login') && r.request().method() === 'POST'), page.click('button[type=submit]')]);
      last = res.status();
      if (last === 429) break;
    }
    expect(last).toBe(429);
    expect(await page.locator('.error').textContent()).toMatch(/Too many login attempts/);
  });
});
