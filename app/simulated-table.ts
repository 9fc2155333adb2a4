import type { TableConfig } from '../hub/config/schema.ts';
import type { SensorEvent } from '../hub/pipeline/sensor-events.ts';
import type { ShotEvent } from '../hub/rules/events.ts';
import { seededRandom } from '../hub/rules/random.ts';
import { BridgeSource } from '../hub/sources/bridge-source.ts';
import type { SensorSource, TableHandle } from '../hub/sources/source.ts';
import type { Result } from '../hub/rules/result.ts';
import { PhysicsTable } from '../hardware/simulator/physics/planner.ts';
import { VirtualBoard } from '../hardware/simulator/virtual-board.ts';

export interface SimulatedTableOptions {
  seed: number;
  /** 1 = real time; larger plays faster. */
  speed: number;
  /** Hub clock in ms (the bridge maps board time onto it). */
  clock?: () => number;
}

/**
 * A table with no hardware: a virtual board speaking the real protocol through the real
 * bridge (so the sensor path is the product's own), played by the physics planner (real 2D
 * ball physics; the balls stay where they came to rest between shots, respotted as the hub's
 * instructions say), with a simulated overhead tracker reporting each shot's ground truth
 * with ball ids. Rail and click amplitudes follow the impact speeds.
 */
export class SimulatedTable implements SensorSource {
  readonly kind = 'simulator' as const;
  readonly simulated = true;
  private readonly board: VirtualBoard;
  private readonly bridge: BridgeSource;
  private readonly random: () => number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private handle: TableHandle | null = null;
  private running = false;
  private readonly railChannel = new Map<string, number>();
  private readonly skittleIndex = new Map<string, number>();
  private physics: PhysicsTable | null = null;
  shotsPlayed = 0;

  constructor(private readonly table: TableConfig, private readonly options: SimulatedTableOptions) {
    const started = performance.now();
    this.board = new VirtualBoard(() => (performance.now() - started) * 1000 * options.speed);
    this.bridge = new BridgeSource('simulator', this.board.transport, table, options.clock ?? (() => performance.timeOrigin + performance.now()), true);
    this.random = seededRandom(options.seed);
    for (const [channel, rail] of Object.entries(table.rails)) if (!this.railChannel.has(rail)) this.railChannel.set(rail, Number(channel));
    for (const [index, skittle] of Object.entries(table.skittles)) this.skittleIndex.set(skittle, Number(index));
  }

  attach(handle: TableHandle): void {
    this.handle = handle;
  }

  async start(onEvent: (event: SensorEvent) => void): Promise<void> {
    await this.bridge.start(onEvent);
    this.board.powerUp();
    this.running = true;
    this.later(1500, () => this.nextShot());
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.board.powerDown();
    await this.bridge.stop();
  }

  setThresholds(channels: { channel: number; threshold: number; refractoryMs: number }[]): Promise<Result<unknown>> {
    return this.bridge.setThresholds(channels);
  }

  stats() {
    return this.bridge.stats();
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.running) run();
    }, ms / this.options.speed);
    this.timers.add(timer);
  }

  private nextShot(): void {
    const handle = this.handle;
    if (!handle) return;
    const state = handle.state();
    if (state.status === 'finished' || state.status === 'drawn' || state.status === 'idle') {
      this.later(8000, () => {
        handle.restartMatch();
        this.nextShot();
      });
      return;
    }
    if (state.status === 'awaiting-referee' || !state.variant || !state.cueBall) {
      this.later(2000, () => this.nextShot());
      return;
    }
    const figure = state.figure?.sequence;
    if (this.physics?.variant !== state.variant) this.physics = new PhysicsTable(state.variant);
    const planned = this.physics.plan({
      variant: state.variant,
      cueBall: String(state.cueBall),
      isBreak: state.shotCount === 0,
      random: this.random,
      table: { length: 2840, width: 1420 },
      instructions: state.instructions ?? [],
      ...(figure ? { figure } : {}),
    });
    this.play(planned.shot.events, planned.durationMs, planned.speeds);
    // The tracker reports once every ball has stopped; the next player steps up after a pause.
    this.later(planned.durationMs + 200, () => {
      handle.trackerShot(planned.shot);
      this.shotsPlayed += 1;
      this.standSkittlesUp(planned.shot.events);
      this.later(2500 + this.random() * 3000, () => this.nextShot());
    });
  }

  /** What the table's sensors feel: rail piezos, the click channel, tilt switches and the bed. */
  private play(events: readonly ShotEvent[], durationMs: number, speeds: readonly (number | null)[] = []): void {
    for (let t = 0; t < durationMs; t += 100) {
      const level = t < durationMs - 700 ? 60 + Math.round(this.random() * 60) : Math.max(2, Math.round(40 * (1 - (t - durationMs + 700) / 700)));
      this.later(t, () => this.board.vibration(level));
    }
    this.later(durationMs, () => this.board.vibration(2));
    events.forEach((e, i) => {
      const t = e.t ?? 0;
      const speed = speeds[i];
      // The physics' sensor model (hardware/simulator/physics/sensors.ts) where it gave one; else a
      // piezo's peak grows with the impact speed (mm/s), a little noise on top.
      const modelled = e.kind === 'ball' || e.kind === 'cushion' ? e.amplitude : undefined;
      const amplitude = modelled !== undefined ? modelled : speed == null ? 70 + Math.round(this.random() * 150) : Math.min(255, Math.max(40, Math.round(40 + speed / 20 + this.random() * 10)));
      if (e.kind === 'cushion') {
        const channel = this.railChannel.get(e.rail);
        if (channel !== undefined) this.later(t, () => this.board.impact(channel, amplitude));
      } else if (e.kind === 'ball') this.later(t, () => this.board.click(amplitude));
      else if (e.kind === 'skittle') {
        const index = this.skittleIndex.get(e.skittle);
        if (index !== undefined) this.later(t, () => this.board.skittle(index, true));
      }
    });
  }

  private standSkittlesUp(events: readonly ShotEvent[]): void {
    for (const e of events) {
      if (e.kind !== 'skittle') continue;
      const index = this.skittleIndex.get(e.skittle);
      if (index !== undefined) this.later(1500, () => this.board.skittle(index, false));
    }
  }
}
