import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { piezoHit, TableSim } from '../../hardware/avr-sim/board.ts';
import { hexToProgram } from '../../hardware/avr-sim/hex.ts';
import { createSimRig, type SimRig } from '../../hardware/avr-sim/harness.ts';
import { FrameDecoder } from '../../firmware-bridge/decoder.ts';
import type { RawFrame } from '../../firmware-bridge/protocol.ts';

function decodeFrame(bytes: Buffer): RawFrame {
  const d = new FrameDecoder();
  d.write(bytes);
  return d.read() as RawFrame;
}

/**
 * Board sessions with the real HEX in avr8js through the real bridge: every reset is seen
 * (by the boot id, at any uptime, across the 32-bit wrap), and the calibration is pushed
 * after every HELLO, acknowledged, and in force.
 */
const CALIBRATED = [{ channel: 0, threshold: 90, refractoryMs: 30 }];
const MIN40 = 40 * 60 * 1e6;
const WEAK = 1.4; // ~71 counts: a hit for the default threshold 40, not for the calibrated 90
const STRONG = 4;

/** Knocks on channel 0 of the rig's current board, at board-relative times; returns their sim times. */
function knocks(sim: TableSim, list: Array<{ atUs: number; volts: number }>): void {
  const sigs = list.map((k) => piezoHit(sim.timeUs + k.atUs, k.volts));
  sim.setSignal(0, (t) => sigs.reduce((v, f) => v + f(t), 0));
}

/** Hits reported after the first `skip` ones, relative to a moment of the current board. */
function hitsAfter(rig: SimRig, sim: TableSim, fromSimUs: number, skip: number): Array<{ errUs: number; amplitude: number }> {
  return rig
    .of('rail-hit')
    .slice(skip)
    .map((h) => ({ errUs: h.boardUs - sim.boardUsAt(fromSimUs), amplitude: h.amplitude }));
}

/** A knock at +200 ms too weak for the calibration and a strong one at +300 ms: only the strong one may count. */
async function expectCalibrationInForce(rig: SimRig): Promise<void> {
  const sim = rig.link.sim;
  const from = sim.timeUs;
  const skip = rig.of('rail-hit').length;
  knocks(sim, [
    { atUs: 200_000, volts: WEAK },
    { atUs: 300_000, volts: STRONG },
  ]);
  await rig.link.runUs(400_000);
  const hits = hitsAfter(rig, sim, from, skip);
  expect(hits).toHaveLength(1);
  expect(hits[0]!.errUs - 300_000).toBeGreaterThanOrEqual(0);
  expect(hits[0]!.errUs - 300_000).toBeLessThan(250);
}

async function resetAndCheck(rig: SimRig, firstBootId: number): Promise<void> {
  const before = rig.of('board').length;
  const second = new TableSim(undefined, { eeprom: rig.link.sim.eeprom });
  rig.link.attach(second);
  await rig.link.runUs(600_000);
  const boards = rig.of('board').slice(before);
  expect(boards.map((b) => [b.reason, b.detail, b.bootId])).toEqual([['reset', 'hello at boot', (firstBootId + 1) & 0xffff]]);
  const st = rig.bridge.stats();
  expect(st.bootId).toBe((firstBootId + 1) & 0xffff);
  expect(st.settings).toMatchObject({ confirmed: 3, pending: 0, rejected: 0 });
  expect(st.dropped['seq-gap']).toBe(0); // a reset is not a loss
  // The thresholds were pushed after the reset's HELLO and acknowledged by the new boot.
  const reset = boards[0]!;
  const confirmed = rig.of('board-settings').filter((e) => e.hubTime >= reset.hubTime && e.confirmed === 3 && e.bootId === st.bootId);
  expect(confirmed.length).toBeGreaterThan(0);
  await expectCalibrationInForce(rig);
}

