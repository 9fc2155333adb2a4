import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { loadConfig, parseConfig } from '../hub/config/load.ts';
import type { HubConfig, TableConfig } from '../hub/config/schema.ts';
import type { Hub } from '../hub/hub.ts';
import { hashPassword, hashPasswordSync } from '../hub/ops/password.ts';
import type { DemoLeague } from '../hub/league/demo-league.ts';
import { persistentSecret } from '../hub/ops/persistent-secret.ts';
import type { SensorSource } from '../hub/sources/source.ts';
import { gameEntry, isVariantId, VARIANT_IDS, type VariantId } from '../hub/rules/catalogue.ts';
import type { CommandIO } from './replay-command.ts';
import { checkPorts, isLoopback, readStartEnv } from './start-checks.ts';

/** The demo when there is no configuration: simulated tables, clearly labelled, playing matches. */
const DEMO_MATCHES: Partial<Record<VariantId, { players: string[]; target: number; options?: Record<string, unknown> }>> = {
  'three-cushion': { players: ['Ana', 'Ben'], target: 15 },
  'skittles-5': { players: ['Cid', 'Dan'], target: 60 },
  'balkline-47-2': { players: ['Eve', 'Finn'], target: 50 },
  'skittles-7-pyramid': { players: ['Gus', 'Hal'], target: 300 },
  'free-game': { players: ['Ida', 'Jon'], target: 60 },
  artistic: { players: ['Kai', 'Lea'], target: 1, options: { figures: 4, seed: 7 } },
};

/** The games of the demo's tables unless `--variants` names others. */
const DEMO_VARIANTS: readonly VariantId[] = ['three-cushion', 'skittles-5', 'balkline-47-2'];

export function demoConfig(tables: number, variants: string[], venueHash: string): HubConfig {
  const list: unknown[] = [];
  for (let i = 0; i < tables; i++) {
    const variant = variants[i % variants.length]!;
    const preset = (isVariantId(variant) ? DEMO_MATCHES[variant] : undefined) ?? { players: ['Home', 'Away'], target: 30 };
    // One sensor channel per skittle of the game, in the catalogue's order.
    const skittles = Object.fromEntries((gameEntry(variant)?.skittles ?? []).map((s, channel) => [String(channel), s]));
    list.push({
      id: `table-${i + 1}`,
      name: `Table ${i + 1} (simulated)`,
      source: { type: 'simulator', seed: i + 1 },
      rails: { '0': 'head', '1': 'foot', '2': 'left', '3': 'left', '4': 'right', '5': 'right' },
      skittles,
      scoring: 'tracker',
      quietWindowMs: 800,
      defaultMatch: { variant, ...preset },
    });
  }
  const parsed = parseConfig(JSON.stringify({ hub: { id: 'demo' }, venue: { passwordHash: venueHash }, tables: list }), 'demo');
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

interface StartArgs {
  tables: number;
  variants: string[];
  speed: number;
}

function parseArgs(args: readonly string[]): StartArgs | string {
  const out: StartArgs = { tables: 3, variants: [...DEMO_VARIANTS], speed: 1 };
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i]!.split('=', 2) as [string, string | undefined];
    const value = inline ?? args[++i];
    if (value === undefined) return `${flag} needs a value`;
    if (flag === '--tables') {
      out.tables = Number(value);
      if (!Number.isInteger(out.tables) || out.tables < 1 || out.tables > 16) return '--tables: a whole number from 1 to 16';
    } else if (flag === '--variants') {
      out.variants = value.split(',').map((v) => v.trim());
      const unknown = out.variants.find((v) => !(VARIANT_IDS as readonly string[]).includes(v));
      if (unknown) return `--variants: unknown variant '${unknown}' (known: ${VARIANT_IDS.join(', ')})`;
    } else if (flag === '--speed') {
      out.speed = Number(value);
      if (!(out.speed > 0 && out.speed <= 100)) return '--speed: a number above 0, at most 100';
    } else return `unknown option ${flag} (known: --tables N, --variants a,b,c, --speed X)`;
  }
  return out;
}

/** Stops what did start, but never waits long: a start-up failure must exit promptly. */
async function within(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => undefined), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/**
 * `npm start`: the embedded broker (or MQTT_URL), the hub and the web panel. With no
 * CONFIG it runs simulated tables and says so. Everything is checked before anything
 * starts (arguments, environment, configuration, certificate, ports); the store is opened
 * first. Any failure is one line on stderr naming the variable, field, file or port, and
 * a non-zero exit, with whatever had started stopped again.
 */
