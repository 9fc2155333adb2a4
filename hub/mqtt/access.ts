import { parseTopic, topics } from '../contract/mqtt.ts';
import { topicMatches } from './topic-match.ts';

/**
 * Who may do what on the embedded broker (docs/security.md). Roles, in the style of
 * Zigbee2MQTT and Mosquitto: identity at CONNECT, permissions per topic.
 * - display: reads the public topics (table state, availability, events, health, hubs, league);
 * - referee: a display that may also send requests and read the responses;
 * - tracker: a display that may publish on its tables' tracker topics;
 * - the hub itself (in process): everything.
 * Whatever a user's grant says, no socket client publishes on a hub-owned topic, publishes
 * a retained message, or reads a request; responses go only to clients that may ask.
 */
export type Role = 'display' | 'referee' | 'tracker';

export interface Grant {
  role: Role | 'custom';
  publish: readonly string[];
  subscribe: readonly string[];
}

/** Payload limits per topic family (bytes): a request or a tracker shot is small. */
export const PAYLOAD_LIMITS = { request: 64 * 1024, tracker: 32 * 1024, other: 16 * 1024 } as const;
/** No MQTT packet from a socket client may be larger: refused as its header arrives, never buffered. */
export const MAX_PACKET_BYTES = 128 * 1024;

export type TopicFamily = 'request' | 'tracker' | 'other';

/** Topics whose forwarding answer is remembered per grant (a venue's tables × their topics fit many times over). */
const FORWARD_CACHE_TOPICS = 4096;

export function publicTopics(base: string, extraRead: readonly string[] = []): string[] {
  const t = topics(base);
  return [t.bridgeState, t.allHubStates, t.allTableStates, t.allTableAvailability, t.allTableEvents, t.allTableHealth, t.leagueState, ...extraRead];
}

export function roleGrant(role: Role, base: string, options: { tables?: readonly string[]; extraRead?: readonly string[] } = {}): Grant {
  const read = publicTopics(base, options.extraRead);
  const t = topics(base);
  switch (role) {
    case 'display':
      return { role, publish: [], subscribe: read };
    case 'referee':
      return { role, publish: [t.allRequests], subscribe: [...read, t.allResponses] };
    case 'tracker':
      return { role, publish: (options.tables ?? []).map((table) => t.tableTracker(table)), subscribe: read };
  }
}

export class TopicPolicy {
  constructor(
    private readonly base: string,
    /** More hub-owned prefixes (the Home Assistant discovery prefix when discovery is on). */
    private readonly hubOwnedPrefixes: readonly string[] = [],
  ) {}

  family(topic: string): TopicFamily {
    const parsed = parseTopic(this.base, topic);
    if (parsed?.kind === 'request') return 'request';
    if (parsed?.kind === 'table' && parsed.topic === 'tracker') return 'tracker';
    return 'other';
  }

  isRequest(topic: string): boolean {
    return parseTopic(this.base, topic)?.kind === 'request';
  }

  isResponse(topic: string): boolean {
    return parseTopic(this.base, topic)?.kind === 'response';
  }

  /** Topics only the hub publishes on: under the base topic, everything but requests and tracker input. */
  hubOwned(topic: string): boolean {
    if (this.hubOwnedPrefixes.some((p) => topic === p || topic.startsWith(`${p}/`))) return true;
    if (topic !== this.base && !topic.startsWith(`${this.base}/`)) return false;
    return this.family(topic) === 'other';
  }

  /** Why a socket client may not publish this, or null when it may. */
  refusePublish(grant: Grant | undefined, topic: string, payloadBytes: number, retain: boolean): string | null {
    if (!grant) return 'not logged in';
    if (this.hubOwned(topic)) return `${topic} is the hub's own topic`;
    if (!grant.publish.some((p) => topicMatches(p, topic))) return `not allowed to publish on ${topic}`;
    if (retain) return 'retained messages are not accepted from clients';
    const limit = PAYLOAD_LIMITS[this.family(topic)];
    if (payloadBytes > limit) return `payload of ${payloadBytes} bytes on ${topic} is over the limit of ${limit}`;
    return null;
  }

  /**
   * Answers of `mayForward` per grant (grants are never changed once made) and topic: it is
   * asked for every message and every subscriber, and deciding splits the topic against each
   * pattern of the grant (issue 18). Bounded: a grant's map starts afresh past FORWARD_CACHE_TOPICS.
   */
  private readonly forwardAnswers = new WeakMap<Grant, Map<string, boolean>>();

  /** Whether a message on this topic may be delivered to a client with this grant. */
  mayForward(grant: Grant | undefined, topic: string): boolean {
    if (!grant) return false;
    let answers = this.forwardAnswers.get(grant);
    if (!answers) this.forwardAnswers.set(grant, (answers = new Map()));
    let may = answers.get(topic);
    if (may === undefined) {
      may = this.decideForward(grant, topic);
      if (answers.size >= FORWARD_CACHE_TOPICS) answers.clear();
      answers.set(topic, may);
    }
    return may;
  }

  private decideForward(grant: Grant, topic: string): boolean {
    if (this.isRequest(topic)) return false;
    if (this.isResponse(topic) && !grant.publish.some((p) => topicMatches(p, topics(this.base).request('x')) || p.startsWith(`${this.base}/request/`))) return false;
    // A wildcard wider than the grant was accepted; what the grant does not read is not delivered.
    return grant.subscribe.some((p) => topicMatches(p, topic));
  }
}