describe('board sessions (real firmware in avr8js)', () => {
  it('a reset after 40 min of uptime is seen by its boot id; thresholds re-pushed, acknowledged, in force', async () => {
    const rig = await createSimRig({ channels: CALIBRATED }, { board: { uptimeUs: MIN40 } });
    await rig.link.runUs(600_000);
    const first = rig.of('board')[0]!;
    expect(first).toMatchObject({ reason: 'hello', detail: 'hello at boot', protocol: 2, compatible: true });
    expect(rig.bridge.stats().settings).toMatchObject({ confirmed: 3, pending: 0 });
    await expectCalibrationInForce(rig);
    // Board time is the full uptime (48 bits), and maps to hub time.
    const hb = rig.of('heartbeat').at(-1)!;
    expect(hb.boardUs).toBeGreaterThan(MIN40);
    await resetAndCheck(rig, first.bootId!);
    expect(rig.bridge.stats().boardResets).toBe(1);
    await rig.stop();
  });

  it('across the 32-bit wrap: hits stamped right on both sides, then a reset detected and recalibrated', async () => {
    const start = 2 ** 32 - 700_000; // the wrap comes ~0.7 s after boot
    const rig = await createSimRig({ channels: CALIBRATED }, { board: { uptimeUs: start } });
    await rig.link.runUs(300_000);
    const sim = rig.link.sim;
    const at = [400_000, 650_000, 900_000, 1_200_000];
    knocks(sim, at.map((t) => ({ atUs: t - sim.timeUs, volts: STRONG })));
    await rig.link.runUs(1_300_000);
    const hits = rig.of('rail-hit');
    expect(hits).toHaveLength(at.length);
    hits.forEach((h, k) => {
      const err = h.boardUs - sim.boardUsAt(at[k]!);
      expect(err).toBeGreaterThanOrEqual(0);
      expect(err).toBeLessThan(250);
    });
    expect(sim.boardUsAt(at[3]!)).toBeGreaterThan(2 ** 32); // the last ones are past the wrap
    for (let k = 1; k < hits.length; k++) expect(hits[k]!.hubTime - hits[k - 1]!.hubTime).toBeCloseTo((at[k]! - at[k - 1]!) / 1000, 0);
    expect(rig.of('board').filter((b) => b.reason === 'reset')).toHaveLength(0);
    await resetAndCheck(rig, rig.of('board')[0]!.bootId!);
    await rig.stop();
  });

  it('Nano port-open reset: the bootloader window eats what is sent, the HELLO starts the push, calibration in force', async () => {
    const rig = await createSimRig({ channels: CALIBRATED, debounceMs: 20 }, { portOpenResetUs: 1_000_000 });
    expect(rig.link.inBootloader).toBe(true);
    await rig.link.runUs(1_000_000); // bootloader: the board says nothing
    expect(rig.of('board')).toHaveLength(0);
    await rig.link.runUs(600_000);
    const hello = rig.of('board')[0]!;
    expect(hello).toMatchObject({ reason: 'hello', detail: 'hello at boot' });
    // Nothing went to the bootloader; every command was written after the HELLO.
    expect(rig.link.writes.filter((w) => w.eaten)).toEqual([]);
    const commands = rig.link.writes.map((w) => decodeFrame(w.bytes));
    expect(commands.map((c) => c.type)).toEqual([0x81, 0x85, 0x86]);
    expect(rig.link.writes.every((w) => w.hubMs >= hello.hubTime)).toBe(true);
    expect(rig.bridge.stats().settings).toMatchObject({ confirmed: 3, pending: 0 });
    await rig.bridge.send({ kind: 'get-config' });
    await rig.link.runUs(20_000);
    const cfg = rig.of('reply').map((r) => r.message).find((m) => m.kind === 'config');
    expect(cfg).toMatchObject({ debounceMs: 20, invertMask: 0 });
    expect(cfg && cfg.kind === 'config' && cfg.channels[0]).toEqual({ threshold: 90, refractoryMs: 30 });
    await expectCalibrationInForce(rig);
    await rig.stop();
  });

  it('a command lost on the way to the board is sent again until acknowledged', async () => {
    const rig = await createSimRig({ channels: CALIBRATED, settingsRetryMs: 400 });
    let spoiled = 0;
    rig.link.tamperToBoard = (b) => {
      if (spoiled === 0 && b[3] === 0x81) {
        spoiled++;
        b[6] = b[6]! ^ 0x40; // corrupted threshold byte: bad CRC, the board ignores it
      }
      return b;
    };
    await rig.link.runUs(300_000);
    expect(rig.bridge.stats().settings).toMatchObject({ confirmed: 2, pending: 1 });
    expect(rig.of('board-settings').at(-1)!.unconfirmed).toEqual(['channel 0']);
    await rig.link.runUs(700_000);
    const st = rig.bridge.stats();
    expect(spoiled).toBe(1);
    expect(st.settings.items.find((i) => i.name === 'channel 0')).toEqual({ name: 'channel 0', state: 'confirmed', attempts: 2 });
    expect(st.dropped['board-rx']).toBe(1);
    await expectCalibrationInForce(rig);
    await rig.stop();
  });

  it('thresholds set live (the hardware page) are acknowledged and survive a reset', async () => {
    const rig = await createSimRig();
    await rig.link.runUs(300_000);
    await expect(rig.bridge.setChannels([{ channel: 9, threshold: 90, refractoryMs: 30 }])).rejects.toThrow(/channel must be an integer in 0\.\.6/);
    await rig.bridge.setChannels(CALIBRATED);
    await rig.link.runUs(100_000);
    expect(rig.bridge.stats().settings).toMatchObject({ confirmed: 3, pending: 0 });
    await expectCalibrationInForce(rig);
    await resetAndCheck(rig, rig.of('board')[0]!.bootId!);
    await rig.stop();
  });

  it('a v1 board (firmware 1.0.0) is still understood; the switch polarity it cannot take is reported unsupported', async () => {
    const v1 = hexToProgram(readFileSync(new URL('../fixtures/table-fw1.0.0-protocol1.hex', import.meta.url), 'utf8'));
    const rig = await createSimRig({ channels: CALIBRATED }, { program: v1 });
    await rig.link.runUs(600_000);
    expect(rig.of('board')[0]).toMatchObject({ reason: 'hello', protocol: 1, firmware: '1.0.0', compatible: true, bootId: null });
    expect(rig.bridge.stats().settings).toMatchObject({ confirmed: 2, unsupported: 1, pending: 0 });
    expect(rig.bridge.stats().dropped.invalid).toBe(0);
    await expectCalibrationInForce(rig);
    // A v1 reset is still seen from its boot HELLO.
    rig.link.attach(new TableSim(v1));
    await rig.link.runUs(600_000);
    expect(rig.of('board').map((b) => b.reason)).toEqual(['hello', 'reset']);
    expect(rig.bridge.stats().settings).toMatchObject({ confirmed: 2, unsupported: 1 });
    await rig.stop();
  });
});
