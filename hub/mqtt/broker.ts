import { createServer, type Server } from 'node:net';
import { createServer as createHttpServer, type Server as HttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { PasswordVerifier } from '../ops/password.ts';
import { LoginGuard } from '../ops/login-guard.ts';
import { filterAllowed } from './topic-match.ts';
import { MAX_PACKET_BYTES, publicTopics, roleGrant, TopicPolicy, type Grant, type Role } from './access.ts';
import type { AuthenticateError, AuthErrorCode, Client, Connection } from 'aedes';
import './packet-cache.ts';
import { InProcessClient } from './in-process-client.ts';
import { createMqEmitter, watchBusEntry } from './mq-emitter.ts';
import { skipOfflineQueueWhileNone } from './offline-queue.ts';
import { writePerTurn } from './turn-writes.ts';

/**
 * Deliveries in flight at once; the rest wait in the (O(1)) queue. aedes's default is 100,
 * and a delivery to a socket client holds its slot for two turns of the event loop (aedes
 * writes in one `setImmediate` and frees the slot in the next), so at a flood's rate the
 * slots, not the CPU, paced the broker: 34k frames/s, five interleaved rounds, p99 77–1,376
 * ms (median 176) with 100, 45–1,231 (median 73) with 400, 92–859 with 1,000 in three of
 * them (issue 18).
 */
const BROKER_CONCURRENCY = 400;

export interface BrokerUser {
  username: string;
  passwordHash: string;
  /** A role gives the user its topics (hub/mqtt/access.ts); without one, `publish` and `subscribe` do. */
  role?: Role | undefined;
  /** A tracker's tables. */
  tables?: readonly string[] | undefined;
  publish: readonly string[];
  subscribe: readonly string[];
}

export interface BrokerLimits {
  maxConnections: number;
  maxSubscriptionsPerClient: number;
  maxPacketBytes: number;
}

export const DEFAULT_BROKER_LIMITS: BrokerLimits = { maxConnections: 500, maxSubscriptionsPerClient: 64, maxPacketBytes: MAX_PACKET_BYTES };

export interface EmbeddedBrokerOptions {
  host: string;
  port: number;
  /** WebSocket listener for browsers and tools; null disables it. */
  wsPort: number | null;
  baseTopic: string;
  users: readonly BrokerUser[];
  /** The venue's referee login: a broker user with the referee role (third-party referee apps). */
  venue?: { username: string; passwordHash: string } | null | undefined;
  allowAnonymousRead: boolean;
  /** More topics anonymous clients may read (the Home Assistant discovery prefix). */
  anonymousRead?: readonly string[];
  limits?: Partial<BrokerLimits>;
  /** Each refused login, publish, subscription or connection, by reason (for /metrics). */
  onRefused?: (reason: RefusalReason) => void;
  log?: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
  guard?: LoginGuard;
}

export type RefusalReason = 'login' | 'login-locked' | 'publish' | 'payload-size' | 'packet-size' | 'subscribe' | 'subscriptions-limit' | 'connections';

export interface EmbeddedBroker {
  port: number;
  wsPort: number | null;
  /** A client inside the broker for the hub and its web panel: no socket, no login. */
  client(): InProcessClient;
  /** Messages waiting to go into the broker (its in-process clients' queues) or for a delivery slot (over the concurrency limit): the broker's share of an overload. */
  backlog(): number;
  close(): Promise<void>;
}

interface Session {
  grant: Grant;
  /** Its subscribed filters, bounded by maxSubscriptionsPerClient. */
  subscriptions: Set<string>;
}

/** The packet parser aedes keeps on each client (not in its typings): its length hook is where oversized packets are refused. */
interface PacketParser {
  packet?: { length?: number };
  _parseLength: () => boolean;
  emit(event: 'error', e: Error): boolean;
}

function parserOf(client: object): PacketParser | undefined {
  const parser: unknown = '_parser' in client ? client._parser : undefined;
  return typeof parser === 'object' && parser !== null && '_parseLength' in parser && typeof parser._parseLength === 'function' && 'emit' in parser ? (parser as PacketParser) : undefined;
}

/**
 * The default broker: aedes in the hub's process, on TCP and WebSocket. Clients log in with
 * the configured users (or the venue's referee login); anonymous clients, when allowed, are
 * displays. Which topics each may use is decided here (hub/mqtt/access.ts), per message.
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const { Aedes } = await import('aedes');
  const sessions = new WeakMap<object, Session>();
  const base = options.baseTopic;
  const limits = { ...DEFAULT_BROKER_LIMITS, ...options.limits };
  const refused = (reason: RefusalReason) => options.onRefused?.(reason);
  const policy = new TopicPolicy(base, (options.anonymousRead ?? []).map((p) => p.replace(/\/#$/, '')));
  // Clients reconnect often (scoreboards on Wi-Fi): one scrypt check per password in ten minutes.
  const passwords = new PasswordVerifier();
  const guard = options.guard ?? new LoginGuard();
  const anonymous: Grant = { role: 'display', publish: [], subscribe: publicTopics(base, options.anonymousRead) };
  const venueUser: BrokerUser | null = options.venue ? { username: options.venue.username, passwordHash: options.venue.passwordHash, role: 'referee', publish: [], subscribe: [] } : null;
  const users = [...options.users, ...(venueUser && !options.users.some((u) => u.username === venueUser.username) ? [venueUser] : [])];
  const grantOf = (user: BrokerUser): Grant => (user.role ? roleGrant(user.role, base, { tables: user.tables ?? [], extraRead: options.anonymousRead ?? [] }) : { role: 'custom', publish: user.publish, subscribe: user.subscribe });

  const mq = createMqEmitter(BROKER_CONCURRENCY);
  const busEntry = watchBusEntry(mq);
  const inProcess = new Set<InProcessClient>();
  const broker = await Aedes.createBroker({
    concurrency: BROKER_CONCURRENCY,
    mq,
    authenticate(client, username, password, done) {
      const refuse = (code: AuthErrorCode, message: string) => {
        const error: AuthenticateError = Object.assign(new Error(message), { returnCode: code });
        done(error, false);
      };
      if (broker.connectedClients >= limits.maxConnections) {
        refused('connections');
        return refuse(3, 'too many connections');
      }
      if (username === undefined || username === '') {
        if (!options.allowAnonymousRead) return refuse(5, 'not authorised');
        sessions.set(client, { grant: anonymous, subscriptions: new Set() });
        return done(null, true);
      }
      const user = users.find((u) => u.username === username);
      const secret = password?.toString('utf8') ?? '';
      const source = sourceOf(client);
      // Unknown users pay a check too (against the venue hash when there is one), so a name cannot be told from a password by timing.
      const check = () => (user ? passwords.verify(secret, user.passwordHash) : passwords.verify(secret, venueUser?.passwordHash ?? '').then(() => false));
      guard.attempt(username, source, check).then(
        (outcome) => {
          if (!outcome.ok) {
            refused(outcome.reason === 'locked' ? 'login-locked' : 'login');
            if (outcome.reason === 'locked') options.log?.('warn', 'MQTT login refused: too many wrong passwords from this address', { username, source, retryAfterMs: outcome.retryAfterMs });
            return refuse(4, 'bad username or password');
          }
          sessions.set(client, { grant: grantOf(user!), subscriptions: new Set() });
          return done(null, true);
        },
        () => refuse(3, 'login check failed'),
      );
    },
    authorizePublish(client, packet, callback) {
      if (!client) return callback(null); // the broker's own messages
      const why = policy.refusePublish(sessions.get(client)?.grant, packet.topic, packet.payload?.length ?? 0, packet.retain === true);
      if (why === null) return callback(null);
      refused(why.includes('over the limit') ? 'payload-size' : 'publish');
      return callback(new Error(why));
    },
    authorizeSubscribe(client, subscription, callback) {
      const session = sessions.get(client);
      // A refused subscription is negated (SUBACK 128); the client stays connected.
      if (!session || (!filterAllowed(session.grant.subscribe, subscription.topic) && !coversOnlyReadable(session.grant, subscription.topic))) {
        refused('subscribe');
        return callback(null, null);
      }
      if (!session.subscriptions.has(subscription.topic) && session.subscriptions.size >= limits.maxSubscriptionsPerClient) {
        refused('subscriptions-limit');
        return callback(null, null);
      }
      session.subscriptions.add(subscription.topic);
      return callback(null, subscription);
    },
    authorizeForward(client, packet) {
      return policy.mayForward(sessions.get(client)?.grant, packet.topic) ? packet : undefined;
    },
  });
  skipOfflineQueueWhileNone(broker);

  broker.on('unsubscribe', (topics, client) => {
    const session = client ? sessions.get(client) : undefined;
    for (const topic of topics) session?.subscriptions.delete(topic);
  });

  /** Refuses a packet bigger than the limit as soon as its length is read: 10 MB are never buffered. */
  const handle = (stream: Connection, request?: IncomingMessage) => {
    const parser = parserOf(broker.handle(stream, request));
    if (!parser) return;
    const parseLength = parser._parseLength;
    parser._parseLength = function (this: typeof parser) {
      const ok = parseLength.call(this);
      if (ok && (this.packet?.length ?? 0) > limits.maxPacketBytes) {
        refused('packet-size');
        this.emit('error', new Error(`packet of ${this.packet?.length} bytes is over the limit of ${limits.maxPacketBytes}`));
        stream.destroy();
        return false;
      }
      return ok;
    };
  };

  // No Nagle: MQTT messages are small and latency-bound; batching them behind delayed ACKs
  // costs up to 40 ms a message on loopback.
  // A turn's messages to one client go out in one write (hub/mqtt/turn-writes.ts).
  const tcp: Server = createServer({ noDelay: true }, (socket) => (writePerTurn(socket), handle(socket)));
  tcp.maxConnections = limits.maxConnections + 16;
  await listen(tcp, options.port, options.host);
  let http: HttpServer | null = null;
  let wss: WebSocketServer | null = null;
  if (options.wsPort !== null) {
    http = createHttpServer();
    wss = new WebSocketServer({ server: http, maxPayload: limits.maxPacketBytes + 16 });
    wss.on('connection', (socket, request) => handle(createWebSocketStream(socket), request));
    http.maxConnections = limits.maxConnections + 16;
    await listen(http, options.wsPort, options.host);
  }

  return {
    port: (tcp.address() as AddressInfo).port,
    wsPort: http ? (http.address() as AddressInfo).port : null,
    client: () => {
      const client = new InProcessClient(broker, busEntry);
      inProcess.add(client);
      client.once('end', () => inProcess.delete(client));
      return client;
    },
    backlog: () => {
      let queued = mq.length;
      for (const client of inProcess) queued += client.queued;
      return queued;
    },
    async close() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      wss?.close();
      await Promise.all([closeServer(tcp), http ? closeServer(http) : Promise.resolve()]);
    },
  };
}

