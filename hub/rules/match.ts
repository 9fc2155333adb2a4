import type { BallId, FoulKind } from './ids.ts';
import type { MatchInput, MatchSetup, Positions, RefereeInput, Ruling, Shot } from './events.ts';
import { effectKey, priorShares, rulingClass, type Instruction, type Outcome, type ShotContext } from './outcome.ts';
import type { AnyVariant, MatchOptionsBase } from './variant.ts';
import { err, ok, type Result } from './result.ts';
import { validateShot } from './validate.ts';
import { variantById } from './variants/index.ts';
import { playsSkittles } from './catalogue.ts';
import { DID_NOT_HAPPEN, enumerateWorlds, type UndeterminedFact } from './worlds.ts';
import type { PhysicalBounds } from './bounds.ts';
import { LIKELIHOOD_MODEL } from './likelihood.ts';
import { RANKING_MODEL, rerank } from './ranking/rerank.ts';
import { MATCH_TABLE, type TableSize } from './options.ts';
import { CAROM_BALL_MM } from './table.ts';
import { skittleSpots, type SkittleTable } from './skittles/geometry.ts';
import type { MatchView, PlayerView, PromptView, ShotResult } from './view.ts';

interface PlayerCore {
  score: number;
  innings: number;
  highRun: number;
  run: number;
}

interface OpenPrompt {
  ctx: ShotContext;
  outcomes: Outcome[];
  view: PromptView;
}

/** Everything that changes from shot to shot; small and never mutated, so undo is a pointer swap. */
interface Core {
  status: MatchView['status'];
  winner: number | null;
  endRule: string | null;
  turn: number;
  cueBall: BallId;
  players: readonly PlayerCore[];
  carry: unknown;
  prompt: OpenPrompt | null;
  positions: Positions | null;
  /** How far each of `positions` may be off, mm (the shot that gave them said so; 0: exact). */
  positionsErrorMm: number;
  instructions: readonly Instruction[];
  shotInInning: number;
  shotCount: number;
  /** Equalizing inning (G-14 practice): someone reached the target; the round is being completed. */
  closing: boolean;
}

interface Frame {
  core: Core;
  shots: number;
  adjustments: number;
}

/** How the engine reads shots; not part of a match log. */
export interface EngineConfig {
  /**
   * false: only "a ball at rest cannot hit anything" prunes readings — no "a named ball was set
   * moving" rule and no timing bounds. For the accuracy bench's before/after figures.
   */
  pruning?: boolean;
  /** false: options ranked by the per-event model alone (ranking/rerank.ts off), as the ranking's fit needs. */
  ranking?: boolean;
}

/** Undo keeps the applied inputs (the log itself) and a full state every this many inputs. */
const CHECKPOINT_EVERY = 32;

export interface Adjustment {
  player: string;
  delta: number;
  reason: string;
  afterShot: number;
}

/**
 * A match: its setup, the current state, the shot log and the undo history. Deterministic
 * and free of I/O; every input is validated and applied whole or not at all.
 */
export class Match {
  readonly setup: MatchSetup;
  readonly variant: AnyVariant;
  readonly options: MatchOptionsBase & Record<string, unknown>;
  private core: Core;
  /** Every input that changed the match, in order: undo re-applies them from the last checkpoint. */
  private readonly applied: MatchInput[] = [];
  /** checkpoints[k] is the state before input k × CHECKPOINT_EVERY. */
  private readonly checkpoints: Frame[] = [];
  private readonly results: ShotResult[] = [];
  private readonly adjustments: Adjustment[] = [];

  private constructor(setup: MatchSetup, variant: AnyVariant, options: MatchOptionsBase & Record<string, unknown>, readonly config: EngineConfig) {
    this.setup = setup;
    this.variant = variant;
    this.options = options;
    const countdown = variant.scoring === 'countdown';
    this.core = {
      status: 'playing',
      winner: null,
      endRule: null,
      turn: 0,
      cueBall: variant.cueBallFor(0, null, options),
      players: setup.players.map((_, i) => ({
        score: countdown ? options.targets[i]! : 0,
        innings: i === 0 ? 1 : 0,
        highRun: 0,
        run: 0,
      })),
      carry: variant.initialCarry(setup, options),
      prompt: null,
      positions: playsSkittles(variant.family) ? null : breakPositions(options),
      positionsErrorMm: 0,
      instructions: [],
      shotInInning: 0,
      shotCount: 0,
      closing: false,
    };
  }

