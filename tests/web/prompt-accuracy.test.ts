import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PhysicsTable } from '../../hardware/simulator/physics/planner.ts';
import { createMatch, must } from '../../hardware/simulator/match-helpers.ts';
import type { SensorEvent } from '../../hub/pipeline/sensor-events.ts';
import type { Shot } from '../../hub/rules/events.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import type { ShotResult } from '../../hub/rules/view.ts';
import { createWebPanel, hashPassword, type WebPanel } from '../../web/index.ts';
import { VENUE_PASSWORD, linkUp, startTestHub, testConfig, type TestHub } from '../hub/support.ts';
import { componentMissing, executableExists } from '../support/components.ts';
import { REPO_ROOT } from '../support/paths.ts';

/**
 * Issue 17's figure: how often the answer the console shows first (pre-selected) is the one
 * the physics truth picks. The physics simulator plays carom and five-skittle matches; the real
 * hub hears only what its sensors would (rail piezos by channel, the click channel, the skittle
 * switches: no ball ids); each prompt
 * is read off the referee console in Chromium and answered there, by keyboard, with the truth
 * (so the hub's match stays in step with the truth). This MEASURES the figure (the likelihood
 * model is being improved elsewhere); it asserts only that it is measured over at least 200
 * shots and that the first button is the likeliest. The figure goes to test-artifacts/ and
 * docs/ui.md.
 */
const CHROMIUM = '/usr/bin/chromium';
const skip = componentMissing('Debian chromium at /usr/bin/chromium', executableExists(CHROMIUM));
const GAMES = ['three-cushion', 'carom', 'one-cushion', 'skittles-5'] as const;
const SHOTS_PER_GAME = 60;
const SKITTLE_SWITCH = { king: 0, head: 1, foot: 2, left: 3, right: 4 } as const;
const RAIL_CHANNEL = { head: 0, foot: 1, left: 2, right: 3 } as const;
const SEED = 17;
const setupOf = (variant: string) => ({ variant, players: ['Ana', 'Ben'], target: 100_000 });
const outcome = (r: Pick<ShotResult, 'points' | 'foul' | 'turnPasses'>) => JSON.stringify([r.points, r.foul, r.turnPasses]);

interface Tally {
  shots: number;
  decided: number;
  decidedWrong: number;
  prompts: number;
  firstIsTruth: number;
  truthNotOffered: number;
  skipped: number;
}

