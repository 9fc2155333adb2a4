import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { fuseShot } from '../../hub/camera/fusion.ts';
import { fuseWithTracks } from '../../hub/camera/track-fusion.ts';
import { READINGS, runStream, summarise, type RowSummary, type ShotRecord, type StreamSpec } from '../../hardware/simulator/video/accuracy.ts';

/**
 * `npm run accuracy:vision` (also `npm run accuracy -- vision`): accuracy over rendered
 * physics shots, each read four ways — camera alone (issue 15), sensors alone, and
 * camera + sensors fused (issue 16) by the camera's contacts only and with its paths
 * (track fusion) — from one rendering.
 *
 * VISION_SHOTS   shots per game and frame rate (default 20), in streams of VISION_STREAM
 *                (default 20) match shots from a break
 * VISION_FPS     frame rates (default "30,60"; the same shots at each)
 * VISION_SIZE    frame size (default 640x360: a ball ≈ 11–13 px across)
 * VISION_VARIANTS games (default carom,balkline-47-2,skittles-5,skittles-7-pyramid)
 * VISION_SEED    base seed (default 90210)
 * VISION_WORKERS worker threads (default 1)
 * VISION_OUT     JSONL file: one line per shot and per finished stream, appended as it
 *                goes; run again with the same file to resume (finished streams are kept)
 * VISION_SUMMARY=1 only summarise VISION_OUT
 * VISION_FULL=1  print the wrong decisions in full
 * VISION_FUSION_INPUT=1 keep in each shot's record what fusion was given (sensor shot,
 *                camera shot, ball paths, options, truth), to try fusion again without rendering
 *
 * Only finished streams are counted, and the summary says how many shots that is per row.
 */
interface StreamDone {
  type: 'stream';
  variant: string;
  fps: number;
  stream: number;
  attempt: string;
  shots: number;
}

if (!isMainThread) {
  // Streams come one at a time from the main thread (a shared queue: a worker on 60 fps
  // streams takes fewer of them), and the worker asks for the next when one is done.
  parentPort!.on('message', (spec: StreamSpec | null) => {
    if (spec === null) {
      parentPort!.close();
      return;
    }
    try {
      runStream(spec, (r) => parentPort!.postMessage(r), fuseShot, fuseWithTracks);
      parentPort!.postMessage({ type: 'stream', variant: spec.variant, fps: spec.fps, stream: spec.stream, attempt: spec.attempt, shots: spec.shots } satisfies StreamDone);
    } catch (e) {
      // A defect in one stream is reported and left unfinished (not counted); the others go on.
      parentPort!.postMessage({ type: 'error', stream: `${spec.variant}|${spec.fps}|${spec.stream}`, error: String((e as Error).stack ?? e) });
    }
  });
} else {
  await main();
}