export async function startCommand(args: readonly string[], io: CommandIO): Promise<number> {
  const fail = (message: string, code: number) => (io.stderr(`start: ${message.replace(/\s*\n\s*/g, ' ')}\n`), code);
  const parsedArgs = parseArgs(args);
  if (typeof parsedArgs === 'string') return fail(parsedArgs, 2);
  const env = readStartEnv(process.env, process.cwd());
  if (!env.ok) return fail(env.error, 2);
  const { web: webListen, mqtt, mqttUrl, dataDir, configPath, tls, trustProxy, venuePassword, mqttLogin, allowOpenBroker } = env.value;

  let loaded: HubConfig | null = null;
  let demoPassword: string | null = null;
  // A password hash (scrypt, ~0.1 s) is made on libuv's thread pool while this thread loads the hub.
  let hashing: Promise<string> | null = null;
  if (configPath) {
    const read = loadConfig(configPath);
    if (!read.ok) return fail(read.error, 2);
    loaded = read.value;
    // Without venue credentials nobody can log in: the panel gets the hash of a password nobody knows.
    if (!loaded.venue) hashing = hashPassword(randomBytes(24).toString('base64url'));
  } else {
    // The demo's password is kept in DATA_DIR: it stays the same across restarts.
    demoPassword = venuePassword ?? persistentSecret(dataDir, 'demo-password', () => randomBytes(6).toString('base64url'));
    if (demoPassword.length < 8) return fail('VENUE_PASSWORD: use at least 8 characters', 2);
    hashing = hashPassword(demoPassword);
  }
  // MQTT_HOST, else the configuration's broker.host, else loopback only (the demo has none).
  const mqttHost = mqtt.host ?? loaded?.broker.host ?? '127.0.0.1';
  const ports = await checkPorts([
    { name: 'PORT', hostName: 'HOST', host: webListen.host, port: webListen.port },
    ...(mqttUrl
      ? []
      : [
          { name: 'MQTT_PORT', hostName: mqtt.host ? 'MQTT_HOST' : 'broker.host', host: mqttHost, port: mqtt.port },
          { name: 'MQTT_WS_PORT', hostName: mqtt.host ? 'MQTT_HOST' : 'broker.host', host: mqttHost, port: mqtt.wsPort },
        ]),
  ]);
  if (!ports.ok) return fail(ports.error, 1);
  // The store opens (and migrates) before anything listens: a corrupt or unreadable one is named here.
  const { EventStore } = await import('../hub/store/event-store.ts');
  try {
    await new EventStore(join(dataDir, 'hub.sqlite')).close();
  } catch (e) {
    return fail((e as Error).message, 1);
  }

  // Only now the hub, the panel and the board drivers load: every check above ran without them.
  const [{ Hub }, { DEFAULT_EXTENSIONS }, { createLogger }, { BridgeSource, loadTransports }, { SimulatedTable }, { createWebPanel }] = await Promise.all([
    import('../hub/hub.ts'),
    import('../hub/extensions/index.ts'),
    import('../hub/ops/log.ts'),
    import('../hub/sources/bridge-source.ts'),
    import('./simulated-table.ts'),
    import('../web/index.ts'),
  ]);
  const config: HubConfig = loaded ?? demoConfig(parsedArgs.tables, parsedArgs.variants, await hashing!);
  const transportFor = await loadTransports(config.tables);
  const log = createLogger('billiards-hub');
  const clock = () => performance.timeOrigin + performance.now();
  const sourceFor = (table: TableConfig): SensorSource => {
    if (table.source.type === 'simulator') return new SimulatedTable(table, { seed: table.source.seed, speed: table.source.speed * parsedArgs.speed, clock });
    return new BridgeSource(table.source.type, transportFor(table, () => clock() * 1000), table, clock);
  };
  let demoLeague: DemoLeague | null = null;
  const hub = new Hub({
    onTableState: (state) => demoLeague?.onTableState(state),
    config,
    dataDir,
    ...(mqttUrl ? { mqttUrl } : {}),
    mqttHost,
    // The hub's own login on an external broker (docs/security.md).
    ...(mqttLogin ? { mqttUsername: mqttLogin.username, mqttPassword: mqttLogin.password } : {}),
    ...(allowOpenBroker ? { allowOpenBroker: true } : {}),
    mqttPort: mqtt.port,
    mqttWsPort: mqtt.wsPort,
    sourceFor,
    // The features around the hub's core, in start order (hub/extensions/; docs/hub.md says how to add one).
    extensions: DEFAULT_EXTENSIONS,
    // Tables' cameras run issue 15's detector (hub/vision) in their threads; a camera needs its corners for it.
    cameraProcessor: { module: new URL(`../hub/camera/vision-processor${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href, needsCorners: true },
    log,
  });
  try {
    await hub.start();
  } catch (e) {
    await within(1000, hub.stop());
    return fail((e as Error).message, 1);
  }
  // Without venue credentials the displays work and nobody can log in to change a match.
  const venueHash = config.venue?.passwordHash ?? (await hashing) ?? hashPasswordSync(randomBytes(24).toString('base64url'));
  // Logins outlive a restart: session ids are signed with a key kept in DATA_DIR.
  const sessionKey = Buffer.from(persistentSecret(dataDir, 'session.key', undefined, 43), 'base64url');
  const web = await startWeb(createWebPanel, hub, config, { ...webListen, tls, trustProxy }, venueHash, sessionKey, join(dataDir, 'sessions-ended'));
  if (!web.ok) {
    await within(1000, hub.stop());
    return fail(web.error, 1);
  }

  if (demoPassword && hub.league) {
    // The demo plays a house league on its tables of the league's game (hub/league/demo-league.ts).
    // Loaded once the panel answers: a table's state before then is caught up just below.
    const { DemoLeague, DEMO_DISCIPLINE } = await import('../hub/league/demo-league.ts');
    const leagueTables = config.tables.filter((t) => t.defaultMatch?.variant === DEMO_DISCIPLINE).map((t) => t.id);
    demoLeague = new DemoLeague(hub.league, leagueTables, () => new Date().toISOString().slice(0, 10), log);
    demoLeague.ensureSeason();
    for (const id of leagueTables) demoLeague.onTableState(hub.tables.get(id)!.state());
  }
  const simulated = config.tables.filter((t) => t.source.type === 'simulator').length;
  const plainOnNetwork = !tls && !trustProxy && !isLoopback(webListen.host);
  io.stdout(
    [
      '',
      `Billiards scoring hub '${config.hub.id}' is running.`,
      `  MQTT broker:     ${hub.mqttUrl}${mqttUrl ? ' (external)' : ` (embedded${isLoopback(mqttHost) ? '' : `, listening on ${mqttHost}`}; WebSocket ${hub.mqttWsUrl})`}`,
      ...web.lines,
      plainOnNetwork ? `  WARNING: the panel is served over plain HTTP on ${webListen.host}: passwords and session cookies cross the network in clear. Set TLS_CERT and TLS_KEY, or serve it behind an HTTPS reverse proxy (HOST=127.0.0.1, TRUST_PROXY=1).` : '',
      simulated > 0 ? `  ${simulated} SIMULATED table(s): no board is connected; a simulated table plays matches (${[...new Set(config.tables.map((t) => t.defaultMatch?.variant))].join(', ')}).` : '',
      config.venue ? '' : '  No venue credentials in the configuration (venue.passwordHash): the referee console and commands are locked.',
      demoPassword ? `  Referee console login: ${config.venue?.username ?? 'referee'} / ${demoPassword}   (set VENUE_PASSWORD, or CONFIG for a real venue)` : '',
      '',
    ]
      .filter((l) => l !== '')
      .join('\n') + '\n',
  );

  await new Promise<void>((resolveStop) => {
    const stop = () => resolveStop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await web.stop();
  await hub.stop();
  return 0;
}

/** The web panel on the hub's broker, with the hub's health and metrics on the same server. */
async function startWeb(
  createWebPanel: typeof import('../web/index.ts').createWebPanel,
  hub: Hub,
  config: HubConfig,
  listen: { host: string; port: number; tls: { cert: string; key: string } | null; trustProxy: boolean },
  venueHash: string,
  sessionKey: Buffer,
  sessionsEndedFile: string,
): Promise<{ ok: true; lines: string[]; stop: () => Promise<void> } | { ok: false; error: string }> {
  try {
    const panel = createWebPanel({
      mqtt: hub.panelMqtt(`billiards-web-${config.hub.id}-${process.pid}`),
      baseTopic: config.hub.baseTopic,
      host: listen.host,
      port: listen.port,
      venue: { username: config.venue?.username ?? 'referee', passwordHash: venueHash },
      health: () => hub.health(),
      clips: { list: (table: string) => hub.cameras?.list(table) ?? [], file: (table: string, id: string) => hub.cameras?.clips.path(table, id) ?? null, tracks: (table: string, id: string) => hub.cameras?.clips.tracksPath(table, id) ?? null },
      ...(hub.cameras ? { camera: hub.cameras } : {}),
      trustProxy: listen.trustProxy,
      ...(listen.tls ? { tls: listen.tls } : {}),
      sessionKey,
      sessionsEndedFile,
    });
    panel.app.get('/metrics', (c) => c.text(hub.metrics(), 200, { 'content-type': 'text/plain; version=0.0.4' }));
    const { url } = await panel.start();
    const lines = [`  Venue overview:  ${url}/`, ...config.tables.map((t) => `  ${t.id.padEnd(14)}   ${url}/tables/${t.id}   (referee: ${url}/referee/${t.id})`), `  Metrics:         ${url}/metrics`];
    return { ok: true, lines, stop: () => panel.stop() };
  } catch (e) {
    const message = (e as Error).message;
    return { ok: false, error: /cannot listen/.test(message) ? `${message} (set PORT to another port)` : message };
  }
}