  static create(setup: MatchSetup, config: EngineConfig = {}): Result<Match> {
    const variant = variantById(setup.variant);
    if (!variant) return err(`match.variant: unknown variant '${setup.variant}'`);
    if (setup.players.length < 2 || setup.players.length > variant.maxPlayers) {
      return err(`match.players: ${variant.id} takes 2${variant.maxPlayers === 3 ? ' or 3' : ''} players, not ${setup.players.length}`);
    }
    if (new Set(setup.players).size !== setup.players.length) return err('match.players: player names must differ');
    const options = variant.parseOptions(setup);
    if (!options.ok) return options;
    return ok(new Match(setup, variant, options.value, config));
  }

  apply(input: MatchInput): Result<void> {
    if (input.kind === 'referee' && 'action' in input.referee && input.referee.action === 'undo') return this.undo();
    const count = this.applied.length;
    if (count % CHECKPOINT_EVERY === 0 && this.checkpoints.length === count / CHECKPOINT_EVERY) {
      this.checkpoints.push({ core: this.core, shots: this.results.length, adjustments: this.adjustments.length });
    }
    const result = input.kind === 'shot' ? this.shot(input.shot) : this.referee(input.referee);
    if (result.ok) this.applied.push(input);
    return result;
  }

  /** Reverts the last input: back to the checkpoint before it, then the inputs since, again. */
  private undo(): Result<void> {
    if (this.applied.length === 0) return err('undo: nothing to undo');
    this.applied.pop();
    const k = Math.floor(this.applied.length / CHECKPOINT_EVERY);
    const frame = this.checkpoints[k]!;
    this.checkpoints.length = k + 1;
    this.core = frame.core;
    this.results.length = frame.shots;
    this.adjustments.length = frame.adjustments;
    const redo = this.applied.splice(k * CHECKPOINT_EVERY);
    for (const input of redo) {
      const result = input.kind === 'shot' ? this.shot(input.shot) : this.referee(input.referee);
      if (!result.ok) throw new Error(`undo could not re-apply an input it had accepted: ${result.error}`);
      this.applied.push(input);
    }
    return ok(undefined);
  }

  get shotCount(): number {
    return this.results.length;
  }

  get shots(): readonly ShotResult[] {
    return this.results;
  }

  get adjustmentLog(): readonly Adjustment[] {
    return this.adjustments;
  }

  private commit(build: () => Core): void {
    this.core = build();
  }

  private shot(shot: Shot): Result<void> {
    const core = this.core;
    if (core.status === 'awaiting-referee') return err('a shot while a referee prompt is open: answer it with a ruling first');
    if (core.status !== 'playing') return err(`the match is ${core.status}: no more shots`);
    const name = this.setup.players[core.turn]!;
    if (shot.shooter !== undefined && shot.shooter !== name) {
      return err(`shooter: the log says '${shot.shooter}' but it is ${name}'s turn`);
    }
    const checked = validateShot(this.variant, shot, core.cueBall);
    if (!checked.ok) return checked;

    const ctx = this.contextFor(shot);
    const scanned = enumerateWorlds(shot.events, this.variant.balls, core.cueBall, this.variant.scanner(ctx), {
      ...(this.config.pruning === false ? { pruning: false } : { bounds: boundsFor(this.variant, this.options) }),
      likelihood: { model: LIKELIHOOD_MODEL, variant: this.variant.id },
      ...(shot.moved ? { moved: shot.moved as BallId[] } : {}),
    });
    const outcomes: Outcome[] = [];
    // How likely each effect is: the weights of the readings that lead to it (a reading judged
    // several ways, on facts outside the events, shares its weight among them).
    const weights = new Map<string, number>();
    const readingsOf = new Map<string, (typeof scanned.worlds)[number][]>();
    for (const world of scanned.worlds) {
      const judged = this.variant.judge(ctx, world.state);
      const list = (Array.isArray(judged) ? judged : [judged]) as Outcome[];
      const shares = priorShares(list);
      list.forEach((outcome, k) => {
        outcomes.push(outcome);
        const key = effectKey(outcome);
        weights.set(key, (weights.get(key) ?? 0) + world.weight * shares[k]!);
        (readingsOf.get(key) ?? readingsOf.set(key, []).get(key)!).push(world);
      });
    }
    const distinct = distinctOutcomes(outcomes);
    if (distinct.length === 1 && !scanned.overflow) {
      this.commit(() => this.settle(core, ctx, distinct[0]!, null));
      return ok(undefined);
    }
    const extras = (this.variant.promptExtras?.(ctx) ?? []) as Outcome[];
    const offered = distinctOutcomes([...distinct, ...extras.filter((x) => !distinct.some((o) => effectKey(o) === effectKey(x)))]);
    const ranked = this.config.ranking === false ? rankByLikelihood(offered, weights) : rankWholeShot(this.variant.id, shot, ctx, rankByLikelihood(offered, weights));
    const prompt = buildPrompt(ctx, ranked, scanned.undetermined, scanned.overflow, new Set(extras.map(effectKey)), readingsOf);
    this.commit(() => ({ ...core, status: 'awaiting-referee', prompt }));
    return ok(undefined);
  }

