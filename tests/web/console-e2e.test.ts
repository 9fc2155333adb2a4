import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebPanel, hashPassword, type WebPanel } from '../../web/index.ts';
import { VENUE_PASSWORD, click, feedShot, linkUp, railHit, startTestHub, testConfig, type TestHub } from '../hub/support.ts';
import { componentMissing, executableExists } from '../support/components.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { a11yViolations } from './support/a11y.ts';
import { englishWords, userVisibleText } from './support/untranslated.ts';

/**
 * The referee console and the displays in Debian's Chromium against the real hub, whose
 * tables see only sensors (a manual source: rail hits and clicks, no ball ids): a prompt
 * answered by keyboard in the first viewport, undo with its confirmation, an adjustment on
 * the scoreboard, in English and in Russian; the layout of every game family at five screen
 * sizes; an accessibility check of every page. Screenshots land in test-artifacts/screens/.
 */
const CHROMIUM = '/usr/bin/chromium';
const skip = componentMissing('Debian chromium at /usr/bin/chromium', executableExists(CHROMIUM));
const SCREENS = join(REPO_ROOT, 'test-artifacts', 'screens');

const LONG = 'Anastasia Konstantinopolskaya';
/** What the venue itself names (players, tables, the login), codes and the other language's own name: not UI text. */
const VENUE_WORDS = ['Anastasia', 'Konstantinopolskaya', 'Ben', 'Orlov', 'zzz', 'venue', 'club', 'English', 'JSON', 'JSONL', 'CSV', 'safetiesAllowed', 'false', 'winter'];
const TABLES = [
  { id: 't1', name: 'Orlov', variant: 'three-cushion', target: 5, family: 'three-cushion' },
  { id: 't2', variant: 'balkline-47-2', target: 150, family: 'balkline' },
  { id: 't3', variant: 'artistic', target: 100, family: 'artistic' },
  { id: 't4', variant: 'skittles-5', target: 60, family: 'skittles-5' },
  { id: 't5', variant: 'skittles-7-pyramid', target: 300, family: 'skittles-7' },
  { id: 't6', variant: 'free-game', target: 50, family: 'free-game', inningsLimit: 50 },
] as const;
const SESSION_KEY = Buffer.alloc(32, 7);
const VIEWPORTS = [
  { width: 1920, height: 1080 },
  { width: 1366, height: 768 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
  { width: 320, height: 640 },
] as const;

// Three-cushion from the sensors: a click (the cue ball met one of two), three rails, a click.
const ambiguousShot = [click(), railHit(0), railHit(1), railHit(2), click()];

describe.skipIf(skip)('referee console and displays in Chromium, real hub, sensors only', () => {
  let t: TestHub;
  let panel: WebPanel;
  let base = '';
  let browser: Browser;
  let passwordHash = '';
  let config: ReturnType<typeof testConfig>;

  beforeAll(async () => {
    mkdirSync(SCREENS, { recursive: true });
    config = testConfig({
      tables: TABLES.map((x) => ({
        id: x.id,
        ...('name' in x ? { name: x.name } : {}),
        source: { type: 'simulator' },
        quietWindowMs: 500,
        defaultMatch: { variant: x.variant, players: [LONG, 'Ben'], target: x.target, ...('inningsLimit' in x ? { options: { inningsLimit: x.inningsLimit } } : {}) },
      })),
    });
    t = await startTestHub({ config });
    passwordHash = await hashPassword(VENUE_PASSWORD, { N: 1024 });
    panel = createWebPanel({ mqtt: t.hub.panelMqtt('web-e2e'), port: 0, venue: { username: 'venue', passwordHash }, requestTimeoutMs: 3000, sessionKey: SESSION_KEY, loginAttemptsPerMinute: 100 });
    base = (await panel.start()).url;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    for (const x of TABLES) t.sources.get(x.id)!.emit(linkUp(t.clock.t));
  });

  afterAll(async () => {
    await browser?.close();
    await panel?.stop();
    await t?.hub.stop();
  });

  const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENS, `${name}.png`) });
  const state = async () => (await (await panel.app.request('/api/tables/t1')).json()) as { seq: number; status: string; players: { name: string; score: number }[]; shots: { ruling?: string }[]; adjustments?: unknown[] };

  async function loggedIn(viewport: { width: number; height: number }, next: string): Promise<Page> {
    const ctx = await browser.newContext({ viewport });
    const page = await ctx.newPage();
    page.setDefaultTimeout(5000);
    page.on('pageerror', (e) => console.log('pageerror:', e.message));
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${base}/login?next=${encodeURIComponent(next)}`);
    await page.fill('input[name=username]', 'venue');
    await page.fill('input[name=password]', VENUE_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}${next}`);
    await page.waitForFunction(() => document.body.dataset.live === 'open');
    return page;
  }

  /** Every answer button is on screen at the top of the page: no scrolling needed. */
  async function expectOptionsInFirstViewport(page: Page) {
    const boxes = await page.evaluate(() => ({
      scrollY: window.scrollY,
      height: window.innerHeight,
      width: window.innerWidth,
      buttons: Array.from(document.querySelectorAll('#prompt .option')).map((b) => b.getBoundingClientRect().toJSON() as DOMRect),
    }));
    expect(boxes.scrollY).toBe(0);
    expect(boxes.buttons.length).toBeGreaterThanOrEqual(2);
    for (const b of boxes.buttons) {
      expect(b.top).toBeGreaterThanOrEqual(0);
      expect(b.bottom).toBeLessThanOrEqual(boxes.height);
      expect(b.right).toBeLessThanOrEqual(boxes.width);
    }
  }

  const walks = [
    { viewport: { width: 1366, height: 768 }, lang: 'en' },
    { viewport: { width: 1440, height: 900 }, lang: 'en' },
    { viewport: { width: 1366, height: 768 }, lang: 'ru' },
  ] as const;

  it.each(walks)('a prompt answered by keyboard in the first viewport, undo with its confirmation, an adjustment on the scoreboard ($viewport.width×$viewport.height, $lang)', async ({ viewport, lang }) => {
    const tag = `${viewport.width}x${viewport.height}-${lang}`;
    const ref = await loggedIn(viewport, `/referee/t1?lang=${lang}`);
    expect(await ref.getAttribute('html', 'lang')).toBe(lang);
    // One click starts the same match again (the form is filled from the table's match).
    const before = (await state()).seq;
    await ref.click('#rematch');
    await expect.poll(async () => (await state()).seq, { timeout: 3000 }).toBeGreaterThan(before);
    expect((await state()).shots).toEqual([]);
    expect(await ref.inputValue('#start-form input[name=p1]')).toBe(LONG);
    expect(await ref.inputValue('#start-form select[name=variant]')).toBe('three-cushion');
    // Manual entry offers the carom balls only, no skittles.
    expect(await ref.locator('.builder [data-add="skittle"]').count()).toBe(0);
    expect(await ref.locator('.builder [data-add="ball"][data-a="cue"]').count()).toBe(0);

    feedShot(t, 't1', ambiguousShot);
    await ref.locator('#prompt .option').first().waitFor();
    await expectOptionsInFirstViewport(ref);
    const question = (await ref.locator('#prompt-q').textContent()) ?? '';
    expect(question).toMatch(lang === 'en' ? /^Which balls met — .+ or .+\?$/ : /^Какие шары столкнулись — .+ или .+\?$/);
    await shot(ref, `console-prompt-${tag}`);
    // Each button names the sensor fact that leads to it and the result, in the page's language.
    const buttons = await ref.locator('#prompt .option .o-text').allTextContents();
    const ballWords = lang === 'en' ? /^The (cue ball|yellow|red|white)\b/ : /^(Биток|Жёлтый|Красный|Белый)(?=[ ;,—])/;
    const result = lang === 'en' ? /— (.+ scores \d+, the run goes on|No point, turn passes to .+|Foul .+)$/ : /— (.+ получает \d+ очк.*, серия продолжается|Без очков, удар переходит к .+|Штраф .+)$/;
    expect(buttons.length).toBeGreaterThanOrEqual(2);
    for (const text of buttons) {
      expect(text.trim()).toMatch(ballWords);
      expect(text.trim().replace(/\s+/g, ' ')).toMatch(result);
    }

    // 1 chooses, Enter sends.
    const first = ref.locator('#prompt .option[data-key="1"]');
    const ruling = await first.getAttribute('data-ruling', { timeout: 1000 }).catch(async (e) => {
      await shot(ref, `console-FAILED-${tag}`);
      console.log(await ref.locator('#live').innerHTML());
      throw e;
    });
    await ref.keyboard.press('1');
    expect(await first.getAttribute('aria-pressed')).toBe('true');
    await ref.keyboard.press('Enter');
    await expect.poll(() => ref.locator('#prompt').count(), { timeout: 3000 }).toBe(0);
    expect((await state()).shots.at(-1)?.ruling).toBe(ruling);
    const toast = await ref.locator('#toast').boundingBox();
    expect(toast && toast.y + toast.height <= viewport.height && toast.y >= 0).toBe(true);

    // Undo says what it undoes and asks once; the prompt comes back.
    const undoLabel = (await ref.locator('#undo').textContent()) ?? '';
    expect(undoLabel).toMatch(lang === 'en' ? /ruling/ : /решение судьи/);
    await ref.click('#undo');
    await ref.locator('#undo-confirm:not([hidden])').waitFor();
    expect(await ref.locator('#undo-question').textContent()).toContain(lang === 'en' ? 'ruling' : 'решение');
    expect((await state()).status).toBe('playing');
    await ref.click('#undo-yes');
    await ref.locator('#prompt').waitFor({ timeout: 3000 });
    expect((await state()).status).toBe('awaiting-referee');
    await ref.keyboard.press('2');
    await ref.keyboard.press('Enter');
    await expect.poll(async () => (await state()).status, { timeout: 3000 }).toBe('playing');

    // An adjustment with its reason: on the console's shot list and on the scoreboard.
    const reason = lang === 'en' ? 'scorer error' : 'ошибка счёта';
    await ref.selectOption('#adjust-form select[name=player]', 'Ben');
    await ref.fill('#adjust-form input[name=delta]', '1');
    await ref.fill('#adjust-form input[name=reason]', reason);
    await ref.click('#adjust-form button[type=submit]');
    await ref.locator('#live ol.shots li.adjust').waitFor({ timeout: 3000 });
    expect(await ref.locator('#live ol.shots li.adjust').textContent()).toContain(reason);
    await shot(ref, `console-after-${tag}`);
    const tv = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
    await tv.goto(`${base}/tables/t1?lang=${lang}`);
    expect(await tv.locator('h1').textContent()).toBe('Orlov');
    expect(await tv.locator('.player[data-player="Ben"] .adj').textContent()).toBe('+1');
    expect(await tv.locator('.lastshot.adjust').textContent()).toContain(reason);
    await shot(tv, `scoreboard-adjusted-${lang}`);
    await tv.context().close();
    await ref.context().close();
  });

  it('a console whose session is gone takes the referee to the login page and back', async () => {
    const ref = await loggedIn({ width: 1366, height: 768 }, '/referee/t1?lang=ru');
    await ref.context().clearCookies();
    await ref.selectOption('#adjust-form select[name=player]', 'Ben');
    await ref.fill('#adjust-form input[name=delta]', '1');
    await ref.fill('#adjust-form input[name=reason]', 'test');
    await ref.click('#adjust-form button[type=submit]');
    await ref.waitForURL(/\/login\?next=/);
    await ref.fill('input[name=username]', 'venue');
    await ref.fill('input[name=password]', VENUE_PASSWORD);
    await ref.click('button[type=submit]');
    await ref.waitForURL(`${base}/referee/t1?lang=ru`);
    await ref.locator('#adjust-form').waitFor();
    await ref.context().close();
  });

  it('a restart of the hub and the panel keeps the referee logged in, and one who logged out logged out', async () => {
    const ref = await loggedIn({ width: 1366, height: 768 }, '/referee/t1');
    const port = Number(new URL(base).port);
    let restarts = 0;
    const restart = async () => {
      await panel.stop();
      const dataDir = t.dataDir;
      await t.hub.stop();
      t = await startTestHub({ dataDir, config });
      for (const x of TABLES) t.sources.get(x.id)!.emit(linkUp(t.clock.t));
      const sessionsEndedFile = join(dataDir, 'sessions-ended');
      panel = createWebPanel({ mqtt: t.hub.panelMqtt(`web-e2e-r${++restarts}`), port, venue: { username: 'venue', passwordHash }, requestTimeoutMs: 3000, sessionKey: SESSION_KEY, sessionsEndedFile, loginAttemptsPerMinute: 100 });
      await panel.start();
    };
    await restart();
    await ref.reload();
    expect(new URL(ref.url()).pathname).toBe('/referee/t1');
    await ref.locator('#live .state').waitFor();
    expect(await ref.locator('.topnav .who').textContent()).toBe('venue');
    // Log out, keep the old cookie (as a copied cookie would be), restart: still logged out.
    const cookies = await ref.context().cookies();
    await ref.click('.topnav form[action="/logout"] button');
    await ref.waitForURL(`${base}/`);
    await restart();
    await ref.context().addCookies(cookies);
    await ref.goto(`${base}/referee/t1`);
    expect(new URL(ref.url()).pathname).toBe('/login');
    await ref.context().close();
  });

  it('every game family at five screen sizes: no horizontal overflow, the score stays big', async () => {
    const page = await (await browser.newContext()).newPage();
    const report: string[] = [];
    const failures: string[] = [];
    for (const x of TABLES) {
      for (const vp of VIEWPORTS) {
        await page.setViewportSize(vp);
        await page.goto(`${base}/tables/${x.id}`);
        await page.locator('#live .player .score').first().waitFor();
        const m = await page.evaluate(() => {
          const scores = Array.from(document.querySelectorAll('#live .player .score')).map((e) => e.getBoundingClientRect().height);
          const names = Array.from(document.querySelectorAll('#live .player .name')).map((e) => parseFloat(getComputedStyle(e).fontSize));
          return { overflow: document.documentElement.scrollWidth - window.innerWidth, verticalOverflow: document.documentElement.scrollHeight - window.innerHeight, score: Math.min(...scores), name: Math.min(...names) };
        });
        report.push(`${x.family} ${vp.width}x${vp.height}: score ${m.score.toFixed(0)} px (${((100 * m.score) / vp.height).toFixed(0)} % of the height), name ${m.name.toFixed(0)} px`);
        const at = `${x.family} at ${vp.width}×${vp.height}`;
        if (m.overflow > 0) failures.push(`${at}: ${m.overflow} px of horizontal overflow`);
        // A TV or a tablet across the room: the score at least a fifth of the screen's height.
        // A phone in the hand (portrait, two players stacked): at least a tenth.
        const minShare = vp.width >= vp.height ? 0.2 : 0.1;
        if (m.score < minShare * vp.height) failures.push(`${at}: score ${m.score.toFixed(0)} px < ${(minShare * 100).toFixed(0)} % of ${vp.height}`);
        if (m.name < 14) failures.push(`${at}: names at ${m.name.toFixed(0)} px`);
        if (vp.width === 1920 || vp.width === 390) await shot(page, `layout-${x.family}-${vp.width}x${vp.height}`);
      }
    }
    console.log(report.join('\n'));
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it('the overlay is one line over the video, transparent around it', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
    // A real video frame (ffmpeg's test card) behind the overlay, as a streaming program composes it.
    await page.goto(`${base}/overlay/t1`);
    await page.locator('.lt-bar').waitFor();
    // The bar is drawn again at each update the hub streams: a box read between two drawings is
    // null (seen once in a loaded run), so it is read until it stands.
    let bar: Awaited<ReturnType<Locator['boundingBox']>> = null;
    await expect.poll(async () => (bar = await page.locator('.lt-bar').boundingBox()), { timeout: 5_000 }).not.toBeNull();
    expect(bar!.height).toBeLessThan(80);
    expect(bar!.y).toBeGreaterThan(720 / 2);
    expect(await page.locator('.lt-player').count()).toBe(2);
    for (const box of await page.locator('.lt-player .name').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) expect(box.width).toBeGreaterThan(30);
    for (const box of await page.locator('.lt-player .score').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(box.width).toBeGreaterThan(10);
      expect(box.height).toBeGreaterThan(16);
      expect(box.bottom).toBeLessThanOrEqual(720);
    }
    const text = (await page.locator('.lt-bar').textContent()) ?? '';
    for (const word of ['Run', 'Inn.', 'Avg', 'of 5', 'Ben', 'Anast']) expect(text).toContain(word);
    expect(text).not.toMatch(/SIMULATED|Playing|TC-\d/);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
    // Alone, the page is see-through everywhere but the bar.
    const alone = rgba(await page.screenshot({ path: join(SCREENS, 'overlay.png'), omitBackground: true }));
    const mid = { x: Math.round(bar!.x + 8), y: Math.round(bar!.y + bar!.height / 2) };
    if (alone) {
      expect(alone.at(20, 20)[3]).toBe(0);
      expect(alone.at(640, 200)[3]).toBe(0);
      expect(alone.at(mid.x, mid.y)[3]).toBe(255);
    }
    // Over a real video frame (ffmpeg's test card), as a streaming program composes it: the
    // picture shows through above the bar, untouched.
    const frame = videoFrame();
    if (frame) {
      // Served from the panel's origin: its CSP allows images from 'self' only.
      await page.route(`${base}/video-frame.png`, (r) => r.fulfill({ status: 200, contentType: 'image/png', body: frame }));
      await page.evaluate(async (src) => {
        document.documentElement.style.background = `url(${src}) 0 0 / 1280px 720px no-repeat`;
        const img = new Image();
        img.src = src;
        await img.decode();
      }, `${base}/video-frame.png`);
      const over = rgba(await page.screenshot({ path: join(SCREENS, 'overlay-over-video.png') }));
      const video = rgba(frame);
      if (over && video) for (const [x, y] of [[20, 20], [640, 200], [1000, 100]] as const) expect(over.at(x, y)).toEqual(video.at(x, y));
      await page.evaluate(() => (document.documentElement.style.background = ''));
    }
    await page.goto(`${base}/overlay/t1?pos=top&stats=0`);
    await page.locator('.lt-bar').waitFor();
    const top = await page.locator('.lt-bar').boundingBox();
    expect(top!.y).toBeLessThan(720 / 4);
    expect(await page.locator('.lt-stats').first().isVisible()).toBe(false);
    await page.context().close();
  });

  it('the accessibility check finds what it looks for (on a page made wrong on purpose)', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.setContent(`<html><head><title>x</title></head><body style="background:#fff"><p style="color:#aaa">pale text</p><input name="q"><button></button><input name="id" pattern="[a-z_-]+" aria-label="id"><svg role="img"></svg><i id="d"></i><b id="d"></b></body></html>`);
    const found = (await page.evaluate(a11yViolations)).map((v) => v.split(':')[0]);
    expect(new Set(found)).toEqual(new Set(['html-has-lang', 'page-has-heading-one', 'duplicate-id', 'label', 'button-name', 'svg-img-alt', 'pattern-valid', 'color-contrast']));
    await page.context().close();
  });

  it('no accessibility violations and no untranslated string on any page, in either language; an unknown table gets a 404 page', async () => {
    const ref = await loggedIn({ width: 1366, height: 768 }, '/referee/t1');
    const found: string[] = [];
    const pages = ['/', '/tables/t1', '/tables/t4', '/overlay/t1', '/referee/t1', '/hardware/t1', '/league', '/league/results', '/league/admin', '/login', '/tables/zzz'];
    for (const path of pages) {
      for (const lang of ['en', 'ru']) {
        const res = await ref.goto(`${base}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
        if (path === '/tables/zzz') expect(res!.status()).toBe(404);
        await ref.waitForLoadState('domcontentloaded');
        await ref.waitForTimeout(150);
        const violations = await ref.evaluate(a11yViolations);
        found.push(...violations.map((v) => `${path} (${lang}): ${v}`));
        // No user-visible string left in the other language.
        const text = await ref.evaluate(userVisibleText);
        if (lang === 'ru') for (const w of englishWords(text, VENUE_WORDS)) found.push(`${path} (ru): untranslated "${w}" in …${text.slice(Math.max(0, text.indexOf(w) - 60), text.indexOf(w) + 30).replace(/\s+/g, ' ')}…`);
        if (lang === 'en') for (const w of new Set(text.match(/[А-Яа-яЁё]{3,}/g) ?? [])) if (!['Русский', 'ошибка', 'счёта'].includes(w)) found.push(`${path} (en): Russian "${w}"`);
        for (const vp of [{ width: 320, height: 640 }, { width: 390, height: 844 }, { width: 768, height: 1024 }]) {
          await ref.setViewportSize(vp);
          const over = await ref.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          if (over > 0) found.push(`${path} (${lang}) at ${vp.width} px: ${over} px of horizontal overflow`);
        }
        await ref.setViewportSize({ width: 1366, height: 768 });
      }
      await shot(ref, `page-${path.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'overview'}`);
    }
    expect(found).toEqual([]);
  });

  it('the console starts the league’s next fixture in one click', async () => {
    const league = t.hub.league!;
    expect(league.setup({ id: 'e2e', name: 'E2E league', discipline: 'three-cushion', target: 5, points: { win: 2, draw: 1, loss: 0 }, handicap: null, players: [{ name: 'Cleo' }, { name: 'Dan' }], teams: [] }).ok).toBe(true);
    expect(league.generateFixtures({ season: 'e2e', startDate: new Date(t.clock.t).toISOString().slice(0, 10), daysBetweenRounds: 7, double: false }).ok).toBe(true);
    const ref = await loggedIn({ width: 1366, height: 768 }, '/referee/t1');
    await expect.poll(async () => (await ref.reload(), ref.locator('#next-fixture').count()), { timeout: 5000 }).toBe(1);
    expect(await ref.locator('#next-fixture').textContent()).toContain('Cleo – Dan');
    await ref.click('#next-fixture');
    await expect.poll(async () => (await state()).players.map((p) => p.name).join(' – '), { timeout: 3000 }).toBe('Cleo – Dan');
    expect(league.state().live).toEqual([expect.objectContaining({ table: 't1', home: 'Cleo', away: 'Dan' })]);
    await ref.context().close();
  });
});

/** One frame of ffmpeg's test source (PNG), or null (and a note) without ffmpeg. */
function videoFrame(): Buffer | null {
  const run = spawnSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=1', '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-'], { maxBuffer: 8 << 20 });
  if (run.status === 0 && run.stdout.length > 0) return run.stdout;
  componentMissing('ffmpeg (a video frame behind the overlay)', false);
  return null;
}

/** A PNG's pixels through ffmpeg (no image library in the project): at(x, y) → [r, g, b, a]. */
function rgba(png: Buffer): { at(x: number, y: number): number[] } | null {
  const probe = spawnSync('ffmpeg', ['-loglevel', 'error', '-i', 'pipe:0', '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'], { input: png, maxBuffer: 64 << 20 });
  if (probe.status !== 0) {
    componentMissing('ffmpeg (reading screenshots)', false);
    return null;
  }
  const width = png.readUInt32BE(16);
  return { at: (x, y) => [...probe.stdout.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)] };
}
