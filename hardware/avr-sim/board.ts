/**
 * The table board simulated with avr8js at 16 MHz: the real firmware HEX runs on an
 * ATmega328P model with Timer0/1/2, ADC, USART0, ports B/C/D and the watchdog.
 *
 * Analog inputs are functions of simulated time, evaluated at the instant the ADC starts
 * a conversion (that is when avr8js samples), so impact times are exact and known.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  AVRADC,
  AVRClock,
  AVREEPROM,
  EEPROMMemoryBackend,
  AVRIOPort,
  AVRTimer,
  AVRUSART,
  AVRWatchdog,
  CPU,
  adcConfig,
  avrInstruction,
  clockConfig,
  portBConfig,
  portCConfig,
  portDConfig,
  timer0Config,
  timer1Config,
  timer2Config,
  usart0Config,
  watchdogConfig,
  ADCMuxInputType,
  type ADCMuxInput,
} from 'avr8js';
import { hexToProgram } from './hex.ts';

export const FREQ_HZ = 16_000_000;
const TCCR1B = 0x81;
export const CYCLES_PER_US = FREQ_HZ / 1e6;
export const DEFAULT_HEX_PATH = fileURLToPath(new URL('../firmware/build/table.hex', import.meta.url));
const DEFAULT_SYM_PATH = fileURLToPath(new URL('../firmware/build/table.sym', import.meta.url));

/** Volts on an analog input as a function of simulated time in microseconds. */
export type AnalogSignal = (tUs: number) => number;

/**
 * A piezo knock: a decaying ring starting exactly at t0Us. `polarity` -1 makes the first
 * swing negative (the piezo mounted the other way round, or the knock from the other side).
 */
export function piezoHit(t0Us: number, peakVolts: number, ringHz = 2000, decayUs = 1500, polarity: 1 | -1 = 1): AnalogSignal {
  return (t) => {
    if (t < t0Us) return 0;
    const dt = (t - t0Us) / 1e6;
    return polarity * peakVolts * Math.exp(-(t - t0Us) / decayUs) * Math.sin(2 * Math.PI * ringHz * dt);
  };
}

/** Hold time constant of the front end's peak detector (10 nF, 220 kOhm). */
export const ENVELOPE_TAU_US = 2200;
const ENVELOPE_STEP_US = 4;

/**
 * The analogue front end of a detector input (hardware/README.md "Front end"): precision
 * full-wave rectifier into a peak detector (ideal attack, RC decay), clamped at the 5 V
 * rail. Integrated in 4 us steps between the instants the ADC samples, so peaks between
 * samples are held as the capacitor holds them. Evaluate at non-decreasing times.
 */
export function envelope(signal: AnalogSignal, tauUs = ENVELOPE_TAU_US): AnalogSignal {
  let env = 0;
  let last: number | null = null;
  const decay = Math.exp(-ENVELOPE_STEP_US / tauUs);
  return (t) => {
    let from = last === null || t - last > 20 * tauUs ? t - 20 * tauUs : last;
    if (last !== null && t - last > 20 * tauUs) env = 0;
    for (; from < t; from += ENVELOPE_STEP_US) {
      env *= decay;
      const x = Math.abs(signal(from));
      if (x > env) env = x;
    }
    const x = Math.abs(signal(t));
    if (x > env) env = x;
    last = t;
    return Math.min(5, env);
  };
}

/** Sum of signals (several knocks on one channel). */
export function sumSignals(...s: AnalogSignal[]): AnalogSignal {
  return (t) => s.reduce((v, f) => v + f(t), 0);
}

// Skittle i -> (port, bit): D2..D7 are PD2..PD7, D8 is PB0.
const SKITTLE_PINS: ReadonlyArray<readonly ['B' | 'D', number]> = [
  ['D', 2], ['D', 3], ['D', 4], ['D', 5], ['D', 6], ['D', 7], ['B', 0],
];