/** The address a client connects from: the TCP socket's, or the WebSocket request's. */
function sourceOf(client: Pick<Client, 'conn' | 'req'>): string {
  const conn: object | undefined = client.conn;
  const address = conn && 'remoteAddress' in conn && typeof conn.remoteAddress === 'string' ? conn.remoteAddress : undefined;
  return address ?? client.req?.socket?.remoteAddress ?? 'unknown';
}

/**
 * A wildcard wider than the grant (a display subscribing to `billiards/#`) is accepted when
 * the grant reads something under it: what it may not read is never forwarded to it.
 */
function coversOnlyReadable(grant: Grant, filter: string): boolean {
  if (!filter.includes('#') && !filter.includes('+')) return false;
  const prefix = filter.split('/').filter((level) => level !== '#' && level !== '+');
  return grant.subscribe.some((p) => prefix.every((level, i) => p.split('/')[i] === level || p.split('/')[i] === '+' || p.split('/')[i] === '#'));
}

function listen(server: Server | HttpServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(e.code === 'EADDRINUSE' ? new Error(`port ${port} on ${host} is already in use (is another hub or broker running?)`) : e);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function closeServer(server: Server | HttpServer): Promise<void> {
  return new Promise((resolve) => {
    (server as HttpServer).closeAllConnections?.();
    server.close(() => resolve());
  });
}
