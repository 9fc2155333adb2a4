import type { BridgeEvent } from '../../firmware-bridge/bridge.ts';

/**
 * What the hub takes in from a table's sensors: the firmware bridge's normalised events
 * (firmware-bridge/README.md), each stamped with the board time, the hub time it maps to
 * and the frame sequence. One definition, the bridge's: a tracker, the simulator or a test
 * feeds the hub the same values without a bridge. A board's replies to commands stay in
 * the bridge.
 */
export type { Stamped } from '../../firmware-bridge/bridge.ts';
export type SensorEvent = Exclude<BridgeEvent, { type: 'reply' }>;
