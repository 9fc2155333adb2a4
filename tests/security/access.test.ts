import { describe, expect, it } from 'vitest';
import { LoginGuard } from '../../hub/ops/login-guard.ts';
import { publicTopics, roleGrant, TopicPolicy } from '../../hub/mqtt/access.ts';

/** The pieces behind findings 1, 3 and 5, in isolation: the login guard and the topic policy. */
describe('LoginGuard: lockout per source and per identity from a source, serialized, with back-off', () => {
  const wrong = () => Promise.resolve(false);
  const right = () => Promise.resolve(true);

  it('forty guesses at once run one check at a time and only five are checked', async () => {
    let t = 0;
    let running = 0;
    let most = 0;
    const guard = new LoginGuard({ now: () => t });
    const slowWrong = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 2));
      running -= 1;
      return false;
    };
    const outcomes = await Promise.all(Array.from({ length: 40 }, () => guard.attempt('referee', '10.0.0.66', slowWrong)));
    expect(most).toBe(1);
    expect(guard.checks).toBe(5);
    expect(outcomes.filter((o) => !o.ok && o.reason === 'locked')).toHaveLength(35);
  });

  it('the back-off doubles with each further failure and ends', async () => {
    let t = 0;
    const guard = new LoginGuard({ now: () => t, freeFailures: 2, baseDelayMs: 1000 });
    await guard.attempt('referee', 'a', wrong);
    const second = await guard.attempt('referee', 'a', wrong);
    expect(second).toEqual({ ok: false, reason: 'wrong', retryAfterMs: 1000 });
    expect((await guard.attempt('referee', 'a', right)).ok).toBe(false); // locked: not even checked
    t += 1000;
    expect(await guard.attempt('referee', 'a', wrong)).toEqual({ ok: false, reason: 'wrong', retryAfterMs: 2000 });
    t += 2000;
    expect(await guard.attempt('referee', 'a', wrong)).toEqual({ ok: false, reason: 'wrong', retryAfterMs: 4000 });
    t += 4000;
    expect(await guard.attempt('referee', 'a', right)).toEqual({ ok: true });
  });

  it('failures are forgotten an hour after the last one', async () => {
    let t = 0;
    const guard = new LoginGuard({ now: () => t, freeFailures: 2, baseDelayMs: 1000 });
    await guard.attempt('referee', 'a', wrong);
    t += 60 * 60_000 + 1;
    expect(await guard.attempt('referee', 'a', wrong)).toEqual({ ok: false, reason: 'wrong', retryAfterMs: 0 });
  });

  it("an attacker failing as the referee locks out the attacker's address, never the referee at another", async () => {
    const guard = new LoginGuard({ now: () => 0 });
    for (let i = 0; i < 20; i++) await guard.attempt('referee', 'attacker', wrong);
    expect((await guard.attempt('referee', 'attacker', right)).ok).toBe(false);
    expect(await guard.attempt('referee', 'referee-tablet', right)).toEqual({ ok: true });
    // Nor another user from the attacker's address either way: the source is locked.
    expect((await guard.attempt('scoreboard', 'attacker', right)).ok).toBe(false);
  });
});

describe('TopicPolicy and roles', () => {
  const policy = new TopicPolicy('billiards', ['homeassistant']);
  const display = roleGrant('display', 'billiards');
  const referee = roleGrant('referee', 'billiards');
  const tracker = roleGrant('tracker', 'billiards', { tables: ['t1'] });
  const legacy = { role: 'custom' as const, publish: ['billiards/#'], subscribe: ['#'] };

  it('nobody but the hub publishes on hub-owned topics, whatever the grant says', () => {
    for (const grant of [display, referee, tracker, legacy]) {
      for (const topic of ['billiards/tables/t1/state', 'billiards/bridge/state', 'billiards/hubs/x/state', 'billiards/response/match/start', 'billiards/league/state', 'homeassistant/sensor/x/config']) {
        expect(policy.refusePublish(grant, topic, 10, false), `${grant.role} on ${topic}`).toMatch(/the hub's own topic/);
      }
    }
  });

  it('a referee sends requests, a tracker its table, a display nothing; never retained, never oversized', () => {
    expect(policy.refusePublish(referee, 'billiards/request/match/start', 100, false)).toBeNull();
    expect(policy.refusePublish(display, 'billiards/request/match/start', 100, false)).toMatch(/not allowed/);
    expect(policy.refusePublish(tracker, 'billiards/tables/t1/tracker', 100, false)).toBeNull();
    expect(policy.refusePublish(tracker, 'billiards/tables/t2/tracker', 100, false)).toMatch(/not allowed/);
    expect(policy.refusePublish(referee, 'billiards/request/match/start', 100, true)).toMatch(/retained/);
    expect(policy.refusePublish(referee, 'billiards/request/match/start', 65 * 1024, false)).toMatch(/over the limit/);
    expect(policy.refusePublish(undefined, 'billiards/request/match/start', 1, false)).toMatch(/not logged in/);
  });

  it('requests are forwarded to nobody, answers only to those who may ask, the rest as the grant reads', () => {
    for (const grant of [display, referee, tracker, legacy]) expect(policy.mayForward(grant, 'billiards/request/match/start')).toBe(false);
    expect(policy.mayForward(referee, 'billiards/response/match/export')).toBe(true);
    expect(policy.mayForward(legacy, 'billiards/response/match/export')).toBe(true); // it may publish requests
    expect(policy.mayForward(display, 'billiards/response/match/export')).toBe(false);
    expect(policy.mayForward(tracker, 'billiards/response/match/export')).toBe(false);
    for (const topic of publicTopics('billiards').map((t) => t.replace('+', 't1'))) expect(policy.mayForward(display, topic)).toBe(true);
    expect(policy.mayForward(display, 'billiards/tables/t1/tracker')).toBe(false);
  });

  it('remembered answers are the answers: asked again, past the bound, per grant', () => {
    const fresh = () => new TopicPolicy('billiards');
    const remembering = fresh();
    const topicsAsked = Array.from({ length: 5000 }, (_, i) => [`billiards/tables/t${i}/events`, `billiards/tables/t${i}/tracker`, `billiards/response/x${i}`, `billiards/request/x${i}`][i % 4]!);
    for (let round = 0; round < 2; round++)
      for (const grant of [display, referee, tracker, legacy])
        for (const topic of topicsAsked) expect(remembering.mayForward(grant, topic)).toBe(fresh().mayForward(grant, topic));
    expect(remembering.mayForward(undefined, 'billiards/tables/t1/events')).toBe(false);
  });
});

describe('embedded broker limits', () => {
  it('connections over the limit are refused at CONNECT (server unavailable) and counted', async () => {
    const { startEmbeddedBroker } = await import('../../hub/mqtt/broker.ts');
    const mqtt = (await import('mqtt')).default;
    const refused: string[] = [];
    const broker = await startEmbeddedBroker({ host: '127.0.0.1', port: 0, wsPort: null, baseTopic: 'billiards', users: [], allowAnonymousRead: true, limits: { maxConnections: 2 }, onRefused: (r) => refused.push(r) });
    const url = `mqtt://127.0.0.1:${broker.port}`;
    try {
      const a = await mqtt.connectAsync(url, { reconnectPeriod: 0 });
      const b = await mqtt.connectAsync(url, { reconnectPeriod: 0 });
      await expect(mqtt.connectAsync(url, { reconnectPeriod: 0 })).rejects.toThrow(/Server unavailable/i);
      expect(refused).toEqual(['connections']);
      await Promise.all([a.endAsync(), b.endAsync()]);
    } finally {
      await broker.close();
    }
  });
});
