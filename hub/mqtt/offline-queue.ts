/** The part of aedes's persistence its offline queueing uses (aedes-persistence's interface). */
export interface OfflineQueuePersistence {
  subscriptionsByTopic(topic: string): Promise<unknown[]>;
  outgoingEnqueueCombi(subs: unknown[], packet: unknown): Promise<unknown>;
  addSubscriptions(client: unknown, subs: { qos?: number }[]): Promise<unknown>;
  removeSubscriptions(client: unknown, topics: string[]): Promise<unknown>;
  cleanSubscriptions(client: unknown): Promise<unknown>;
  countOffline(): Promise<{ subsCount: number }>;
}

const NONE: Promise<unknown[]> = Promise.resolve(Object.freeze([]) as unknown as unknown[]);
const DONE: Promise<undefined> = Promise.resolve(undefined);

/**
 * aedes looks up, for every QoS 1 or 2 message, the persistent sessions (clean session off)
 * subscribed at QoS 1 or 2, to queue it for those offline: a topic match (the topic split
 * into words and joined back) and two promises a message. Every event the hub publishes is
 * QoS 1 (CONTRACT §3), and at a flood's rate that was a tenth of what the hub allocated
 * (issue 18). While no persistent session holds such a subscription (a venue's displays and
 * panels connect with clean sessions) there is nothing to look up: answered at once. A
 * subscription counts from the moment it is being added; one dropped, once the store
 * says none is left.
 */
export function skipOfflineQueueWhileNone(broker: object): boolean {
  const persistence = persistenceOf(broker);
  if (!persistence) return false;
  let persistent = false;
  /** Subscriptions begun: a count taken before one began does not clear the flag it set. */
  let adds = 0;
  const match = persistence.subscriptionsByTopic.bind(persistence);
  const enqueue = persistence.outgoingEnqueueCombi.bind(persistence);
  const add = persistence.addSubscriptions.bind(persistence);
  const remove = persistence.removeSubscriptions.bind(persistence);
  const clean = persistence.cleanSubscriptions.bind(persistence);
  const recount = async () => {
    const seen = adds;
    const { subsCount } = await persistence.countOffline();
    if (adds === seen) persistent = subsCount > 0;
  };
  persistence.subscriptionsByTopic = (topic) => (persistent ? match(topic) : NONE);
  persistence.outgoingEnqueueCombi = (subs, packet) => (subs.length === 0 ? DONE : enqueue(subs, packet));
  persistence.addSubscriptions = (client, subs) => {
    adds += 1;
    if (subs.some((s) => (s.qos ?? 0) > 0)) persistent = true;
    return add(client, subs).finally(recount);
  };
  persistence.removeSubscriptions = (client, topics) => remove(client, topics).finally(recount);
  persistence.cleanSubscriptions = (client) => clean(client).finally(recount);
  return true;
}

const METHODS = ['subscriptionsByTopic', 'outgoingEnqueueCombi', 'addSubscriptions', 'removeSubscriptions', 'cleanSubscriptions', 'countOffline'] as const;

/** aedes's persistence (not in its typings), when it has every method this needs; else left as it is. */
function persistenceOf(broker: object): OfflineQueuePersistence | null {
  const persistence: unknown = 'persistence' in broker ? broker.persistence : undefined;
  if (typeof persistence !== 'object' || persistence === null) return null;
  return METHODS.every((m) => typeof (persistence as Record<string, unknown>)[m] === 'function') ? (persistence as OfflineQueuePersistence) : null;
}