export class TableSim {
  readonly cpu: CPU;
  readonly adc: AVRADC;
  readonly usart: AVRUSART;
  readonly portB: AVRIOPort;
  readonly portC: AVRIOPort;
  readonly portD: AVRIOPort;
  readonly watchdog: AVRWatchdog;
  readonly signals: AnalogSignal[] = [];
  /** Conversions started per ADC channel (for rate measurement). */
  readonly conversions = new Array<number>(8).fill(0);
  /** Bytes the board transmitted; the callback sees each as it leaves the UART. */
  onTransmit: ((byte: number) => void) | null = null;
  /** CPU cycle at which the firmware started Timer1, i.e. board time 0. */
  timer1StartCycle: number | null = null;
  private rxQueue: number[] = [];
  /** The board's EEPROM (its boot counter); pass it to the next TableSim for a reset of the same board. */
  readonly eeprom: EEPROMMemoryBackend;
  /** Board time (us) the firmware's clock was preset to when Timer1 started. */
  readonly uptimeUs: number;
  /** Detector inputs (0..6) go through the envelope front end; false feeds signals raw. */
  private readonly frontEnd: boolean;

  /**
   * @param options.eeprom the EEPROM of the board before a reset (boot counter kept)
   * @param options.uptimeUs board time to preset when the firmware starts its clock, to
   *   test long uptimes without running them (rounded down to 32.768 ms)
   * @param options.frontEnd false: signals reach the ADC as given (no rectifier/envelope)
   */
  constructor(program: Uint16Array = loadDefaultProgram(), options: { eeprom?: EEPROMMemoryBackend; uptimeUs?: number; frontEnd?: boolean } = {}) {
    const flash = new Uint16Array(0x4000);
    flash.set(program.subarray(0, 0x4000));
    this.cpu = new CPU(flash);
    new AVRTimer(this.cpu, timer0Config);
    new AVRTimer(this.cpu, timer1Config);
    new AVRTimer(this.cpu, timer2Config);
    const clock = new AVRClock(this.cpu, FREQ_HZ, clockConfig);
    this.watchdog = new AVRWatchdog(this.cpu, watchdogConfig, clock);
    if (!options.eeprom) {
      options.eeprom = new EEPROMMemoryBackend(1024);
      options.eeprom.memory.fill(0xff); // erased
    }
    this.eeprom = options.eeprom;
    new AVREEPROM(this.cpu, this.eeprom);
    this.uptimeUs = Math.floor((options.uptimeUs ?? 0) / 32768) * 32768;
    this.frontEnd = options.frontEnd ?? true;
    this.adc = new AVRADC(this.cpu, adcConfig);
    this.usart = new AVRUSART(this.cpu, usart0Config, FREQ_HZ);
    this.portB = new AVRIOPort(this.cpu, portBConfig);
    this.portC = new AVRIOPort(this.cpu, portCConfig);
    this.portD = new AVRIOPort(this.cpu, portDConfig);
    // avr8js does not model pull-ups: an idle (open) switch is driven high here.
    for (let i = 0; i < 7; i++) this.setSkittleDown(i, false);
    // Board time is Timer1 time: remember when TCCR1B first gets a clock source.
    const timerHook = this.cpu.writeHooks[TCCR1B];
    this.cpu.writeHooks[TCCR1B] = (value, old, addr, mask) => {
      if (this.timer1StartCycle === null && (value & 7) !== 0) {
        this.timer1StartCycle = this.cpu.cycles;
        if (this.uptimeUs > 0) this.presetClock();
      }
      return timerHook ? timerHook(value, old, addr, mask) : false;
    };
    this.adc.onADCRead = (input: ADCMuxInput) => this.sample(input);
    this.usart.onByteTransmit = (b) => this.onTransmit?.(b);
    this.usart.onRxComplete = () => this.feedRx();
  }

