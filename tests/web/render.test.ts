import { describe, expect, it } from 'vitest';
import { html } from 'hono/html';
import { jsonBlock } from '../../web/pages/layout.ts';
import { overviewFragment } from '../../web/pages/overview.ts';
import { refereeFragment } from '../../web/pages/referee.ts';
import { scoreboardFragment } from '../../web/pages/scoreboard.ts';
import { skittlesSvg, timelineSvg } from '../../web/pages/svg.ts';
import { alertsFor, TableStore } from '../../web/store.ts';
import { sampleState } from './support/states.ts';

describe('html', () => {
  it('escapes interpolations and JSON blocks', () => {
    expect(html`<p>${'<b>"x"&'}</p>`.toString()).toBe('<p>&lt;b&gt;&quot;x&quot;&amp;</p>');
    expect(jsonBlock('c', { s: '</script><script>alert(1)</script>' }).toString()).not.toContain('</script><script>');
  });
});

describe('store', () => {
  it('keeps the latest of each topic and ignores what it cannot read', () => {
    const store = new TableStore();
    const changes: string[] = [];
    store.on('change', (t) => changes.push(t));
    expect(store.ingest('1', 'state', JSON.stringify(sampleState('1')))).toBe(true);
    expect(store.ingest('1', 'state', '{"table":"1"}')).toBe(false);
    expect(store.ingest('1', 'availability', '{"state":"offline"}')).toBe(true);
    expect(store.ingest('bad id', 'state', JSON.stringify(sampleState('x')))).toBe(false);
    expect(store.ingest('1', 'bogus', '{}')).toBe(false);
    expect(store.get('1')?.state?.seq).toBe(7);
    expect(changes).toEqual(['1', '1']);
    store.ingest('1', 'state', '');
    store.ingest('1', 'availability', '');
    expect(store.get('1')).toBeUndefined();
  });

  it('derives alerts: a prompt waiting and a link down, plus those the hub reports', () => {
    const store = new TableStore();
    store.ingest('1', 'state', JSON.stringify(sampleState('1', { status: 'awaiting-referee', prompt: { question: 'Which ball?', rules: [], facts: [], options: [] } })));
    store.ingest('1', 'availability', '{"state":"offline"}');
    // A health payload must be a whole one (the contract's schema): one without its table or counts is refused.
    expect(store.ingest('1', 'health', JSON.stringify({ link: 'up', lastHeartbeatAt: null, framesDropped: 3, alerts: [] }))).toBe(false);
    store.ingest('1', 'health', JSON.stringify({ table: '1', link: 'up', lastHeartbeatAt: null, framesDropped: 3, boardResets: 0, alerts: [{ kind: 'stuck-skittle', detail: 'king reads down for 5 min', since: '2026-01-01T12:00:00.000Z' }] }));
    expect(alertsFor(store.get('1')!).map((a) => a.kind)).toEqual(['stuck-skittle', 'prompt-waiting', 'link-down']);
  });
});

describe('hubs', () => {
  it('a hub that says it is offline puts an alert on its tables', () => {
    const store = new TableStore();
    const changes: string[] = [];
    store.on('change', (t) => changes.push(t));
    store.ingest('7', 'state', JSON.stringify(sampleState('7', { hub: 'annex' })));
    expect(store.ingestHub('annex', JSON.stringify({ state: 'online', tables: ['7'] }))).toBe(true);
    expect(store.ingestHub('annex', JSON.stringify({ state: 'offline' }))).toBe(true);
    expect(store.hub('annex')).toEqual({ hub: 'annex', state: 'offline', tables: ['7'] });
    expect(changes.filter((t) => t === '7')).toHaveLength(3);
    expect(alertsFor(store.get('7')!, store.hub('annex')).map((a) => a.kind)).toContain('hub-offline');
    const html = overviewFragment(store.list(), Date.now(), false, store.hubList()).toString();
    expect(html).toContain('annex · offline');
    expect(html).toContain('alert-hub-offline');
    expect(store.ingestHub('annex', 'nonsense')).toBe(false);
  });
});

