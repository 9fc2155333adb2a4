import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CATALOGUE, GAME_FAMILIES, gameEntry, playsSkittles, VARIANT_IDS, type GameEntry, type VariantId } from '../../hub/rules/catalogue.ts';
import type { MatchInput, ShotEvent } from '../../hub/rules/events.ts';
import { FOUL_KINDS, RAILS, SKITTLES } from '../../hub/rules/ids.ts';
import { baseOptionShape } from '../../hub/rules/options.ts';
import { VARIANTS } from '../../hub/rules/variants/index.ts';
import { exportInningsCsv } from '../../hub/store/export.ts';
import { newMatch, shot } from './helpers.ts';

/**
 * The catalogue of games (hub/rules/catalogue.ts) is what everyone outside the engine
 * reads instead of game ids: every entry must say what the engine does.
 */
const SKITTLE_ONLY_OPTIONS = ['foulPenalty', 'finishWithSafety', 'foulForfeitsRun', 'missIsFoul', 'strictKnockDowns', 'undeterminedFellerIsFoul'];
const setupOptions = (id: VariantId) => (CATALOGUE[id].family === 'artistic' ? { figures: 3, seed: 5 } : {});

describe('the catalogue of games', () => {
  it('VARIANT_IDS are the catalogue keys, and the engine has one game for each, with that id', () => {
    expect([...VARIANT_IDS]).toEqual(Object.keys(CATALOGUE));
    expect(Object.keys(VARIANTS)).toEqual(Object.keys(CATALOGUE));
    for (const id of VARIANT_IDS) expect(VARIANTS[id].id).toBe(id);
    expect(new Set(VARIANT_IDS.map((id) => CATALOGUE[id].name)).size).toBe(VARIANT_IDS.length);
  });

  it.each(VARIANT_IDS)('%s: the engine game carries its catalogue entry unchanged', (id) => {
    const entry: GameEntry = CATALOGUE[id];
    const game = VARIANTS[id];
    for (const key of Object.keys(entry) as (keyof GameEntry)[]) expect(game[key], key).toEqual(entry[key]);
    expect(gameEntry(id)).toBe(entry);
    expect(GAME_FAMILIES).toContain(entry.family);
  });

  it('an id outside the catalogue has no entry, however it is spelt', () => {
    for (const id of ['', 'Carom', 'skittles', 'skittles-7', 'constructor', '__proto__', 'toString']) expect(gameEntry(id)).toBeUndefined();
  });

  it.each(VARIANT_IDS)('%s: the options it names are in its schema; carom games read exactly those, skittle games reject the others by name', (id) => {
    const entry = CATALOGUE[id];
    const schema = VARIANTS[id].optionsSchema;
    expect(schema).toBeInstanceOf(z.ZodObject);
    const keys = Object.keys((schema as z.ZodObject).shape);
    for (const option of entry.options) expect(keys, option).toContain(option);
    if (entry.layout === null) {
      expect(keys.sort()).toEqual([...Object.keys(baseOptionShape), ...entry.options].sort());
    } else {
      for (const option of SKITTLE_ONLY_OPTIONS.filter((o) => !entry.options.includes(o))) {
        const created = VARIANTS[id].parseOptions({ variant: id, players: ['Ana', 'Ben'], target: 50, options: { [option]: option === 'foulPenalty' ? 1 : true } });
        expect(created).toEqual({ ok: false, error: `options.${option}: not an option of ${id}` });
      }
    }
  });

  it.each(VARIANT_IDS)('%s: the balls, skittles, pockets and players it lists are the ones the engine accepts', (id) => {
    const entry = CATALOGUE[id];
    const accepted = (events: ShotEvent[]) => newMatch(id, 50, setupOptions(id)).apply(shot(...events)).ok;
    for (const b of entry.balls) expect(accepted([{ kind: 'cushion', rail: 'head', ball: b }]), b).toBe(true);
    for (const b of ['white', 'yellow', 'red', 'cue', 'one', 'two'].filter((x) => !entry.balls.includes(x as never))) {
      expect(accepted([{ kind: 'cushion', rail: 'head', ball: b as never }]), b).toBe(false);
    }
    for (const s of SKITTLES) expect(accepted([{ kind: 'skittle', skittle: s, by: null }]), s).toBe(entry.skittles.includes(s));
    expect(entry.layout !== null).toBe(entry.skittles.length > 0);
    expect(entry.layout !== null).toBe(playsSkittles(entry.family));
    // Only the seven-skittle family is played on a pocket table (SK7P-1, SK7C-1).
    expect(accepted([{ kind: 'pocket', ball: null }])).toBe(entry.family === 'skittles-7');
  }, 20_000);

  it.each(VARIANT_IDS)('%s: takes up to its maxPlayers players', (id) => {
    const players = ['Ana', 'Ben', 'Cid'];
    const created = (n: number) => VARIANTS[id].parseOptions({ variant: id, players: players.slice(0, n), target: 50, options: setupOptions(id) }).ok;
    expect(created(2)).toBe(true);
    expect(created(3)).toBe(CATALOGUE[id].maxPlayers === 3);
  });
});

