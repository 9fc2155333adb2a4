import type { HubConfig } from '../config/schema.ts';
import type { LogFn } from '../ops/log.ts';
import { startEmbeddedBroker, type EmbeddedBroker, type RefusalReason } from './broker.ts';
import { probeAnonymousPublish } from './open-broker-probe.ts';

export interface ReachBrokerOptions {
  config: HubConfig;
  /** External broker URL (MQTT_URL); when absent the embedded broker runs. */
  mqttUrl?: string;
  mqttUsername?: string;
  mqttPassword?: string;
  /** Start on an external broker that lets anonymous clients publish on the hub's topics (else refused). */
  allowOpenBroker?: boolean;
  mqttHost?: string;
  mqttPort?: number;
  mqttWsPort?: number | null;
  onRefused: (reason: RefusalReason) => void;
  log: LogFn;
}

/**
 * The hub's broker: the external one named by MQTT_URL (refused if anonymous clients may
 * publish on the hub's topics), or the embedded one, started here.
 */
export async function reachBroker(o: ReachBrokerOptions): Promise<{ broker: EmbeddedBroker | null; mqttUrl: string; mqttWsUrl: string | null }> {
  const { config } = o;
  if (o.mqttUrl) {
    await refuseOpenBroker(o, o.mqttUrl);
    return { broker: null, mqttUrl: o.mqttUrl, mqttWsUrl: null };
  }
  const broker = await startEmbeddedBroker({
    host: o.mqttHost ?? '127.0.0.1',
    port: o.mqttPort ?? 1883,
    wsPort: o.mqttWsPort === undefined ? null : o.mqttWsPort,
    baseTopic: config.hub.baseTopic,
    users: config.broker.users,
    venue: config.venue ? { username: config.venue.username, passwordHash: config.venue.passwordHash } : null,
    allowAnonymousRead: config.broker.allowAnonymousRead,
    anonymousRead: config.homeAssistant.discovery ? [`${config.homeAssistant.prefix}/#`] : [],
    onRefused: o.onRefused,
    log: o.log,
  });
  // Bound to every interface, it is reached on loopback from here; bound to one address, there.
  const host = reachableHost(o.mqttHost ?? '127.0.0.1');
  return { broker, mqttUrl: `mqtt://${host}:${broker.port}`, mqttWsUrl: broker.wsPort === null ? null : `ws://${host}:${broker.wsPort}` };
}

/**
 * An external broker must keep anonymous clients off the hub's topics (the Mosquitto recipe
 * in hub/deploy/mosquitto does): else anyone could spoof a table's state or send commands.
 */
async function refuseOpenBroker(o: ReachBrokerOptions, mqttUrl: string): Promise<void> {
  const allowed = o.allowOpenBroker ?? o.config.broker.allowOpenExternalBroker;
  const probe = await probeAnonymousPublish({ url: mqttUrl, baseTopic: o.config.hub.baseTopic, hubId: o.config.hub.id, username: o.mqttUsername, password: o.mqttPassword });
  if (probe.kind === 'unknown') o.log('warn', 'the external broker could not be checked for anonymous access', { detail: probe.detail });
  if (probe.kind !== 'open') return;
  if (allowed) {
    o.log('warn', 'the external broker lets anonymous clients publish on the hub topics (allowed by broker.allowOpenExternalBroker)', { topic: probe.topic });
    return;
  }
  throw new Error(
    `the MQTT broker at ${redactUrl(mqttUrl)} lets anonymous clients publish on the hub's topics (${probe.topic}); give it an ACL (hub/deploy/mosquitto, docs/security.md) or set broker.allowOpenExternalBroker (MQTT_ALLOW_OPEN_BROKER=1) to accept that`,
  );
}

/** A broker URL without its password, for messages. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

function reachableHost(bound: string): string {
  if (bound === '0.0.0.0' || bound === '::' || bound === '') return '127.0.0.1';
  return bound.includes(':') ? `[${bound}]` : bound;
}