async function main(): Promise<void> {
  const env = (k: string, d: string) => process.env[k] ?? d;
  const shots = Number(env('VISION_SHOTS', '20'));
  const perStream = Number(env('VISION_STREAM', '20'));
  const fpsList = env('VISION_FPS', '30,60').split(',').map(Number);
  const [width, height] = env('VISION_SIZE', '640x360').split('x').map(Number) as [number, number];
  const variants = env('VISION_VARIANTS', 'carom,balkline-47-2,skittles-5,skittles-7-pyramid').split(',');
  const seed = Number(env('VISION_SEED', '90210'));
  const workers = Number(env('VISION_WORKERS', '1'));
  const out = process.env.VISION_OUT;
  for (const [k, v] of [['VISION_SHOTS', shots], ['VISION_STREAM', perStream], ['VISION_SEED', seed], ['VISION_WORKERS', workers], ['width', width], ['height', height], ...fpsList.map((f) => ['VISION_FPS', f] as const)] as const) {
    if (!Number.isInteger(v) || v <= 0) {
      console.error(`${k} must be a positive integer`);
      process.exit(2);
    }
  }
  const records: ShotRecord[] = [];
  const done = new Map<string, StreamDone>();
  const key = (x: { variant: string; fps: number; stream: number }) => `${x.variant}|${x.fps}|${x.stream}`;
  if (out && existsSync(out)) {
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let x: ShotRecord | StreamDone;
      try {
        x = JSON.parse(line) as ShotRecord | StreamDone;
      } catch {
        continue; // a line cut off when a run was stopped
      }
      if (x.type === 'shot') records.push(x);
      else if (x.type === 'stream') done.set(key(x), x);
    }
  }
  if (process.env.VISION_SUMMARY !== '1') {
    // Streams in an order that keeps every row at about the same count whenever the run stops.
    const streams = Math.ceil(shots / perStream);
    const todo: StreamSpec[] = [];
    for (let s = 0; s < streams; s++) for (const variant of variants) for (const fps of fpsList) if (!done.has(key({ variant, fps, stream: s }))) todo.push({ variant, fps, stream: s, shots: Math.min(perStream, shots - s * perStream), seed, width, height, attempt: randomUUID().slice(0, 8) });
    console.error(`${todo.length} streams to run (${done.size} already done) on ${workers} worker(s), ${width}x${height}`);
    const onMessage = (x: ShotRecord | StreamDone | { type: 'error'; stream: string; error: string }) => {
      if (x.type === 'error') {
        console.error(`stream ${x.stream} failed (not counted): ${x.error}`);
        return;
      }
      if (out) appendFileSync(out, `${JSON.stringify(x)}\n`);
      if (x.type === 'shot') records.push(x);
      else {
        done.set(key(x), x);
        console.error(`done ${key(x)} (${done.size} streams)`);
      }
    };
    const n = Math.min(workers, todo.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: n }, () =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(new URL('./ts-worker.mjs', import.meta.url), { workerData: { entry: import.meta.url } });
          const feed = () => worker.postMessage(next < todo.length ? todo[next++]! : null);
          worker.on('message', (x: Parameters<typeof onMessage>[0]) => {
            onMessage(x);
            if (x.type !== 'shot') feed();
          });
          worker.on('error', reject);
          worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker exited with ${code}`))));
          feed();
        }),
      ),
    );
  }
  // Count only finished streams, each with the records of the attempt that finished it.
  const finished = records.filter((r) => done.get(key(r))?.attempt === r.attempt);
  printTables(summarise(finished), seed, width, height);
}

function printTables(rows: RowSummary[], seed: number, width: number, height: number): void {
  const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '–');
  const pr = (c: { truth: number; found: number; matched: number } | undefined) => (c ? `${pct(c.matched, c.found)} / ${pct(c.matched, c.truth)}` : '–');
  console.log(`\nRendered physics shots, ${width}x${height}, seed ${seed}; only finished streams counted.\n`);
  for (const reading of READINGS) {
    const title = { camera: 'Camera alone', sensors: 'Sensors alone', contacts: 'Camera + sensors, contacts only (fusion.ts)', fused: 'Camera + sensors, with the paths (track-fusion.ts)' }[reading];
    console.log(`### ${title}\n`);
    if (reading === 'sensors') {
      console.log('| game | fps | shots | correct | prompted | **wrong** | prompts /100 | truth offered first |');
      console.log('|---|---|---|---|---|---|---|---|');
    } else {
      const extra = reading === 'camera' ? ' rest position mean / p99 (placed, left out) |' : ' **wrong facts** |';
      console.log(`| game | fps | shots | exact sequence | ball P / R | cushion P / R | skittle P / R | null facts | correct | prompted | **wrong** | prompts /100 | truth offered first |${extra}`);
      console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    }
    for (const r of rows) {
      const d = r.decisions[reading];
      // Of the prompts with options (a camera that sent no shot prompts with none), how many offered the truth first.
      const f = r.offeredFirst[reading];
      const tail = `${d.correct} | ${d.prompted} | **${d.wrong}** | ${((100 * d.prompted) / r.shots).toFixed(1)} | ${f.prompts ? `${pct(f.first, f.prompts)} (${f.first} of ${f.prompts})` : '–'} |`;
      if (reading === 'sensors') console.log(`| ${r.variant} | ${r.fps} | ${r.shots} | ${tail}`);
      else {
        const k = r.kinds[reading];
        // Wrong facts: ids stated against the truth (fused readings only; records from before the count show –).
        const facts = r.wrongFacts.shots === 0 ? '–' : `**${r.wrongFacts[reading as 'contacts' | 'fused']}**${r.wrongFacts.shots < r.shots ? ` (of ${r.wrongFacts.shots} shots)` : ''}`;
        const pos = reading === 'camera' ? ` ${r.positionMean.toFixed(1)} / ${r.positionP99.toFixed(1)} mm (${r.positions}, ${r.positionsOmitted}) |` : ` ${facts} |`;
        console.log(`| ${r.variant} | ${r.fps} | ${r.shots} | ${pct(r.exact[reading], r.shots)} | ${pr(k.ball)} | ${pr(k.cushion)} | ${pr(k.skittle)} | ${r.nullFacts[reading]} | ${tail}${pos}`);
      }
    }
    console.log('');
  }
  for (const r of rows) console.log(`${r.variant} ${r.fps} fps: ${r.frames} frames, render ${(r.renderMs / r.frames).toFixed(1)} ms/frame, track ${(r.trackMs / r.frames).toFixed(2)} ms/frame`);
  for (const r of rows) for (const w of r.wrong) console.log(`  wrong (${r.variant} ${r.fps}): ${process.env.VISION_FULL ? w : w.slice(0, 400)}`);
}
