import { createServer, type Server } from 'node:net';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { PasswordVerifier } from '../ops/password.ts';
import { filterAllowed, topicMatches } from './topic-match.ts';
import './packet-cache.ts';
import { InProcessClient } from './in-process-client.ts';

export interface BrokerUser {
  username: string;
  passwordHash: string;
  publish: readonly string[];
  subscribe: readonly string[];
}

export interface EmbeddedBrokerOptions {
  host: string;
  port: number;
  /** WebSocket listener for browsers and tools; null disables it. */
  wsPort: number | null;
  baseTopic: string;
  users: readonly BrokerUser[];
  allowAnonymousRead: boolean;
  /** More topics anonymous clients may read (the Home Assistant discovery prefix). */
  anonymousRead?: readonly string[];
}

export interface EmbeddedBroker {
  port: number;
  wsPort: number | null;
  /** A client inside the broker for the hub and its web panel: no socket, no login. */
  client(): InProcessClient;
  close(): Promise<void>;
}

interface Grant {
  publish: readonly string[];
  subscribe: readonly string[];
}

/**
 * The default broker: aedes in the hub's process, on TCP and WebSocket. Clients log in with
 * the configured users; anonymous clients (when allowed) may read everything under the base
 * topic and send requests, whose commands carry the venue password themselves.
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const { Aedes } = await import('aedes');
  const grants = new WeakMap<object, Grant>();
  const base = options.baseTopic;
  // Clients reconnect often (scoreboards on Wi-Fi): one scrypt check per password in ten minutes.
  const passwords = new PasswordVerifier();
  const anonymous: Grant = { publish: [`${base}/request/#`], subscribe: [`${base}/#`, ...(options.anonymousRead ?? [])] };

  const broker = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      const secret = password?.toString('utf8') ?? '';
      if (username === undefined || username === '') {
        if (!options.allowAnonymousRead) return done(Object.assign(new Error('not authorised'), { returnCode: 5 }) as never, false);
        grants.set(client, anonymous);
        return done(null, true);
      }
      const user = options.users.find((u) => u.username === username);
      const refuse = () => done(Object.assign(new Error('bad username or password'), { returnCode: 4 }) as never, false);
      if (!user) return refuse();
      void passwords.verify(secret, user.passwordHash).then((good) => {
        if (!good) return refuse();
        grants.set(client, { publish: user.publish, subscribe: user.subscribe });
        return done(null, true);
      });
    },
    authorizePublish(client, packet, callback) {
      if (!client) return callback(null); // the broker's own messages (wills are checked when set)
      const grant = grants.get(client);
      if (grant && grant.publish.some((p) => topicMatches(p, packet.topic))) return callback(null);
      return callback(new Error(`not allowed to publish on ${packet.topic}`));
    },
    authorizeSubscribe(client, subscription, callback) {
      const grant = grants.get(client);
      if (grant && filterAllowed(grant.subscribe, subscription.topic)) return callback(null, subscription);
      return callback(new Error(`not allowed to subscribe to ${subscription.topic}`));
    },
  });

  // No Nagle: MQTT messages are small and latency-bound; batching them behind delayed ACKs
  // costs up to 40 ms a message on loopback.
  const tcp: Server = createServer({ noDelay: true }, broker.handle as never);
  await listen(tcp, options.port, options.host);
  let http: HttpServer | null = null;
  let wss: WebSocketServer | null = null;
  if (options.wsPort !== null) {
    http = createHttpServer();
    wss = new WebSocketServer({ server: http });
    wss.on('connection', (socket, request) => broker.handle(createWebSocketStream(socket) as never, request));
    await listen(http, options.wsPort, options.host);
  }

  return {
    port: (tcp.address() as AddressInfo).port,
    wsPort: http ? (http.address() as AddressInfo).port : null,
    client: () => new InProcessClient(broker),
    async close() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      wss?.close();
      await Promise.all([closeServer(tcp), http ? closeServer(http) : Promise.resolve()]);
    },
  };
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