describe('pictures', () => {
  it('draws the timeline at the events’ times, or in order when times are missing', () => {
    const timed = timelineSvg([{ kind: 'ball', balls: ['white', 'red'], t: 0 }, { kind: 'cushion', rail: 'foot', t: 1000 }]).toString();
    expect(timed).toContain('white–red');
    expect(timed).toContain('foot');
    expect(timed).toContain('1.0 s');
    expect(timelineSvg([{ kind: 'cushion', rail: 'head' }]).toString()).toContain('order only');
    expect(timelineSvg([]).toString()).toContain('No shot yet');
  });

  it('timeline labels of close events never sit on each other ("leftfoot")', () => {
    const svg = timelineSvg([{ kind: 'cushion', rail: 'left', t: 500 }, { kind: 'cushion', rail: 'foot', t: 520 }, { kind: 'cushion', rail: 'right', t: 540 }, { kind: 'cushion', rail: 'head', t: 560 }, { kind: 'ball', balls: ['white', 'red'], t: 3000 }]).toString();
    const labels = [...svg.matchAll(/<g class="tl-mark tl-cushion">.*?<text x="([\d.]+)" y="([\d.]+)" text-anchor="(\w+)">(\w+)<\/text>/g)].map(([, x, y, a, t]) => {
      const w = t!.length * 18;
      const x0 = a === 'start' ? Number(x) : a === 'end' ? Number(x) - w : Number(x) - w / 2;
      return { y: Number(y), x0, x1: x0 + w };
    });
    expect(labels).toHaveLength(4);
    for (const a of labels) for (const b of labels) if (a !== b && a.y === b.y) expect(a.x1 <= b.x0 || b.x1 <= a.x0).toBe(true);
  });

  it('marks fallen skittles', () => {
    const svg = skittlesSvg('skittles-5', new Set(['king'])).toString();
    expect(svg.match(/class="pin down"/g)).toHaveLength(1);
    expect(svg.match(/class="pin up"/g)).toHaveLength(4);
    expect(skittlesSvg('skittles-7-pyramid', new Set()).toString().match(/class="pin up"/g)).toHaveLength(7);
  });
});

