import type { BallId } from './ids.ts';
import { playsSkittles } from './catalogue.ts';
import type { Shot } from './events.ts';
import type { AnyVariant } from './variant.ts';
import { err, ok, type Result } from './result.ts';

/**
 * Checks a shot against the variant before anything is applied: every ball and skittle id
 * must belong to the game (CONTRACT §2: an unknown ball id is an error), and each field
 * must make sense for this kind of table.
 */
export function validateShot(variant: AnyVariant, shot: Shot, cueBall: BallId): Result<void> {
  // The seven-skittle games are played on a pocket table (SK7P-1, SK7C-1).
  const pocketTable = variant.family === 'skittles-7';

  for (const [i, e] of shot.events.entries()) {
    const where = `shot.events[${i}]`;
    let problem: string | null = null;
    switch (e.kind) {
      case 'ball':
        problem = unknownBall(variant, e.balls[0], where) ?? unknownBall(variant, e.balls[1], where);
        if (!problem && e.balls[0] !== null && e.balls[0] === e.balls[1]) problem = `${where}: a ball cannot meet itself ('${e.balls[0]}')`;
        break;
      case 'cushion':
        problem = unknownBall(variant, e.ball, where);
        break;
      case 'skittle':
        if (!(variant.skittles as readonly string[]).includes(e.skittle)) {
          problem = variant.skittles.length === 0 ? `${where}: ${variant.id} has no skittles` : `${where}: unknown skittle '${e.skittle}' (${variant.id} uses ${variant.skittles.join(', ')})`;
        } else problem = unknownBall(variant, e.by, where);
        break;
      case 'pocket':
        problem = pocketTable ? unknownBall(variant, e.ball, where) : `${where}: ${variant.id} is played on a table without pockets`;
        break;
      case 'off-table':
        problem = unknownBall(variant, e.ball, where);
        break;
      case 'foul':
        if (e.by === 'opponent' && !playsSkittles(variant.family)) problem = `${where}: a foul by the opponent is only a rule of the skittle games (SK5-10)`;
        else if (e.ball !== undefined && e.foul !== 'stopped-ball') problem = `${where}: only a 'stopped-ball' foul names a ball (SK5-10)`;
        else if (e.ball !== undefined) problem = unknownBall(variant, e.ball, where);
        break;
    }
    if (!problem && (e.kind === 'ball' || e.kind === 'cushion' || e.kind === 'skittle') && e.candidates) problem = badCandidates(variant, e, where);
    if (problem) return err(problem);
  }
  if (shot.frozen && 'ball' in shot.frozen) {
    const problem = unknownBall(variant, shot.frozen.ball, 'shot.frozen.ball');
    if (problem) return err(problem);
    if (shot.frozen.ball === cueBall) return err(`shot.frozen.ball: '${cueBall}' is the cue ball itself`);
  }
  for (const id of Object.keys(shot.objectFrozen ?? {})) {
    const problem = unknownBall(variant, id, 'shot.objectFrozen');
    if (problem) return err(problem);
    if (id === cueBall) return err(`shot.objectFrozen: '${id}' is the cue ball, use shot.frozen`);
  }
  for (const id of Object.keys(shot.positions ?? {})) {
    const problem = unknownBall(variant, id, 'shot.positions');
    if (problem) return err(problem);
  }
  for (const [i, id] of (shot.moved ?? []).entries()) {
    const problem = unknownBall(variant, id, `shot.moved[${i}]`);
    if (problem) return err(problem);
    if (shot.moved!.indexOf(id) !== i) return err(`shot.moved[${i}]: '${id}' is named twice`);
  }
  if (shot.declare === 'carom' && !pocketTable) return err(`shot.declare: a called carom is a rule of the seven-skittle games (SK7P-8), not ${variant.id}`);
  return ok(undefined);
}

/** Candidates (an extension): game balls, and consistent with the ids the event does state. */
function badCandidates(variant: AnyVariant, e: Extract<Shot['events'][number], { kind: 'ball' | 'cushion' | 'skittle' }>, where: string): string | null {
  const at = `${where}.candidates`;
  if (e.kind === 'ball') {
    for (const [x, y] of e.candidates ?? []) {
      const problem = unknownBall(variant, x, at) ?? unknownBall(variant, y, at);
      if (problem) return problem;
      if (x === y) return `${at}: a ball cannot meet itself ('${x}')`;
      const known = e.balls.filter((b): b is string => b !== null);
      if (!known.every((b) => b === x || b === y)) return `${at}: the pair ${x}+${y} leaves out ${known.join(' and ')}, which the event names`;
    }
    return null;
  }
  const stated = e.kind === 'skittle' ? e.by : e.ball;
  for (const b of e.candidates ?? []) {
    const problem = unknownBall(variant, b, at);
    if (problem) return problem;
  }
  return stated !== null && !(e.candidates ?? []).includes(stated) ? `${at}: '${stated}', which the event names, is not among them` : null;
}

function unknownBall(variant: AnyVariant, id: string | null | undefined, where: string): string | null {
  const balls = variant.balls as readonly string[];
  return id === null || id === undefined || balls.includes(id) ? null : `${where}: unknown ball '${id}' (${variant.id} uses ${balls.join(', ')})`;
}
