import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

/**
 * `npm run bench:start`: a warm start as an operator makes it (issue 18). `npm start` (npm's
 * own start-up, app/build-if-stale.cjs finding dist/ current, the hub) until `/healthz`
 * answers 200, five times (BENCH_RUNS), the median. The demo venue (no CONFIG), a fresh
 * DATA_DIR each time. dist/ is built first if stale, outside the timing.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * CPU time (user + system) and time spent waiting for a CPU, in ms, of every process in a
 * process group so far (npm, its shell, the hub): what the start cost, whatever the load.
 */
function groupCost(pgid: number): { cpuMs: number; waitMs: number } {
  let cpuMs = 0;
  let waitMs = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ');
      if (Number(fields[2]) !== pgid) continue; // the 5th field: process group
      // utime, stime, and those of its children that ended (the build check, say), in 10 ms ticks.
      cpuMs += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
      waitMs += Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
    } catch {
      // a process that ended meanwhile
    }
  }
  return { cpuMs, waitMs: Math.round(waitMs) };
}

async function oneStart(): Promise<{ healthzMs: number; cpuMs: number; waitMs: number; phases: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const [port, mqttPort, wsPort] = [await freePort(), await freePort(), await freePort()];
  const t0 = performance.now();
  // detached: npm and the hub in a group of their own, stopped together.
  const child = spawn('npm', ['start', '--silent'], {
    cwd: REPO_ROOT,
    detached: true,
    env: { ...process.env, PORT: String(port), MQTT_PORT: String(mqttPort), MQTT_WS_PORT: String(wsPort), DATA_DIR: dataDir, LOG_LEVEL: 'warn', CONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let printedAt = NaN;
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    if (Number.isNaN(printedAt) && out.includes('is running')) printedAt = performance.now() - t0;
  });
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}): ${out}`);
      if (performance.now() - t0 > 30_000) throw new Error(`no /healthz 200 within 30 s: ${out}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status === 200, () => false);
      if (ok) return { healthzMs: performance.now() - t0, ...groupCost(child.pid!), phases: Number.isNaN(printedAt) ? "before the banner" : `banner at ${Math.round(printedAt)} ms` };
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    const stop = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // the group has ended already
      }
    };
    stop('SIGTERM');
    await Promise.race([once(child, 'exit'), new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const build = spawnSync(process.execPath, ['app/build-if-stale.cjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
if (build.status !== 0) throw new Error('the build failed');

const times: number[] = [];
const cpu: number[] = [];
const waits: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const { healthzMs, cpuMs, waitMs, phases } = await oneStart();
  times.push(healthzMs);
  cpu.push(cpuMs);
  waits.push(waitMs);
  console.log(`run ${i + 1}: npm start → /healthz 200 in ${Math.round(healthzMs)} ms; CPU ${cpuMs} ms (npm and the hub), waited for a CPU ${waitMs} ms (${phases})`);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`Warm start, median of ${RUNS}: ${Math.round(median(times))} ms to /healthz 200 (runs ${times.map(Math.round).join(', ')} ms); CPU ${median(cpu)} ms; waited for a CPU ${median(waits)} ms`);
