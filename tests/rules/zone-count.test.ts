import { describe, expect, it } from 'vitest';
import { matchViewSchema } from '../../hub/contract/table.ts';
import { ball, newMatch, play, shotWith } from './helpers.ts';
import { scoreboardFragment } from '../../web/pages/scoreboard.ts';
import { sampleState } from '../web/support/states.ts';

// Both object balls come to rest in the head-left 47/2 zone (470 mm from each cushion).
const inCorner = { white: [1400, 700], yellow: [200, 200], red: [300, 300] } as const;
const carom = shotWith({ positions: inCorner }, ball('white', 'red'), ball('white', 'yellow'));

describe('BK-1..3, FG-3: the zone count in the engine view and on the scoreboard', () => {
  it('BK-3 balkline 47/2: the caroms made with both object balls held in one zone, against its limit', () => {
    const m = newMatch('balkline-47-2', 150);
    expect(m.view().zone).toEqual({ name: '47/2', zone: null, count: 0, limit: 2 });
    play(m, carom); // from the break position: the balls were apart, no count yet
    expect(m.view().zone).toEqual({ name: '47/2', zone: null, count: 0, limit: 2 });
    const v = play(m, carom); // started held in the corner zone: one carom there
    expect(v.zone).toEqual({ name: '47/2', zone: 'c0r0', count: 1, limit: 2 });
    expect(matchViewSchema.parse(v).zone).toEqual(v.zone);
  });

  it('FG-3 free game: corner triangles, one carom each; other games have no zone', () => {
    expect(newMatch('free-game', 50).view().zone).toEqual({ name: 'corner triangles', zone: null, count: 0, limit: 1 });
    expect(newMatch('three-cushion').view().zone).toBeUndefined();
  });

  it('the scoreboard shows the count against the limit, in English and Russian', () => {
    const state = sampleState('1', { variant: 'balkline-47-2', family: 'balkline', zone: { name: '47/2', zone: 'c0r0', count: 2, limit: 2 } });
    const en = scoreboardFragment({ state } as never, '1', { lang: 'en' }).toString();
    expect(en).toContain('Zone 47/2');
    expect(en).toContain('2 of 2 caroms in this zone');
    expect(en).toContain('class="lastshot zone full"');
    const ru = scoreboardFragment({ state: { ...state, zone: { name: 'corner triangles', zone: null, count: 0, limit: 1 } } } as never, '1', { lang: 'ru' }).toString();
    expect(ru).toContain('Зона угловые треугольники');
    expect(ru).toContain('без ограничения');
  });
});
