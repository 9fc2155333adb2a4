import { readFileSync } from 'node:fs';
import { fuseContacts, inBurst, unknownIds } from '../../hub/camera/fusion.ts';
import { merge, trackIds } from '../../hub/camera/track-fusion.ts';
import type { Shot, ShotEvent } from '../../hub/rules/events.ts';
import type { ShotRecord } from '../../hardware/simulator/video/accuracy.ts';

/**
 * `npx tsx tests/bench/fusion-facts.ts RUN.jsonl`: fusion tried again, without rendering, on
 * the shots of an `accuracy:vision` run written with VISION_FUSION_INPUT=1. Per game and frame
 * rate, each sensor contact's ids as the contact fusion, the track fusion and the two merged
 * (as `fuseWithTracks` does) state them against the truth: f(ull), p(artial), n(ull), W(RONG) — with every wrong one listed.
 * A fact count, not a decision count (the engine's inference is not replayed).
 */
type Contact = Extract<ShotEvent, { kind: 'ball' | 'cushion' | 'skittle' }>;
const ids = (e: ShotEvent): (string | null)[] => (e.kind === 'ball' ? e.balls : e.kind === 'cushion' ? [e.ball] : e.kind === 'skittle' ? [e.by ?? null] : []);

const file = process.argv[2];
if (!file) {
  console.error('usage: fusion-facts.ts RUN.jsonl');
  process.exit(2);
}
const rows = new Map<string, Map<string, number>>();
const wrong: string[] = [];
for (const line of readFileSync(file, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  let r: ShotRecord;
  try {
    r = JSON.parse(line) as ShotRecord;
  } catch {
    continue;
  }
  if (r.type !== 'shot' || !r.fusionInput?.paths) continue;
  const { sensors, camera, paths, options, truth } = r.fusionInput;
  const key = `${r.variant} ${r.fps} fps`;
  const count = rows.get(key) ?? new Map<string, number>();
  rows.set(key, count);
  // Contacts within a click's window give no ids (fusion.ts inBurst), as fuseShot and fuseWithTracks apply it.
  const burst = inBurst(sensors.events, options.toleranceMs);
  const contacts = fuseContacts(sensors, camera, options).events.map((e, k) => (burst.has(k) ? unknownIds(e) : e));
  const possible = new Map<number, string[]>();
  const tracked = trackIds({ events: sensors.events.map(unknownIds) } as Shot, paths!, { ...options, onCandidates: (k, c) => possible.set(k, c) });
  truth.forEach((t, i) => {
    if (t.kind !== 'ball' && t.kind !== 'cushion' && t.kind !== 'skittle') return;
    const readings: [string, ShotEvent][] = [['contacts', contacts[i]!], ['tracks', tracked[i]!], ['merged', merge(contacts[i] as Contact, tracked[i] as Contact, possible.get(i))]];
    for (const [name, e] of readings) {
      const stated = ids(e).filter((x): x is string => x !== null);
      const want = ids(t);
      const outcome = !stated.every((x) => want.includes(x)) ? 'W' : stated.length === want.length ? 'f' : stated.length > 0 ? 'p' : 'n';
      const k = `${name}|${t.kind}|${outcome}`;
      count.set(k, (count.get(k) ?? 0) + 1);
      if (outcome === 'W') wrong.push(`${key} stream ${r.stream} shot ${r.index} event ${i} (${name}): ${JSON.stringify(e)}, truth ${JSON.stringify(t)}`);
    }
  });
}
for (const [key, count] of rows) {
  console.log(key);
  for (const name of ['contacts', 'tracks', 'merged']) {
    const kinds = ['ball', 'cushion', 'skittle'].map((kind) => `${kind} ${['f', 'p', 'n', 'W'].map((o) => `${o}${count.get(`${name}|${kind}|${o}`) ?? 0}`).join(' ')}`);
    console.log(`  ${name.padEnd(9)}${kinds.join(' | ')}`);
  }
}
console.log(wrong.length ? wrong.join('\n') : 'no wrong fact');