  private referee(input: RefereeInput): Result<void> {
    if ('ruling' in input) return this.ruling(input.ruling, input.option);
    switch (input.action) {
      case 'undo':
        return this.undo();
      case 'adjust': {
        const index = this.setup.players.indexOf(input.player);
        if (index < 0) return err(`adjust: '${input.player}' is not a player of this match`);
        if (!Number.isInteger(input.delta) || input.delta === 0) return err('adjust: delta must be a non-zero whole number');
        if (input.reason.trim() === '') return err('adjust: a reason is required');
        const players = this.core.players.map((p, i) => (i === index ? { ...p, score: p.score + input.delta } : p));
        this.commit(() => ({ ...this.core, players }));
        this.adjustments.push({ player: input.player, delta: input.delta, reason: input.reason, afterShot: this.results.length });
        return ok(undefined);
      }
      case 'draw': {
        if (this.core.status === 'finished' || this.core.status === 'drawn') return err(`draw: the match is already ${this.core.status}`);
        this.commit(() => ({ ...this.core, status: 'drawn', winner: null, endRule: 'referee', prompt: null }));
        return ok(undefined);
      }
      case 'forfeit': {
        const index = this.setup.players.indexOf(input.player);
        if (index < 0) return err(`forfeit: '${input.player}' is not a player of this match`);
        if (this.core.status === 'finished' || this.core.status === 'drawn') return err(`forfeit: the match is already ${this.core.status}`);
        const others = this.core.players.map((p, i) => ({ i, score: p.score })).filter((p) => p.i !== index);
        others.sort((a, b) => b.score - a.score);
        const winner = others.length === 1 || others[0]!.score > others[1]!.score ? others[0]!.i : null;
        this.commit(() => ({ ...this.core, status: winner === null ? 'drawn' : 'finished', winner, endRule: 'G-8', prompt: null }));
        return ok(undefined);
      }
      default:
        return err('referee: unknown action');
    }
  }

  private ruling(ruling: Ruling, option: number | undefined): Result<void> {
    const prompt = this.core.prompt;
    if (this.core.status !== 'awaiting-referee' || !prompt) return err(`ruling '${ruling}' but no referee prompt is open`);
    const { ctx } = prompt;
    let chosen: Outcome | undefined;
    if (option !== undefined) {
      chosen = prompt.outcomes[option];
      if (!chosen) return err(`ruling: option ${option} does not exist (0–${prompt.outcomes.length - 1})`);
      if (rulingClass(chosen, ctx.shooter) !== ruling) return err(`ruling: option ${option} is not a '${ruling}' outcome`);
    } else {
      const fitting = prompt.outcomes.filter((o) => rulingClass(o, ctx.shooter) === ruling);
      // RULES §11 (CONTRACT §1.3 answers): a plain ruling stands when every option it fits has one effect
      // on the score and the turn; where they differ only in where balls go, the referee is told each possibility.
      chosen = fitting.length > 1 ? sameEffect(fitting) : fitting[0];
      if (fitting.length > 1 && !chosen) return err(`ruling '${ruling}' fits ${fitting.length} outcomes with different effects: add "option" with the index of one`);
      if (!chosen && ruling === 'foul') chosen = this.variant.refereeFoul(ctx) as Outcome;
      if (!chosen) {
        const allowed = [...new Set(prompt.outcomes.map((o) => rulingClass(o, ctx.shooter))), 'foul'];
        return err(`ruling '${ruling}' is not a possible outcome here (possible: ${[...new Set(allowed)].join(', ')})`);
      }
    }
    const settled = chosen;
    this.commit(() => this.settle({ ...this.core, status: 'playing', prompt: null }, ctx, settled, ruling));
    return ok(undefined);
  }