describe.skipIf(skip)('the pre-selected answer against the physics truth, real hub, sensors only, in Chromium', () => {
  let t: TestHub;
  let panel: WebPanel;
  let browser: Browser;
  let base = '';

  beforeAll(async () => {
    const config = testConfig({
      tables: GAMES.map((variant) => ({
        id: variant,
        source: { type: 'simulator' },
        rails: { '0': 'head', '1': 'foot', '2': 'left', '3': 'right' },
        skittles: Object.fromEntries(Object.entries(SKITTLE_SWITCH).map(([k, i]) => [String(i), k])),
        // A slow ball may take seconds from one rail to the next: the shot ends when the test says.
        quietWindowMs: 15_000,
        defaultMatch: setupOf(variant),
      })),
    });
    t = await startTestHub({ config });
    const passwordHash = await hashPassword(VENUE_PASSWORD, { N: 1024 });
    panel = createWebPanel({ mqtt: t.hub.panelMqtt('web-accuracy'), port: 0, venue: { username: 'venue', passwordHash }, requestTimeoutMs: 3000, loginAttemptsPerMinute: 100 });
    base = (await panel.start()).url;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
    for (const id of GAMES) t.sources.get(id)!.emit(linkUp(t.clock.t));
  });

  afterAll(async () => {
    await browser?.close();
    await panel?.stop();
    await t?.hub.stop();
  });

  async function consolePage(table: string): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
    page.setDefaultTimeout(5000);
    await page.goto(`${base}/login?next=${encodeURIComponent(`/referee/${table}`)}`);
    await page.fill('input[name=username]', 'venue');
    await page.fill('input[name=password]', VENUE_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/referee/${table}`);
    await page.waitForFunction(() => document.body.dataset.live === 'open');
    return page;
  }

  /** The shot as the table's sensors give it to the hub: piezo hits on the rails' channels and clicks, at the physics' times and amplitudes. */
  function feed(table: string, shot: Shot): void {
    const source = t.sources.get(table)!;
    const t0 = t.clock.t + 1000;
    for (const e of shot.events) {
      const at = t0 + Math.round(e.t ?? 0);
      t.clock.t = Math.max(t.clock.t, at);
      const stamp = { boardUs: t.clock.t * 1000, hubTime: t.clock.t, seq: 0 };
      const event: SensorEvent | null =
        e.kind === 'cushion'
          ? { type: 'rail-hit', channel: RAIL_CHANNEL[e.rail], amplitude: e.amplitude ?? 120, ...stamp }
          : e.kind === 'ball'
            ? { type: 'click', amplitude: e.amplitude ?? 90, ...stamp }
            : e.kind === 'skittle'
              ? { type: 'skittle', index: SKITTLE_SWITCH[e.skittle as keyof typeof SKITTLE_SWITCH], state: 'down', ...stamp }
              : null;
      if (event) source.emit(event);
    }
    t.clock.t += 16_000;
    t.hub.tables.get(table)!.tick(t.clock.t);
    // The referee stands the felled skittles up again before the next shot.
    for (const e of shot.events) if (e.kind === 'skittle') source.emit({ type: 'skittle', index: SKITTLE_SWITCH[e.skittle as keyof typeof SKITTLE_SWITCH], state: 'up', boardUs: t.clock.t * 1000, hubTime: t.clock.t, seq: 0 });
    t.clock.t += 16_000;
    t.hub.tables.get(table)!.tick(t.clock.t);
  }

  it('over ≥ 200 simulated sensor-only shots: how often the first, pre-selected button is the truth', { timeout: 300_000 }, async () => {
    const tally: Tally = { shots: 0, decided: 0, decidedWrong: 0, prompts: 0, firstIsTruth: 0, truthNotOffered: 0, skipped: 0 };
    const perGame: Record<string, { prompts: number; firstIsTruth: number }> = {};
    const random = seededRandom(SEED);
    for (const variant of GAMES) {
      const page = await consolePage(variant);
      const service = t.hub.tables.get(variant)!;
      const game = (perGame[variant] = { prompts: 0, firstIsTruth: 0 });
      let truth = createMatch(setupOf(variant));
      const physics = new PhysicsTable(variant);
      const restart = () => {
        truth = createMatch(setupOf(variant));
        must(service.restartMatch());
      };
      let played = 0;
      while (played < SHOTS_PER_GAME) {
        if (truth.view().status === 'finished' || truth.view().status === 'drawn') restart();
        const view = truth.view();
        const { shot } = physics.plan({ variant, cueBall: view.cueBall!, isBreak: view.shots.length === 0, random, table: { length: 2840, width: 1420 }, instructions: view.instructions });
        if (shot.events.some((e) => e.kind !== 'cushion' && e.kind !== 'ball' && e.kind !== 'skittle')) {
          tally.skipped += 1; // a ball off the table: no sensor of this rig reports it
          continue;
        }
        must(truth.apply({ kind: 'shot', shot }));
        const known = truth.view();
        if (known.status === 'awaiting-referee') must(truth.apply({ kind: 'referee', referee: { ruling: known.prompt!.options[0]!.ruling, option: 0 } }));
        const expected = truth.view().shots.at(-1)!;
        const before = service.state().shotCount;
        feed(variant, shot);
        played += 1;
        tally.shots += 1;
        const state = service.state();
        if (state.status !== 'awaiting-referee') {
          expect(state.shotCount).toBe(before + 1);
          tally.decided += 1;
          if (outcome(state.shots.at(-1)!) !== outcome(expected)) {
            tally.decidedWrong += 1;
            restart();
          }
          continue;
        }
        tally.prompts += 1;
        game.prompts += 1;
        // The console as the referee sees it: the first button is pre-selected and is the likeliest.
        await page.locator(`#live .state[data-seq="${state.seq}"]`).waitFor();
        const buttons = await page.locator('#prompt .option').evaluateAll((els) => els.map((b) => ({ option: Number((b as HTMLElement).dataset.option), key: (b as HTMLElement).dataset.key, selected: b.classList.contains('selected') })));
        const options = state.prompt!.options;
        const likeliest = Math.max(...options.map((o) => o.likelihood));
        expect(buttons[0]!.selected).toBe(true);
        expect(options.find((o) => o.index === buttons[0]!.option)!.likelihood).toBe(likeliest);
        const right = options.find((o) => outcome(o) === outcome(expected));
        if (!right) {
          tally.truthNotOffered += 1;
          restart();
          continue;
        }
        if (right.index === buttons[0]!.option) {
          tally.firstIsTruth += 1;
          game.firstIsTruth += 1;
        }
        // Answer as the referee would, with the truth: its number, then Enter.
        await page.keyboard.press(buttons.find((b) => b.option === right.index)!.key!);
        await page.keyboard.press('Enter');
        await expect.poll(() => service.state().status, { timeout: 3000 }).not.toBe('awaiting-referee');
        if (outcome(service.state().shots.at(-1)!) !== outcome(expected)) restart();
      }
      await page.context().close();
    }
    const share = tally.prompts > 0 ? tally.firstIsTruth / tally.prompts : 0;
    const report = {
      measuredAt: new Date().toISOString(),
      seed: SEED,
      games: GAMES,
      ...tally,
      firstIsTruthShare: Math.round(share * 1000) / 1000,
      perGame: Object.fromEntries(Object.entries(perGame).map(([k, v]) => [k, { ...v, share: v.prompts ? Math.round((v.firstIsTruth / v.prompts) * 1000) / 1000 : null }])),
    };
    mkdirSync(join(REPO_ROOT, 'test-artifacts'), { recursive: true });
    writeFileSync(join(REPO_ROOT, 'test-artifacts', 'prompt-accuracy.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`pre-selected answer is the physics truth in ${tally.firstIsTruth} of ${tally.prompts} prompts (${(share * 100).toFixed(1)} %) over ${tally.shots} sensor-only shots`, JSON.stringify(report.perGame));
    expect(tally.shots).toBeGreaterThanOrEqual(200);
    expect(tally.prompts).toBeGreaterThan(0);
    // The sensors alone never decide wrongly; a truth the prompt does not offer is as bad.
    expect(tally.decidedWrong).toBe(0);
    expect(tally.truthNotOffered).toBe(0);
  });
});
