import { decodeLine } from '../../hub/matchlog/decode.ts';
import { replayLog } from '../../hub/matchlog/replay.ts';
import type { MatchInput } from '../../hub/rules/events.ts';
import { Match } from '../../hub/rules/match.ts';
import { artisticLog, caromLog, skittleLog, type GeneratedLog } from './generate.ts';

const SHOTS = 10_000;
const RUNS = 7;

export const RULE_BENCHMARKS: (() => GeneratedLog)[] = [
  () => caromLog('carom', SHOTS, 1),
  () => caromLog('one-cushion', SHOTS, 2),
  () => caromLog('three-cushion', SHOTS, 3),
  () => caromLog('free-game', SHOTS, 4),
  () => caromLog('balkline-47-2', SHOTS, 5),
  () => caromLog('balkline-74-2', SHOTS, 6),
  () => skittleLog('skittles-5', SHOTS, 8),
  () => skittleLog('skittles-7-pyramid', SHOTS, 9),
  () => skittleLog('skittles-7-carom', SHOTS, 10),
];

/** Keeps the rulings that answer a prompt and drops the rest, so the log is valid. */
function playable(log: GeneratedLog): { setup: Parameters<typeof Match.create>[0]; inputs: MatchInput[]; text: string } {
  const [head, ...rest] = log.lines.map((l) => decodeLine(l));
  if (!head?.ok || head.value.kind !== 'match') throw new Error('bad generated log');
  const setup = head.value.match;
  const probe = Match.create(setup);
  if (!probe.ok) throw new Error(probe.error);
  const inputs: MatchInput[] = [];
  const kept: string[] = [log.lines[0]!];
  rest.forEach((line, i) => {
    if (!line.ok || line.value.kind === 'match') throw new Error('bad generated line');
    const input = line.value;
    const status = probe.value.view().status;
    if (input.kind === 'referee' && status !== 'awaiting-referee') return;
    if (input.kind === 'shot' && status !== 'playing') return;
    if (probe.value.apply(input).ok) {
      inputs.push(input);
      kept.push(log.lines[i + 1]!);
    }
  });
  return { setup, inputs, text: kept.join('\n') };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface RuleFigure {
  variant: string;
  shots: number;
  engineShotsPerSecond: number;
  replayShotsPerSecond: number;
  heapBytesPerShot: number;
}

/** One gc() leaves garbage that the next collects: settle before reading the heap. */
function settle(gc: (() => void) | undefined): void {
  for (let i = 0; i < 4; i++) gc?.();
}

function playAll(setup: Parameters<typeof Match.create>[0], inputs: readonly MatchInput[]): Match {
  const match = Match.create(setup);
  if (!match.ok) throw new Error(match.error);
  for (const input of inputs) match.value.apply(input);
  return match.value;
}

/** Keeps the measured matches reachable until their heap has been read. */
let sink: unknown;

export function benchRules(gc: (() => void) | undefined): RuleFigure[] {
  const figures: RuleFigure[] = [];
  for (const make of [...RULE_BENCHMARKS, () => artisticLog(SHOTS, 7)]) {
    const log = make();
    const { setup, inputs, text } = playable(log);
    const shots = inputs.filter((i) => i.kind === 'shot').length;
    const engine: number[] = [];
    const replay: number[] = [];
    const heap: number[] = [];
    // Heap first, with nothing else alive: what a match holds per shot (its log and undo checkpoints).
    for (let run = 0; run < 3; run++) {
      settle(gc);
      const heapBefore = process.memoryUsage().heapUsed;
      sink = playAll(setup, inputs); // in its own frame, so no stack slot keeps an old match alive
      settle(gc);
      heap.push((process.memoryUsage().heapUsed - heapBefore) / shots);
      sink = null;
    }
    for (let run = 0; run < RUNS; run++) {
      let t0 = performance.now();
      const match = Match.create(setup);
      if (!match.ok) throw new Error(match.error);
      for (const input of inputs) match.value.apply(input);
      engine.push((inputs.length / (performance.now() - t0)) * 1000);
      t0 = performance.now();
      const result = replayLog(text);
      if (!result.ok) throw new Error(`line ${result.line}: ${result.error}`);
      replay.push((shots / (performance.now() - t0)) * 1000);
    }
    figures.push({
      variant: log.variant,
      shots,
      engineShotsPerSecond: Math.round(median(engine)),
      replayShotsPerSecond: Math.round(median(replay)),
      heapBytesPerShot: Math.round(median(heap)),
    });
  }
  return figures;
}