  private contextFor(shot: Shot): ShotContext {
    const core = this.core;
    const n = this.setup.players.length;
    return {
      options: this.options,
      players: n,
      shooter: core.turn,
      opponent: (core.turn + 1) % n,
      cueBall: core.cueBall,
      isBreak: core.shotCount === 0,
      firstShotOfInning: core.shotInInning === 0,
      shot,
      refereeFouls: foulsBy(shot, 'shooter'),
      opponentFouls: foulsBy(shot, 'opponent'),
      carry: core.carry,
      startPositions: core.positions,
      startPositionsErrorMm: core.positionsErrorMm,
      scores: core.players.map((p) => p.score),
    };
  }

  /** Applies a decided outcome: scores, run, the shot log, then the end of the match or the turn. */
  private settle(core: Core, ctx: ShotContext, outcome: Outcome, ruling: Ruling | null): Core {
    const sign = this.variant.scoring === 'countdown' ? -1 : 1;
    const players = [...core.players];
    let own = 0;
    let others = false;
    for (const award of outcome.awards) {
      if (award.points === 0) continue;
      const p = players[award.player]!;
      players[award.player] = { ...p, score: p.score + sign * award.points };
      if (award.player === ctx.shooter) own += award.points;
      else others = true;
    }
    const shooter = players[ctx.shooter]!;
    const run = shooter.run + Math.max(0, own);
    players[ctx.shooter] = { ...shooter, run, highRun: Math.max(shooter.highRun, run) };

    this.results.push({
      shooter: this.setup.players[ctx.shooter]!,
      points: own,
      foul: outcome.foul,
      rules: ruling ? [...outcome.rules, 'referee'] : outcome.rules,
      turnPasses: outcome.turnPasses,
      cueBall: ctx.cueBall,
      ...(others ? { awards: outcome.awards.map((a) => ({ player: this.setup.players[a.player]!, points: a.points })) } : {}),
      ...(ruling ? { ruling } : {}),
    });

    let next: Core = {
      ...core,
      players,
      carry: outcome.carry,
      positions: restingPositions(ctx.shot, outcome.instructions),
      positionsErrorMm: ctx.shot.positionsErrorMm ?? 0,
      instructions: outcome.instructions ?? [],
      shotInInning: core.shotInInning + 1,
      shotCount: core.shotCount + 1,
    };
    if (outcome.ends) return { ...next, status: outcome.ends.winner === null ? 'drawn' : 'finished', winner: outcome.ends.winner, endRule: outcome.ends.rule };

    const custom = this.variant.finished?.(next.carry, players.map((p) => p.score), this.options);
    if (custom) return { ...next, status: custom.winner === null ? 'drawn' : 'finished', winner: custom.winner, endRule: custom.rule };

    // A target can be reached by points made or, in some games, by penalties received (SK5-14).
    const reachedBy: number[] = [];
    for (let i = 0; i < players.length; i++) {
      if (players[i] !== core.players[i] && this.reachedTarget(players[i]!.score, i) && !this.reachedTarget(core.players[i]!.score, i)) reachedBy.push(i);
    }
    const reached = reachedBy.length > 0 && (this.variant.mayEnd?.(outcome, ctx) ?? true);
    const last = ctx.shooter === this.setup.players.length - 1;
    if (reached && !this.options.equalizingInning) {
      const winner = reachedBy.length === 1 ? reachedBy[0]! : reachedBy.includes(ctx.shooter) ? ctx.shooter : null;
      return { ...next, status: winner === null ? 'drawn' : 'finished', winner, endRule: this.endRule() };
    }
    if (reached) next = { ...next, closing: true };
    const shooterReached = reached && reachedBy.includes(ctx.shooter);
    if (!shooterReached && !outcome.turnPasses) return next;

    // The inning ends here. A round closes after the last player in order.
    if (last && next.closing) return this.finishRound(next, this.endRule());
    if (last && this.options.inningsLimit !== null && players[ctx.shooter]!.innings >= this.options.inningsLimit) {
      return this.finishRound(next, 'innings-limit');
    }
    return this.passTurn(next);
  }

