import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTopic, TABLE_TOPICS, topicOf, topics, type ParsedTopic } from '../../hub/contract/topics.ts';

/** One topic level: no separator, no wildcard, not empty. */
const level = fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/);
const base = fc.array(level, { minLength: 1, maxLength: 3 }).map((l) => l.join('/'));
const parsedTopic: fc.Arbitrary<ParsedTopic> = fc.oneof(
  fc.constant({ kind: 'bridge-state' as const }),
  fc.constant({ kind: 'league-state' as const }),
  level.map((hub) => ({ kind: 'hub-state' as const, hub })),
  fc.record({ table: level, topic: fc.constantFrom(...TABLE_TOPICS) }).map((t) => ({ kind: 'table' as const, ...t })),
  fc.array(level, { minLength: 1, maxLength: 3 }).map((l) => ({ kind: 'request' as const, command: l.join('/') })),
  fc.array(level, { minLength: 1, maxLength: 3 }).map((l) => ({ kind: 'response' as const, command: l.join('/') })),
);

describe('contract topics', () => {
  it('round trip: parseTopic reads back every topic the topic functions build', () => {
    fc.assert(
      fc.property(base, parsedTopic, (b, p) => {
        expect(parseTopic(b, topicOf(b, p))).toEqual(p);
      }),
    );
  });

  it('round trip: a topic parseTopic accepts is the one topicOf builds from it', () => {
    const anyTopic = fc.tuple(base, fc.array(fc.oneof(level, fc.constantFrom('tables', 'hubs', 'state', 'request', 'response', 'league', 'bridge', 'tracker', 'events', '')), { maxLength: 5 }));
    fc.assert(
      fc.property(anyTopic, ([b, rest]) => {
        const topic = [b, ...rest].join('/');
        const parsed = parseTopic(b, topic);
        if (parsed) expect(topicOf(b, parsed)).toBe(topic);
      }),
    );
  });

  it('the named topic functions agree with the parser', () => {
    const t = topics('club/x');
    expect(parseTopic('club/x', t.tableState('7'))).toEqual({ kind: 'table', table: '7', topic: 'state' });
    expect(parseTopic('club/x', t.tableTracker('7'))).toEqual({ kind: 'table', table: '7', topic: 'tracker' });
    expect(parseTopic('club/x', t.hubState('h1'))).toEqual({ kind: 'hub-state', hub: 'h1' });
    expect(parseTopic('club/x', t.request('match/start'))).toEqual({ kind: 'request', command: 'match/start' });
    expect(parseTopic('club/x', t.leagueState)).toEqual({ kind: 'league-state' });
    expect(parseTopic('club/x', t.bridgeState)).toEqual({ kind: 'bridge-state' });
  });

  it('topics outside the base or the contract are not read', () => {
    for (const topic of ['other/tables/1/state', 'billiards', 'billiards/tables/1', 'billiards/tables//state', 'billiards/tables/1/state/x', 'billiards/tables/1/bogus', 'billiards/hubs/h/other', 'billiards/bridge', 'billiards/league/state/x', 'billiardsX/bridge/state', 'homeassistant/sensor/x/config']) {
      expect(parseTopic('billiards', topic), topic).toBeNull();
    }
  });
});
