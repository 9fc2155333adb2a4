import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { err, ok, type Result } from '../hub/rules/result.ts';

/**
 * Everything `start` reads from the environment (the only place it is read for the hub and
 * its panel), checked before anything starts: each
 * error is one line that names the variable (and the file or port) at fault.
 */
export interface StartEnv {
  web: { host: string; port: number };
  /** The embedded broker's listeners; unused with an external broker (MQTT_URL). */
  mqtt: { host: string | null; port: number; wsPort: number };
  mqttUrl: string | null;
  dataDir: string;
  configPath: string | null;
  trustProxy: boolean;
  /** The panel's certificate and key (PEM text) when TLS_CERT and TLS_KEY are set. */
  tls: { cert: string; key: string } | null;
  /** The demo's referee password (VENUE_PASSWORD); null keeps the one stored in DATA_DIR. */
  venuePassword: string | null;
  /** The hub's own login on an external broker (MQTT_USERNAME, MQTT_PASSWORD; docs/security.md). */
  mqttLogin: { username: string; password: string } | null;
  /** MQTT_ALLOW_OPEN_BROKER=1: accept an external broker that lets anyone in. */
  allowOpenBroker: boolean;
}

type Env = Record<string, string | undefined>;

function port(env: Env, name: string, fallback: number): Result<number> {
  const raw = env[name];
  if (raw === undefined || raw === '') return ok(fallback);
  const value = Number(raw);
  return Number.isInteger(value) && value >= 0 && value <= 65535 ? ok(value) : err(`${name}: '${raw}' is not a port number (0–65535)`);
}

/** An address to listen on: an IPv4 or IPv6 address, or a host name. */
function host(env: Env, name: string): Result<string | null> {
  const raw = env[name];
  if (raw === undefined || raw === '') return ok(null);
  return /^[A-Za-z0-9.:-]{1,253}$/.test(raw) ? ok(raw) : err(`${name}: '${raw}' is not an address to listen on (e.g. 127.0.0.1, 0.0.0.0, a LAN address)`);
}

function flag(env: Env, name: string): Result<boolean> {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return ok(false);
  if (raw === '1' || raw === 'true') return ok(true);
  return err(`${name}: '${raw}' is not 1 or 0`);
}

function readPem(name: string, path: string): Result<string> {
  try {
    return ok(readFileSync(path, 'utf8'));
  } catch (e) {
    return err(`${name} ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** The certificate and key, read and checked to go together (a mismatch fails here, not at the first visitor). */
function tlsFiles(env: Env): Result<{ cert: string; key: string } | null> {
  const certFile = env.TLS_CERT || undefined;
  const keyFile = env.TLS_KEY || undefined;
  if (!certFile && !keyFile) return ok(null);
  if (!certFile || !keyFile) return err(`${certFile ? 'TLS_KEY' : 'TLS_CERT'}: not set; HTTPS needs both TLS_CERT and TLS_KEY (PEM files)`);
  const cert = readPem('TLS_CERT', certFile);
  if (!cert.ok) return cert;
  const key = readPem('TLS_KEY', keyFile);
  if (!key.ok) return key;
  if (!cert.value.includes('-----BEGIN CERTIFICATE-----')) return err(`TLS_CERT ${certFile}: not a PEM certificate`);
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key.value)) return err(`TLS_KEY ${keyFile}: not a PEM private key`);
  try {
    createSecureContext({ cert: cert.value, key: key.value });
  } catch (e) {
    return err(`TLS_CERT ${certFile} and TLS_KEY ${keyFile}: not a usable pair (${(e as Error).message})`);
  }
  return ok({ cert: cert.value, key: key.value });
}

export function readStartEnv(env: Env, cwd: string): Result<StartEnv> {
  const webPort = port(env, 'PORT', 8080);
  if (!webPort.ok) return webPort;
  const mqttPort = port(env, 'MQTT_PORT', 1883);
  if (!mqttPort.ok) return mqttPort;
  const wsPort = port(env, 'MQTT_WS_PORT', 9001);
  if (!wsPort.ok) return wsPort;
  const webHost = host(env, 'HOST');
  if (!webHost.ok) return webHost;
  const mqttHost = host(env, 'MQTT_HOST');
  if (!mqttHost.ok) return mqttHost;
  const trustProxy = flag(env, 'TRUST_PROXY');
  if (!trustProxy.ok) return trustProxy;
  const tls = tlsFiles(env);
  if (!tls.ok) return tls;
  const mqttUrl = env.MQTT_URL || null;
  if (mqttUrl !== null && !/^(mqtts?|wss?|tcp|ssl):\/\/\S+$/.test(mqttUrl)) return err(`MQTT_URL: '${mqttUrl}' is not a broker URL such as mqtt://broker.local:1883`);
  if (mqttUrl === null) {
    const taken = [
      ['PORT', webPort.value],
      ['MQTT_PORT', mqttPort.value],
      ['MQTT_WS_PORT', wsPort.value],
    ].filter(([, p]) => p !== 0);
    for (const [i, [name, p]] of taken.entries()) {
      const other = taken.slice(i + 1).find(([, q]) => q === p);
      if (other) return err(`${name} and ${other[0]}: both are ${p}; give each its own port`);
    }
  }
  return ok({
    web: { host: webHost.value ?? '127.0.0.1', port: webPort.value },
    mqtt: { host: mqttHost.value, port: mqttPort.value, wsPort: wsPort.value },
    mqttUrl,
    dataDir: resolve(cwd, env.DATA_DIR || 'data'),
    configPath: env.CONFIG || null,
    trustProxy: trustProxy.value,
    tls: tls.value,
    venuePassword: env.VENUE_PASSWORD ?? null,
    mqttLogin: env.MQTT_USERNAME ? { username: env.MQTT_USERNAME, password: env.MQTT_PASSWORD ?? '' } : null,
    allowOpenBroker: env.MQTT_ALLOW_OPEN_BROKER === '1',
  });
}

/**
 * Whether each port can be listened on, tried and released before anything starts, so that
 * a port in use or an address this machine does not have stops the start with one line naming it.
 */
export async function checkPorts(listeners: readonly { name: string; hostName: string; host: string; port: number }[]): Promise<Result<void>> {
  for (const l of listeners) {
    const problem = await new Promise<string | null>((resolve) => {
      const server = createServer();
      server.once('error', (e: NodeJS.ErrnoException) => {
        const why =
          e.code === 'EADDRINUSE' ? `already in use (another hub or broker running?); set ${l.name} to another port`
          : e.code === 'EACCES' ? `not allowed (ports below 1024 need privileges); set ${l.name} to another port`
          : e.code === 'EADDRNOTAVAIL' ? `this machine has no address ${l.host}; check ${l.hostName}`
          : e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN' ? `the host name ${l.host} does not resolve; check ${l.hostName}`
          : e.message;
        resolve(why);
      });
      server.listen({ port: l.port, host: l.host, exclusive: true }, () => server.close(() => resolve(null)));
    });
    if (problem) return err(`${l.name} ${l.port} on ${l.host}: ${problem}`);
  }
  return ok(undefined);
}

/** True for an address only this machine can reach. */
export function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || /^127\./.test(address);
}