  private endRule(): string {
    return this.variant.endRule ?? 'G-14';
  }

  private reachedTarget(score: number, player: number): boolean {
    if (this.variant.scoring === 'figures') return false;
    if (this.variant.scoring === 'countdown') return score <= 0;
    return score >= this.options.targets[player]!;
  }

  /** End of a round with equal innings: whoever reached the target wins; two or more, or none and a tie, is a draw. */
  private finishRound(core: Core, rule: string): Core {
    const reached = core.players.flatMap((p, i) => (this.reachedTarget(p.score, i) ? [i] : []));
    let winner: number | null = null;
    if (reached.length === 1) winner = reached[0]!;
    else if (reached.length === 0) {
      const best = this.variant.scoring === 'countdown' ? Math.min(...core.players.map((p) => p.score)) : Math.max(...core.players.map((p) => p.score));
      const leaders = core.players.flatMap((p, i) => (p.score === best ? [i] : []));
      winner = leaders.length === 1 ? leaders[0]! : null;
    }
    return { ...core, status: winner === null ? 'drawn' : 'finished', winner, endRule: rule };
  }

  private passTurn(core: Core): Core {
    const n = this.setup.players.length;
    const turn = (core.turn + 1) % n;
    const players = core.players.map((p, i) => (i === core.turn ? { ...p, run: 0 } : i === turn ? { ...p, innings: p.innings + 1 } : p));
    return { ...core, players, turn, cueBall: this.variant.cueBallFor(turn, core.cueBall, this.options), shotInInning: 0 };
  }

  view(): MatchView {
    const core = this.core;
    const over = core.status === 'finished' || core.status === 'drawn';
    const players: PlayerView[] = this.setup.players.map((name, i) => {
      const p = core.players[i]!;
      // Countdown displays (RULES §11): what is left never shows below 0, and there is no average.
      const countdown = this.variant.scoring === 'countdown';
      return {
        name,
        score: countdown ? Math.max(0, p.score) : p.score,
        innings: p.innings,
        highRun: p.highRun,
        average: countdown ? null : p.innings > 0 ? Math.round((p.score / p.innings) * 1000) / 1000 : 0,
        run: i === core.turn && !over ? p.run : 0,
        target: this.options.targets[i]!,
      };
    });
    return {
      variant: this.variant.id,
      family: this.variant.family,
      scoring: this.variant.scoring,
      status: core.status,
      winner: core.winner === null ? null : this.setup.players[core.winner]!,
      turn: over ? null : this.setup.players[core.turn]!,
      players,
      prompt: core.prompt?.view ?? null,
      shots: this.results.slice(),
      cueBall: over ? null : core.cueBall,
      endRule: core.endRule,
      instructions: core.instructions,
      ...(this.variant.describe ? this.variant.describe(core.carry, this.options) : {}),
    };
  }
}

function foulsBy(shot: Shot, by: 'shooter' | 'opponent'): FoulKind[] {
  const fouls: FoulKind[] = [];
  for (const e of shot.events) if (e.kind === 'foul' && e.by === by) fouls.push(e.foul);
  return fouls;
}

function distinctOutcomes(outcomes: Outcome[]): Outcome[] {
  if (outcomes.length === 1) return outcomes;
  const byEffect = new Map<string, Outcome>();
  for (const o of outcomes) {
    const key = effectKey(o);
    const seen = byEffect.get(key);
    if (!seen) byEffect.set(key, o);
    else if (o.assumption && seen.assumption && seen.assumption !== o.assumption) byEffect.set(key, { ...seen, assumption: undefined });
  }
  return [...byEffect.values()];
}

/**
 * One outcome for options that differ only in their instructions (which ball is respotted where),
 * or undefined when they differ in anything the score, the turn or the next shot depends on. The
 * instructions name each possibility, without coordinates: the referee places what happened.
 */
