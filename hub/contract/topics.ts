/**
 * Every MQTT topic of the contract (CONTRACT §3) as a function of the base topic, and the
 * one parser that reads a topic back: `parseTopic(base, topicOf(base, t))` is `t` again.
 * Everything lives under the base topic, `billiards` unless configured.
 */
export const DEFAULT_BASE_TOPIC = 'billiards';

/** The per-table topics: the hub publishes all but `tracker`, which a tracker publishes. */
export const TABLE_TOPICS = ['state', 'availability', 'events', 'health', 'tracker'] as const;
export type TableTopic = (typeof TABLE_TOPICS)[number];

/** A topic read back: what it is about (table, hub, command), or null for a topic not of the contract. */
export type ParsedTopic =
  | { kind: 'bridge-state' }
  | { kind: 'hub-state'; hub: string }
  | { kind: 'table'; table: string; topic: TableTopic }
  | { kind: 'request'; command: string }
  | { kind: 'response'; command: string }
  | { kind: 'league-state' };

export const topics = (base = DEFAULT_BASE_TOPIC) => ({
  bridgeState: `${base}/bridge/state`,
  /** Extension: one retained state per hub, so several hubs on one broker each have their own. */
  hubState: (hub: string) => `${base}/hubs/${hub}/state`,
  table: (table: string, topic: TableTopic) => `${base}/tables/${table}/${topic}`,
  tableState: (table: string) => `${base}/tables/${table}/state`,
  tableAvailability: (table: string) => `${base}/tables/${table}/availability`,
  tableEvents: (table: string) => `${base}/tables/${table}/events`,
  /** Extension: link health of a table's board (heartbeat age, dropped frames, alerts). */
  tableHealth: (table: string) => `${base}/tables/${table}/health`,
  /** Extension: an overhead tracker's facts for a table (ball ids, positions). */
  tableTracker: (table: string) => `${base}/tables/${table}/tracker`,
  /** Command names may have levels of their own (`match/start`). */
  request: (command: string) => `${base}/request/${command}`,
  response: (command: string) => `${base}/response/${command}`,
  /** Extension (issue 8): the house league's retained state. */
  leagueState: `${base}/league/state`,
  /** Subscription filters. */
  allTables: (topic: TableTopic) => `${base}/tables/+/${topic}`,
  allTableStates: `${base}/tables/+/state`,
  allTableAvailability: `${base}/tables/+/availability`,
  allTableEvents: `${base}/tables/+/events`,
  allTableHealth: `${base}/tables/+/health`,
  allTableTrackers: `${base}/tables/+/tracker`,
  allHubStates: `${base}/hubs/+/state`,
  allRequests: `${base}/request/#`,
  allResponses: `${base}/response/#`,
});

export type Topics = ReturnType<typeof topics>;

/** The topic for a parsed one: the inverse of parseTopic. */
export function topicOf(base: string, parsed: ParsedTopic): string {
  const t = topics(base);
  switch (parsed.kind) {
    case 'bridge-state':
      return t.bridgeState;
    case 'hub-state':
      return t.hubState(parsed.hub);
    case 'table':
      return t.table(parsed.table, parsed.topic);
    case 'request':
      return t.request(parsed.command);
    case 'response':
      return t.response(parsed.command);
    case 'league-state':
      return t.leagueState;
  }
}

const isTableTopic = (s: string): s is TableTopic => (TABLE_TOPICS as readonly string[]).includes(s);

/**
 * Reads a topic under `base`. Ids are one non-empty level; a command name is the rest of the
 * topic (`match/start`). Whether an id is a valid table id is for the receiver to decide.
 */
export function parseTopic(base: string, topic: string): ParsedTopic | null {
  if (!topic.startsWith(`${base}/`)) return null;
  const rest = topic.slice(base.length + 1).split('/');
  const [head, id, leaf] = rest;
  const oneId = id !== undefined && id !== '';
  switch (head) {
    case 'bridge':
      return rest.length === 2 && id === 'state' ? { kind: 'bridge-state' } : null;
    case 'league':
      return rest.length === 2 && id === 'state' ? { kind: 'league-state' } : null;
    case 'hubs':
      return rest.length === 3 && oneId && leaf === 'state' ? { kind: 'hub-state', hub: id } : null;
    case 'tables':
      return rest.length === 3 && oneId && leaf !== undefined && isTableTopic(leaf) ? { kind: 'table', table: id, topic: leaf } : null;
    case 'request':
    case 'response': {
      // Even an empty name: the hub answers it with "unknown command".
      return rest.length >= 2 ? { kind: head, command: rest.slice(1).join('/') } : null;
    }
    default:
      return null;
  }
}