/** Random inputs with the game's own balls and skittles (per the catalogue), and referee answers. */
function inputsFor(entry: GameEntry): fc.Arbitrary<MatchInput[]> {
  const ball = fc.constantFrom(...entry.balls, null);
  const events: fc.Arbitrary<ShotEvent>[] = [
    fc.tuple(ball, ball).filter(([a, b]) => a === null || a !== b).map(([a, b]): ShotEvent => ({ kind: 'ball', balls: [a, b] })),
    fc.tuple(fc.constantFrom(...RAILS), ball).map(([rail, b]): ShotEvent => ({ kind: 'cushion', rail, ball: b })),
    ball.map((b): ShotEvent => ({ kind: 'off-table', ball: b })),
    fc.constantFrom(...FOUL_KINDS).map((f): ShotEvent => ({ kind: 'foul', foul: f, by: 'shooter' })),
  ];
  if (entry.skittles.length > 0) events.push(fc.tuple(fc.constantFrom(...entry.skittles), ball).map(([skittle, by]): ShotEvent => ({ kind: 'skittle', skittle, by })));
  const shotArb = fc.array(fc.oneof(...events), { maxLength: 7 }).map((e): MatchInput => ({ kind: 'shot', shot: { events: e } }));
  const refereeArb = fc.constantFrom<MatchInput>(
    { kind: 'referee', referee: { ruling: 'score' } },
    { kind: 'referee', referee: { ruling: 'no-score' } },
    { kind: 'referee', referee: { ruling: 'foul' } },
    { kind: 'referee', referee: { action: 'undo' } },
  );
  return fc.array(fc.oneof({ weight: 5, arbitrary: shotArb }, { weight: 1, arbitrary: refereeArb }), { maxLength: 30 });
}

/** The CSV's last row: its player and score_after (names have no commas here), or null without rows. */
function lastRow(csv: string): { player: string; score: number } | null {
  const line = csv.trimEnd().split('\n').slice(1).at(-1);
  if (line === undefined) return null;
  const cells = line.split(',');
  return { player: cells[1]!, score: Number(cells[5]) };
}

describe('property: family and scoring agree with what the engine does on a sample log', () => {
  it.each(VARIANT_IDS)('%s', (id) => {
    const entry = CATALOGUE[id];
    const target = 40;
    fc.assert(
      fc.property(inputsFor(entry), (inputs) => {
        const match = newMatch(id, target, setupOptions(id));
        const start = match.view();
        // The state says what the catalogue says; a countdown starts at the total, the others at 0.
        expect({ family: start.family, scoring: start.scoring }).toEqual({ family: entry.family, scoring: entry.scoring });
        for (const p of start.players) expect(p.score).toBe(entry.scoring === 'countdown' ? target : 0);
        // What a game adds to the state follows its family: figures for artistic, the play mode for skittles.
        expect('figure' in start).toBe(entry.family === 'artistic');
        expect('mode' in start).toBe(playsSkittles(entry.family));
        for (const input of inputs) {
          const before = match.view();
          if (!match.apply(input).ok || input.kind !== 'shot') continue;
          const after = match.view();
          const result = after.shots[after.shots.length - 1];
          if (after.shots.length !== before.shots.length + 1 || !result || result.foul !== null || result.points <= 0) continue;
          if (result.awards?.some((a) => a.player !== result.shooter)) continue;
          // A shot that scores for the shooter alone: a countdown game reduces what is left, the others add.
          const i = after.players.findIndex((p) => p.name === result.shooter);
          const moved = after.players[i]!.score - before.players[i]!.score;
          if (entry.scoring === 'countdown') expect(moved).toBeLessThan(0);
          else expect(moved).toBeGreaterThan(0);
        }
        // The CSV export reads `scoring` too: its last row's score_after is the score the state shows for that player
        // (a row is written per inning, so only the last one is sure to include every award made since).
        const view = match.view();
        const last = lastRow(exportInningsCsv(view, match.adjustmentLog));
        if (last) expect(last.score).toBe(view.players.find((p) => p.name === last.player)!.score);
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