function sameEffect(options: readonly Outcome[]): Outcome | undefined {
  const bare = (o: Outcome) => effectKey({ ...o, instructions: [] });
  const first = options[0]!;
  if (options.some((o) => bare(o) !== bare(first))) return undefined;
  const key = (i: Instruction) => JSON.stringify(i);
  const common = (first.instructions ?? []).filter((i) => options.every((o) => (o.instructions ?? []).some((j) => key(j) === key(i))));
  const commonKeys = new Set(common.map(key));
  const possibilities: Instruction[] = [];
  options.forEach((o, k) => {
    for (const i of o.instructions ?? []) {
      if (commonKeys.has(key(i))) continue;
      possibilities.push({ item: i.item, to: `${i.to} (possibility ${k + 1} of ${options.length}: only if it was ${i.item})`, rule: i.rule });
    }
  });
  return { ...first, instructions: [...common, ...possibilities], assumption: undefined };
}

/**
 * The options with their likelihood (share of the readings' weight), most likely first. Answers
 * that are no reading of the sensors ("could not tell") get 0. Ties keep the engine's order.
 */
function rankByLikelihood(outcomes: Outcome[], weights: ReadonlyMap<string, number>): { outcome: Outcome; likelihood: number }[] {
  const raw = outcomes.map((o) => weights.get(effectKey(o)) ?? 0);
  const total = raw.reduce((a, b) => a + b, 0);
  return outcomes
    .map((outcome, k) => ({ outcome, likelihood: total > 0 ? raw[k]! / total : 1 / outcomes.length, k }))
    .sort((a, b) => b.likelihood - a.likelihood || a.k - b.k)
    .map(({ outcome, likelihood }) => ({ outcome, likelihood }));
}

/** The per-event ranking refined by the whole shot's evidence (ranking/rerank.ts). */
function rankWholeShot(variantId: string, shot: Shot, ctx: ShotContext, ranked: { outcome: Outcome; likelihood: number }[]): { outcome: Outcome; likelihood: number }[] {
  const described = ranked.map((r) => ({ ...r, points: ownPoints(r.outcome, ctx.shooter), foul: r.outcome.foul !== null, turnPasses: r.outcome.turnPasses }));
  return rerank(RANKING_MODEL, variantId, shot.events, described).map(({ outcome, likelihood }) => ({ outcome, likelihood }));
}

const ownPoints = (o: Outcome, shooter: number): number => o.awards.filter((a) => a.player === shooter).reduce((s, a) => s + a.points, 0);

export function boundsFor(variant: AnyVariant, options: Record<string, unknown>): PhysicalBounds {
  if (playsSkittles(variant.family)) {
    const table = options.table as SkittleTable;
    const bounds: PhysicalBounds = { table: table.size, ballDiameter: table.ball, separateAfterContact: false };
    // Both seven-skittle games are played on a pocket table (SK7P-1, SK7C-1), whose side pockets
    // split a rail in two jaws: no same-rail bound there (bounds.ts skittleRoundTripMs).
    if (variant.layout !== 'carom-five') return bounds;
    const at = Object.values(skittleSpots(table, variant.layout));
    return { ...bounds, skittles: { at, radius: table.skittleBase } };
  }
  return { table: (options.table as TableSize | undefined) ?? MATCH_TABLE, ballDiameter: CAROM_BALL_MM, separateAfterContact: true };
}