describe('fragments', () => {
  const rec = (over = {}) => ({ table: '1', state: sampleState('1', over), availability: null, health: null, lastShot: null });

  it('scoreboard: scores, whose turn, the last shot in plain words (no rule ids); waiting without state', () => {
    const html = scoreboardFragment(rec(), '1').toString();
    expect(html).toContain('data-score="12"');
    expect(html).toMatch(/class="player active"[^>]*data-player="Ana"/);
    expect(html).toContain('Ana scores 1');
    expect(html).not.toContain('TC-1');
    expect(html).toContain('<h1 class="table-name">Table 1</h1>');
    expect(scoreboardFragment(undefined, '9').toString()).toContain('Waiting for this table');
    expect(scoreboardFragment(rec({ name: 'Centre table' }), '1').toString()).toContain('Centre table');
  });

  it('scoreboard: innings against the limit, points still needed, handicap, an adjustment with its reason', () => {
    const html = scoreboardFragment(
      rec({
        match: { variant: 'three-cushion', players: ['Ana', 'Ben'], target: 40, options: { inningsLimit: 50 } },
        players: [
          { name: 'Ana', score: 12, innings: 9, highRun: 4, average: 1.333, run: 2, target: 40 },
          { name: 'Ben', score: 9, innings: 8, highRun: 3, average: 1.125, run: 0, target: 30 },
        ],
        adjustments: [{ player: 'Ben', delta: 1, reason: 'scorer error', afterShot: 17 }],
      }),
      '1',
    ).toString();
    expect(html).toContain('9/50');
    expect(html).toMatch(/class="needs">28</);
    expect(html).toContain('handicap');
    expect(html).toContain('Referee: Ben +1 (scorer error)');
  });

  it('scoreboard: countdown games show points left, never below 0, and no average', () => {
    const html = scoreboardFragment(rec({ variant: 'skittles-7-pyramid', players: [{ name: 'Ana', score: -25, innings: 4, highRun: 3, average: -12.5, run: 0, target: 300 }, { name: 'Ben', score: 40, innings: 4, highRun: 3, average: 2, run: 0, target: 300 }] }), '1').toString();
    expect(html).toContain('points left');
    expect(html).toContain('data-score="0"');
    expect(html).not.toContain('Average');
    expect(html).not.toContain('-12.5');
    expect(html).toContain('skittles-svg');
  });

  it('scoreboard: match point, a high run, the match clock', () => {
    const html = scoreboardFragment(
      rec({
        matchStartedAt: new Date(Date.now() - 65_000).toISOString(),
        players: [
          { name: 'Ana', score: 39, innings: 9, highRun: 6, average: 4.333, run: 6, target: 40 },
          { name: 'Ben', score: 9, innings: 8, highRun: 3, average: 1.125, run: 0, target: 40 },
        ],
      }),
      '1',
    ).toString();
    expect(html).toMatch(/data-player="Ana"[\s\S]*match point[\s\S]*high run 6!/);
    expect(html).toContain('class="player active celebrate"');
    expect(html).toMatch(/class="match-clock" data-since="\d+"[^>]*>1:0[5-9]</);
    expect(scoreboardFragment(rec({ status: 'finished', winner: 'Ana', matchStartedAt: new Date().toISOString() }), '1').toString()).not.toContain('match-clock');
  });

  it('scoreboard: while a shot is under review the last-shot line says so (the timeline shows that shot, not the one before)', () => {
    const html = scoreboardFragment(rec({ status: 'awaiting-referee' }), '1').toString();
    expect(html).toContain('<div class="lastshot review"><span class="ls-label">Last shot</span><span class="ls-text">under review by the referee</span></div>');
    expect(scoreboardFragment(rec({ status: 'awaiting-referee' }), '1', { lang: 'ru' }).toString()).toContain('на рассмотрении у судьи');
  });

  it('scoreboard in Russian uses the seeds’ terms', () => {
    const html = scoreboardFragment(rec(), '1', { lang: 'ru' }).toString();
    expect(html).toContain('Серия');
    expect(html).toContain('Карамболь в три борта');
    expect(html).toContain('Стол 1');
  });

  it('referee: the prompt shows the question, the facts and one button per option', () => {
    const prompt = {
      question: 'How did this shot end?',
      rules: ['TC-1'],
      facts: [{ event: 1, kind: 'cushion' as const, field: 'ball' as const, candidates: ['white', 'red'] }],
      options: [
        { index: 0, ruling: 'score' as const, points: 1, foul: null, turnPasses: false, rules: ['TC-1'] },
        { index: 1, ruling: 'no-score' as const, points: 0, foul: null, turnPasses: true, rules: ['TC-1'] },
      ],
    };
    const shot = { type: 'shot' as const, table: '1', at: '', result: null, prompt: true, events: [{ kind: 'ball', balls: ['white', 'red'], t: 100 }, { kind: 'cushion', rail: 'foot', ball: null, t: 500 }] };
    const r = { ...rec({ status: 'awaiting-referee', prompt }), lastShot: shot, promptShot: shot };
    const html = refereeFragment(r, '1').toString();
    expect(html).toContain('Which ball hit the foot rail at 0.50 s after cue ball met red — cue ball or red?');
    expect(html).toContain('Ana scores 1, the run goes on');
    expect(html).toContain('No point, turn passes to Ben');
    expect(html.match(/data-action="ruling"/g)).toHaveLength(2);
    // No likelihood from the hub: the engine's order, nothing pre-selected.
    expect(html).not.toContain('selected');
    expect(html).toMatch(/<details class="evidence-box">/);
    // With likelihoods: most likely first and pre-selected, its figure shown.
    const weighed = { ...prompt, options: [{ ...prompt.options[0]!, likelihood: 0.2 }, { ...prompt.options[1]!, likelihood: 0.8 }] };
    const html2 = refereeFragment({ ...r, state: { ...r.state, prompt: weighed } }, '1').toString();
    expect(html2.indexOf('data-option="1"')).toBeLessThan(html2.indexOf('data-option="0"'));
    expect(html2).toMatch(/option ruling-no-score selected" data-action="ruling" data-ruling="no-score" data-option="1" data-key="1"/);
    expect(html2).toContain('80% likely');
    expect(refereeFragment(r, '1', 'ru').toString()).toContain('Какой шар ударился в нижний борт');
    // With the engine's `when`: each button names the fact that leads to it (white is Ana's cue ball).
    const when = { ...prompt, options: [{ ...prompt.options[0]!, when: [{ event: 1, kind: 'cushion' as const, field: 'ball' as const, values: ['white'] }] }, { ...prompt.options[1]!, when: [{ event: 1, kind: 'cushion' as const, field: 'ball' as const, values: ['red'] }], awards: [{ player: 1, points: 2 }] }] };
    const withWhen = { ...r, state: { ...r.state, cueBall: "white", prompt: when } } as never;
    const en = refereeFragment(withWhen, '1').toString();
    expect(en).toContain('<span class="o-cond">The cue ball</span> — <span class="o-result">Ana scores 1, the run goes on</span>');
    expect(en).toContain('<span class="o-cond">The red</span> — <span class="o-result">No point, 2 points to Ben, turn passes to Ben</span>');
    const ru = refereeFragment(withWhen, '1', 'ru').toString();
    expect(ru).toContain('<span class="o-cond">Биток</span> — <span class="o-result">Ana получает 1 очко, серия продолжается</span>');
    expect(ru).toContain('<span class="o-cond">Красный</span>');
  });

  it('referee: undo names what it takes back; adjustments sit in the shot list with their reason', () => {
    const r = rec({ adjustments: [{ player: 'Ben', delta: 1, reason: 'scorer error', afterShot: 17 }] });
    const html = refereeFragment(r, '1').toString();
    expect(html).toContain('data-undo="the adjustment (Referee: Ben +1 (scorer error))"');
    expect(html).toMatch(/<li class="adjust"[^>]*>Referee: Ben \+1 \(scorer error\)/);
    expect(refereeFragment(rec(), '1').toString()).toContain('data-undo="the last shot (Ana scores 1)"');
  });

  it('an idle table (no match yet, as the hub publishes it) reads as such everywhere', () => {
    const store = new TableStore();
    const idle = { table: '4', seq: 1, updatedAt: '2026-01-01T00:00:00Z', shotCount: 0, hub: 'h', simulated: false, lastShotEndedAt: null, pendingShots: 0, nextShot: null, match: null, status: 'idle', variant: null, winner: null, turn: null, players: [], prompt: null, shots: [], cueBall: null, endRule: null, instructions: [] };
    expect(store.ingest('4', 'state', JSON.stringify(idle))).toBe(true);
    const r = store.get('4')!;
    expect(scoreboardFragment(r, '4').toString()).toContain('No match on this table yet');
    expect(refereeFragment(r, '4').toString()).toContain('No match on this table');
    expect(overviewFragment([r], Date.now(), false).toString()).toContain('No match');
  });

  it('referee: shots queued behind a prompt are counted', () => {
    expect(refereeFragment(rec({ pendingShots: 2 }), '1').toString()).toContain('2 shots from the sensors waiting');
  });

  it('overview: links for everyone, console links only when logged in', () => {
    const r = rec();
    expect(overviewFragment([r], Date.now(), false).toString()).not.toContain('/referee/1');
    expect(overviewFragment([r], Date.now(), true).toString()).toContain('/referee/1');
    expect(overviewFragment([], Date.now(), false).toString()).toContain('No tables seen');
  });
});
