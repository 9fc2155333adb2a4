/**
 * What the hub takes in from a table's sensors: the firmware bridge's normalised events
 * (firmware-bridge/README.md), each stamped with the board time, the hub time it maps to
 * and the frame sequence. Declared here by shape so the hub can also be fed by a tracker,
 * the simulator or a test without a bridge.
 */
export interface Stamped {
  boardUs: number;
  hubTime: number;
  seq: number;
}

export type SensorEvent =
  | (Stamped & { type: 'rail-hit'; channel: number; amplitude: number })
  | (Stamped & { type: 'click'; amplitude: number })
  | (Stamped & { type: 'vibration'; level: number })
  | (Stamped & { type: 'skittle'; index: number; state: 'down' | 'up' })
  | (Stamped & { type: 'heartbeat'; loopMaxUs: number; skittleMask: number; driftPpm: number })
  | { type: 'link'; state: 'up' | 'down'; reason: string; hubTime: number }
  | { type: 'dropped'; source: string; count: number; detail?: string; hubTime: number }
  | { type: 'board'; reason: 'hello' | 'reset'; detail: string; firmware: string | null; protocol: number | null; compatible: boolean; resetCause: number | null; bootId?: number | null; hubTime: number }
  /** Which of the hub's board settings (thresholds, debounce, switch polarity) this boot of the board acknowledged. */
  | { type: 'board-settings'; bootId: number | null; confirmed: number; pending: number; rejected: number; unsupported: number; unconfirmed: string[]; hubTime: number };