function buildPrompt(
  ctx: ShotContext,
  ranked: { outcome: Outcome; likelihood: number }[],
  facts: UndeterminedFact[],
  overflow: boolean,
  answers: ReadonlySet<string>,
  readingsOf: ReadonlyMap<string, readonly { values(): ReadonlyMap<number, ReadonlySet<string>> }[]> = new Map(),
): OpenPrompt {
  const outcomes = ranked.map((r) => r.outcome);
  // Assumptions of the readings are facts in question; those of extra answers ("could not tell") are not.
  const assumptions = outcomes.flatMap((o) => (o.assumption && !answers.has(effectKey(o)) ? [o.assumption] : []));
  const rules = [...new Set(outcomes.flatMap((o) => o.rules))];
  const parts: string[] = [];
  // RULES §10: a prompt names the facts in question; one that rests on facts outside the events names those.
  if (assumptions.length > 0) facts = [...facts, { event: -1, kind: 'unobserved', field: 'assumption', candidates: [...new Set(assumptions)] }];
  const eventFacts = facts.filter((f) => f.kind !== 'unobserved');
  if (eventFacts.length > 0) parts.push(`the sensors could not tell ${eventFacts.map(describeFact).join('; ')}`);
  // Facts outside the events (ball positions, how a white reached the skittles): the options name them.
  if (assumptions.length > 0) parts.push(`it depends on facts the sensors do not give: ${assumptions.join(', or ')}`);
  if (overflow) parts.push('the shot has too many unknown contacts to weigh');
  return {
    ctx,
    outcomes,
    view: {
      question: `How did this shot end? ${parts.join('; ')}.`,
      rules,
      facts,
      options: outcomes.map((o, index) => ({
        index,
        ruling: rulingClass(o, ctx.shooter),
        points: ownPoints(o, ctx.shooter),
        foul: o.foul,
        turnPasses: o.turnPasses,
        rules: o.rules,
        ...(o.assumption ? { assumption: o.assumption } : {}),
        likelihood: Math.round(ranked[index]!.likelihood * 1000) / 1000,
        ...optionDetails(o, ctx, facts, readingsOf.get(effectKey(o)) ?? []),
      })),
    },
  };
}

type PromptOptionView = PromptView['options'][number];

/**
 * What a button needs to name its condition and its result: for each fact in question, the
 * values under which the readings lead to this option (facts that do not narrow are left out),
 * and the points it gives to other players (a penalty to the opponent).
 */
function optionDetails(
  o: Outcome,
  ctx: ShotContext,
  facts: readonly UndeterminedFact[],
  readings: readonly { values(): ReadonlyMap<number, ReadonlySet<string>> }[],
): Pick<PromptOptionView, 'when' | 'awards'> {
  const awards = o.awards.filter((a) => a.player !== ctx.shooter && a.points !== 0).map((a) => ({ player: a.player, points: a.points }));
  const when: NonNullable<PromptOptionView['when']>[number][] = [];
  if (readings.length > 0) {
    const per = readings.map((r) => r.values());
    for (const fact of facts) {
      if (fact.event < 0 || fact.kind === 'unobserved') continue;
      const values = new Set<string>();
      for (const v of per) for (const x of v.get(fact.event) ?? []) values.add(x);
      const narrowed = fact.candidates.filter((c) => values.has(c));
      if (narrowed.length > 0 && narrowed.length < fact.candidates.length) when.push({ event: fact.event, kind: fact.kind, field: fact.field, values: narrowed });
    }
  }
  return { ...(when.length > 0 ? { when } : {}), ...(awards.length > 0 ? { awards } : {}) };
}

function describeFact(fact: UndeterminedFact): string {
  const what = fact.field === 'balls' ? 'which balls met' : fact.field === 'by' ? 'which ball felled the skittle' : 'which ball it was';
  // A maybe event (docs/contract.md): whether it happened at all is in question too.
  if (fact.candidates.includes(DID_NOT_HAPPEN)) return `event ${fact.event + 1} (${fact.kind}): whether it happened, and ${what} (${fact.candidates.join(' or ')})`;
  return `event ${fact.event + 1} (${fact.kind}): ${what} (${fact.candidates.join(' or ')})`;
}

/** Positions after the shot: where the balls came to rest, with respotted balls on their spots. */
function restingPositions(shot: Shot, instructions: readonly Instruction[] | undefined): Positions | null {
  if (!instructions || instructions.length === 0) return shot.positions ?? null;
  const moved = instructions?.filter((i) => i.at !== undefined) ?? [];
  const unplaced = instructions?.some((i) => i.at === undefined) ?? false;
  if (!shot.positions || unplaced) return null;
  const rest: Record<string, readonly [number, number]> = { ...shot.positions };
  for (const i of moved) rest[i.item] = i.at!;
  return rest;
}

/** G-4: the break position, as far as the object balls go: red on the foot spot, the second white on the head spot. */
function breakPositions(options: MatchOptionsBase & Record<string, unknown>): Positions {
  const table = (options.table as { length: number; width: number } | undefined) ?? { length: 2840, width: 1420 };
  const y = table.width / 2;
  return { red: [(3 * table.length) / 4, y], yellow: [table.length / 4, y], white: [table.length / 4, y + 150] };
}
