import { randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';

export type ProbeResult = { kind: 'closed'; detail: string } | { kind: 'open'; topic: string } | { kind: 'unknown'; detail: string };

export interface ProbeOptions {
  url: string;
  baseTopic: string;
  hubId: string;
  /** The hub's own login, which reads the probe topics. */
  username?: string | undefined;
  password?: string | undefined;
  timeoutMs?: number;
}

/**
 * Whether an external broker lets an anonymous client publish on the hub's topics: the
 * hub (with its own login) listens on a hub-owned topic and a request topic, an anonymous
 * client publishes a random token on each, and what arrives is what anyone could spoof.
 * Works with any MQTT version: a broker that refuses silently (Mosquitto with an ACL under
 * MQTT 3.1.1) simply delivers nothing.
 */
export async function probeAnonymousPublish(options: ProbeOptions): Promise<ProbeResult> {
  const { default: mqtt } = await import('mqtt'); // only a hub on an external broker probes it
  const timeoutMs = options.timeoutMs ?? 1500;
  const token = randomBytes(12).toString('hex');
  const topicsToTry = [`${options.baseTopic}/tables/probe-${token}/state`, `${options.baseTopic}/request/probe-${token}`];
  const common = { reconnectPeriod: 0, connectTimeout: timeoutMs * 2, clean: true } as const;
  let listener: MqttClient | null = null;
  let anonymous: MqttClient | null = null;
  try {
    try {
      listener = await mqtt.connectAsync(options.url, { ...common, clientId: `billiards-probe-${token.slice(0, 8)}`, ...(options.username ? { username: options.username } : {}), ...(options.password ? { password: options.password } : {}) });
    } catch (e) {
      return { kind: 'unknown', detail: `the hub could not connect to probe the broker: ${(e as Error).message}` };
    }
    const arrived = new Promise<string>((resolve) => listener!.on('message', (topic, payload) => payload.toString() === token && resolve(topic)));
    await listener.subscribeAsync(topicsToTry, { qos: 1 });
    try {
      anonymous = await mqtt.connectAsync(options.url, { ...common, clientId: `probe-${randomBytes(6).toString('hex')}` });
    } catch (e) {
      return { kind: 'closed', detail: `anonymous clients are refused (${(e as Error).message})` };
    }
    anonymous.on('error', () => undefined);
    for (const topic of topicsToTry) anonymous.publish(topic, token, { qos: 1 }, () => undefined);
    const topic = await Promise.race([arrived, new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs).unref())]);
    return topic ? { kind: 'open', topic } : { kind: 'closed', detail: 'anonymous publishes on the hub topics are dropped' };
  } finally {
    await anonymous?.endAsync(true).catch(() => undefined);
    await listener?.endAsync(true).catch(() => undefined);
  }
}
