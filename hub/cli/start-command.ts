import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { loadConfig, parseConfig } from '../config/load.ts';
import type { HubConfig, TableConfig } from '../config/schema.ts';
import { Hub } from '../hub.ts';
import { DemoLeague } from '../league/demo-league.ts';
import { createLogger } from '../ops/log.ts';
import { hashPasswordSync } from '../ops/password.ts';
import { persistentSecret } from '../ops/persistent-secret.ts';
import { BridgeSource, transportFor } from '../sources/bridge-source.ts';
import type { SensorSource } from '../sources/source.ts';
import { SimulatedTable } from '../../hardware/simulator/simulated-table.ts';
import { VARIANT_IDS } from '../rules/ids.ts';
import { createWebPanel } from '../../web/index.ts';
import type { CommandIO } from './replay-command.ts';

/** The demo when there is no configuration: simulated tables, clearly labelled, playing matches. */
const DEMO_MATCHES: Record<string, { players: string[]; target: number; options?: Record<string, unknown> }> = {
  'three-cushion': { players: ['Ana', 'Ben'], target: 15 },
  'skittles-5': { players: ['Cid', 'Dan'], target: 60 },
  'balkline-47-2': { players: ['Eve', 'Finn'], target: 50 },
  'skittles-7-pyramid': { players: ['Gus', 'Hal'], target: 300 },
  'free-game': { players: ['Ida', 'Jon'], target: 60 },
  artistic: { players: ['Kai', 'Lea'], target: 1, options: { figures: 4, seed: 7 } },
};

export function demoConfig(tables: number, variants: string[], venueHash: string): HubConfig {
  const list: unknown[] = [];
  for (let i = 0; i < tables; i++) {
    const variant = variants[i % variants.length]!;
    const preset = DEMO_MATCHES[variant] ?? { players: ['Home', 'Away'], target: 30 };
    const skittles = variant.startsWith('skittles')
      ? { '0': 'king', '1': 'head', '2': 'foot', '3': 'left', '4': 'right', ...(variant === 'skittles-5' ? {} : { '5': 'spot1', '6': 'spot3' }) }
      : {};
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
  const out: StartArgs = { tables: 3, variants: ['three-cushion', 'skittles-5', 'balkline-47-2'], speed: 1 };
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

function envPort(name: string, fallback: number): number | string {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  return Number.isInteger(port) && port >= 0 && port <= 65535 ? port : `${name}: '${raw}' is not a port number`;
}

/**
 * `npm start`: the embedded broker (or MQTT_URL), the hub and the web panel. With no
 * CONFIG it runs simulated tables and says so. PORT, MQTT_PORT, MQTT_URL, DATA_DIR, CONFIG.
 */
export async function startCommand(args: readonly string[], io: CommandIO): Promise<number> {
  const parsedArgs = parseArgs(args);
  if (typeof parsedArgs === 'string') {
    io.stderr(`start: ${parsedArgs}\n`);
    return 2;
  }
  const webPort = envPort('PORT', 8080);
  const mqttPort = envPort('MQTT_PORT', 1883);
  const mqttWsPort = envPort('MQTT_WS_PORT', 9001);
  for (const p of [webPort, mqttPort, mqttWsPort]) if (typeof p === 'string') return (io.stderr(`start: ${p}\n`), 2);

  let config: HubConfig;
  let demoPassword: string | null = null;
  if (process.env.CONFIG) {
    const loaded = loadConfig(process.env.CONFIG);
    if (!loaded.ok) {
      io.stderr(`start: ${loaded.error}\n`);
      return 2;
    }
    config = loaded.value;
  } else {
    // The demo's password is kept in DATA_DIR: it stays the same across restarts.
    demoPassword = process.env.VENUE_PASSWORD ?? persistentSecret(resolve(process.env.DATA_DIR ?? 'data'), 'demo-password', () => randomBytes(6).toString('base64url'));
    config = demoConfig(parsedArgs.tables, parsedArgs.variants, hashPasswordSync(demoPassword));
  }

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
    dataDir: resolve(process.env.DATA_DIR ?? 'data'),
    ...(process.env.MQTT_URL ? { mqttUrl: process.env.MQTT_URL } : {}),
    mqttPort: mqttPort as number,
    mqttWsPort: mqttWsPort as number,
    sourceFor,
    log,
  });
  try {
    await hub.start();
  } catch (e) {
    io.stderr(`start: ${(e as Error).message}\n`);
    await hub.stop().catch(() => undefined);
    return 1;
  }
  if (demoPassword && hub.league) {
    // The demo plays a house league on its three-cushion tables (hub/league/demo-league.ts).
    const leagueTables = config.tables.filter((t) => t.defaultMatch?.variant === 'three-cushion').map((t) => t.id);
    demoLeague = new DemoLeague(hub.league, leagueTables, () => new Date().toISOString().slice(0, 10), log);
    demoLeague.ensureSeason();
    for (const id of leagueTables) demoLeague.onTableState(hub.tables.get(id)!.state());
  }
  // Without venue credentials the displays work and nobody can log in to change a match.
  const venueHash = config.venue?.passwordHash ?? hashPasswordSync(randomBytes(24).toString('base64url'));
  const web = await startWeb(hub, config, webPort as number, venueHash);
  if (!web.ok) {
    io.stderr(`start: ${web.error}\n`);
    await hub.stop();
    return 1;
  }

  const simulated = config.tables.filter((t) => t.source.type === 'simulator').length;
  io.stdout(
    [
      '',
      `Billiards scoring hub '${config.hub.id}' is running.`,
      `  MQTT broker:     ${hub.mqttUrl}${process.env.MQTT_URL ? ' (external)' : ` (embedded; WebSocket ${hub.mqttWsUrl})`}`,
      ...web.lines,
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
async function startWeb(hub: Hub, config: HubConfig, port: number, venueHash: string): Promise<{ ok: true; lines: string[]; stop: () => Promise<void> } | { ok: false; error: string }> {
  const panel = createWebPanel({
    mqtt: hub.panelMqtt(`billiards-web-${config.hub.id}-${process.pid}`),
    baseTopic: config.hub.baseTopic,
    host: process.env.HOST ?? '127.0.0.1',
    port,
    venue: { username: config.venue?.username ?? 'referee', passwordHash: venueHash },
    health: () => hub.health(),
    trustProxy: process.env.TRUST_PROXY === '1',
    // Logins outlive a restart: session ids are signed with a key kept in DATA_DIR.
    sessionKey: Buffer.from(persistentSecret(resolve(process.env.DATA_DIR ?? 'data'), 'session.key', undefined, 43), 'base64url'),
  });
  panel.app.get('/metrics', (c) => c.text(hub.metrics(), 200, { 'content-type': 'text/plain; version=0.0.4' }));
  try {
    const { url } = await panel.start();
    const lines = [`  Venue overview:  ${url}/`, ...config.tables.map((t) => `  ${t.id.padEnd(14)}   ${url}/tables/${t.id}   (referee: ${url}/referee/${t.id})`), `  Metrics:         ${url}/metrics`];
    return { ok: true, lines, stop: () => panel.stop() };
  } catch (e) {
    return { ok: false, error: `${(e as Error).message} (set PORT to another port)` };
  }
}
