import type { MqttClient } from 'mqtt';

/**
 * Turns off Nagle's algorithm on an MQTT client's TCP stream, on every (re)connect: small
 * latency-bound messages must not wait for a delayed ACK (up to 40 ms on Linux). mqtt.js
 * leaves its sockets with Nagle on; WebSocket and TLS streams without setNoDelay are left alone.
 */
export function disableNagle(client: MqttClient): void {
  const apply = () => (client.stream as { setNoDelay?: (on: boolean) => void } | undefined)?.setNoDelay?.(true);
  client.on('connect', apply);
  apply();
}
