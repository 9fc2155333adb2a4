import { CATALOGUE } from '../../../hub/rules/catalogue.ts';
import type { TableView } from '../../../web/store.ts';

/** A table's state as a hub publishes it; `family` and `scoring` follow the variant, as the hub's do. */
export function sampleState(table: string, over: Partial<TableView> = {}): TableView {
  const variant = over.variant === undefined ? 'three-cushion' : over.variant;
  return {
    variant: 'three-cushion',
    family: variant === null ? null : CATALOGUE[variant].family,
    scoring: variant === null ? null : CATALOGUE[variant].scoring,
    status: 'playing',
    winner: null,
    turn: 'Ana',
    players: [
      { name: 'Ana', score: 12, innings: 9, highRun: 4, average: 1.333, run: 2, target: 40 },
      { name: 'Ben', score: 9, innings: 8, highRun: 3, average: 1.125, run: 0, target: 40 },
    ],
    prompt: null,
    shots: [{ shooter: 'Ana', points: 1, foul: null, rules: ['TC-1'], turnPasses: false, cueBall: 'white' }],
    cueBall: 'white',
    endRule: null,
    instructions: [],
    table,
    seq: 7,
    updatedAt: '2026-01-01T12:00:00.000Z',
    shotCount: 17,
    hub: 'test',
    simulated: false,
    lastShotEndedAt: null,
    pendingShots: 0,
    nextShot: null,
    match: { variant: 'three-cushion', players: ['Ana', 'Ben'], target: 40, options: {} },
    ...over,
  };
}