  /** Board microseconds (the firmware's Timer1 clock) at a simulated time, unwrapped. */
  boardUsAt(simUs: number): number {
    if (this.timer1StartCycle === null) throw new Error('firmware has not started Timer1 yet');
    return simUs - this.timer1StartCycle / CYCLES_PER_US + this.uptimeUs;
  }

  private presetClock(): void {
    const sym = firmwareSymbols();
    const write = (addr: number, value: number, bytes: number) => {
      for (let i = 0; i < bytes; i++) this.cpu.data[addr + i] = Math.floor(value / 256 ** i) & 0xff;
    };
    write(sym.usHi, this.uptimeUs % 2 ** 32, 4);
    write(sym.usWraps, Math.floor(this.uptimeUs / 2 ** 32), 2);
  }

  /** Simulated time in microseconds since power-on. */
  get timeUs(): number {
    return this.cpu.cycles / CYCLES_PER_US;
  }

  /** The piezo's signal on an input; `raw` bypasses the front end (a voltage straight on the ADC pin). */
  setSignal(channel: number, signal: AnalogSignal | null, raw = false): void {
    if (!Number.isInteger(channel) || channel < 0 || channel > 7) throw new RangeError(`analog channel ${channel} out of 0..7`);
    if (signal) this.signals[channel] = this.frontEnd && !raw && channel < 7 ? envelope(signal) : signal;
    else delete this.signals[channel];
  }

  /** Tilt switch closed (skittle down) pulls the pin low. */
  setSkittleDown(index: number, down: boolean): void {
    const pin = SKITTLE_PINS[index];
    if (!pin) throw new RangeError(`skittle index ${index} out of 0..6`);
    (pin[0] === 'B' ? this.portB : this.portD).setPin(pin[1], !down);
  }

  /** Bytes to the board's RX pin, paced at the line rate. */
  receive(bytes: Uint8Array | number[]): void {
    for (const b of bytes) this.rxQueue.push(b & 0xff);
    this.feedRx();
  }

  runUs(us: number): void {
    this.runUntilUs(this.timeUs + us);
  }

  runUntilUs(tUs: number): void {
    const cpu = this.cpu;
    const target = Math.round(tUs * CYCLES_PER_US);
    while (cpu.cycles < target) {
      avrInstruction(cpu);
      cpu.tick();
    }
  }

  private feedRx(): void {
    if (this.rxQueue.length === 0 || this.usart.rxBusy || !this.usart.rxEnable) return;
    this.usart.writeByte(this.rxQueue.shift()!);
  }

  private sample(input: ADCMuxInput): void {
    let volts = 0;
    if (input.type === ADCMuxInputType.SingleEnded) {
      const ch = input.channel;
      this.conversions[ch] = (this.conversions[ch] ?? 0) + 1;
      // A signal function if set, else avr8js's own channelValues (plain voltages).
      volts = this.signals[ch]?.(this.timeUs) ?? this.adc.channelValues[ch] ?? 0;
    } else if ('voltage' in input) {
      volts = input.voltage;
    }
    const raw = Math.min(1023, Math.max(0, Math.floor((volts / this.adc.referenceVoltage) * 1024)));
    this.cpu.addClockEvent(() => this.adc.completeADCRead(raw), this.adc.sampleCycles);
  }
}

/** RAM addresses of the firmware variables the simulator presets (build.sh writes table.sym). */
export function firmwareSymbols(path = DEFAULT_SYM_PATH): { usHi: number; usWraps: number } {
  const out: Record<string, number> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [name, addr] = line.trim().split(/\s+/);
    if (name && addr) out[name] = Number.parseInt(addr, 16) - 0x800000;
  }
  if (out.usHi === undefined || out.usWraps === undefined) throw new Error(`${path}: usHi/usWraps missing: run hardware/firmware/build.sh`);
  return { usHi: out.usHi, usWraps: out.usWraps };
}

export function loadDefaultProgram(path = DEFAULT_HEX_PATH): Uint16Array {
  return hexToProgram(readFileSync(path, 'utf8'));
}
