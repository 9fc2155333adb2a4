import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cyclePath, cycles, importGraph, type ImportGraph } from './imports.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The layers (docs/architecture.md), lowest first, and what each may import besides itself.
 * The most specific folder a file lies in is its layer. tests/ is exempt: it may import anything.
 */
export const LAYERS: Record<string, readonly string[]> = {
  // The serial protocol: bytes from a board to typed sensor events. Knows nothing above it.
  'firmware-bridge': [],
  // The rules engine: pure, the game's vocabulary (events, ids, results) everyone shares.
  'hub/rules': [],
  // The camera detector and tracker: pure and browser-safe (frames in, tracker messages out).
  'hub/vision': [],
  // Firmware, AVR harness and table simulator: speak the bridge's protocol, play by the engine's rules, beside the hub.
  hardware: ['firmware-bridge', 'hub/rules', 'hub/vision'],
  // Everything between sensor events and the world (store, MQTT, tables, league, camera).
  hub: ['firmware-bridge', 'hub/rules', 'hub/vision'],
  // The web panel: a client of the hub's contract.
  web: ['hub', 'hub/rules', 'hub/vision'],
  // The composition root: the CLI wires hub, panel and simulated tables together.
  app: ['hub', 'hub/rules', 'hub/vision', 'web', 'hardware', 'firmware-bridge'],
};

function layerOf(file: string): string | null {
  let best: string | null = null;
  for (const layer of Object.keys(LAYERS)) if ((file === layer || file.startsWith(`${layer}/`)) && (!best || layer.length > best.length)) best = layer;
  return best;
}

/** Every import that runs up a layer or sideways into a layer not allowed, as `from → to (layer → layer)`. */
export function layerViolations(graph: ImportGraph): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    if (!from) continue;
    for (const target of targets) {
      const to = layerOf(target);
      if (to === from || (to && LAYERS[from]!.includes(to))) continue;
      out.push(`${file} → ${target} (${from} may not import ${to ?? 'outside the layers'})`);
    }
  }
  return out.sort();
}

describe('layers and cycles (docs/architecture.md)', () => {
  const graph = importGraph(ROOT, Object.keys(LAYERS).filter((l) => !l.includes('/')));

  it('reads the whole source tree', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(graph.get('app/cli.ts')).toContain('hub/ops/log.ts');
    expect(graph.get('app/main.ts')).toEqual(['app/cli.ts']);
  });

  it('no import runs up a layer or sideways into a layer it may not use', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('no import cycle anywhere', () => {
    expect(cycles(graph).map((c) => cyclePath(graph, c))).toEqual([]);
  });

  it('the hub core knows no feature by name: only hub/hub.ts (and the extensions themselves) import hub/extensions/', () => {
    const into = [...graph].filter(([file, targets]) => !file.startsWith('hub/extensions/') && file !== 'hub/hub.ts' && file.startsWith('hub/') && targets.some((t) => t.startsWith('hub/extensions/')));
    expect(into.map(([file]) => file)).toEqual([]);
  });

  it('the bridge session does no I/O of its own: it imports no node: module, transport or timer-owning file', () => {
    const file = 'firmware-bridge/session.ts';
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    const names = importedFiles.map((i) => i.fileName);
    expect(names.length).toBeGreaterThan(3);
    expect(names.filter((n) => n.startsWith('node:') || !n.startsWith('./') || /transport|bridge\.ts/.test(n))).toEqual([]);
  });

  it('hub/vision imports nothing Node and no package: the tracker page loads it in the browser as it is (issue 16)', () => {
    const dir = join(ROOT, 'hub/vision');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('tracker.ts');
    const outside = files.flatMap((f) =>
      ts
        .preProcessFile(readFileSync(join(dir, f), 'utf8'), true, true)
        .importedFiles.map((i) => i.fileName)
        .filter((n) => !/^\.\/[a-z0-9-]+\.ts$/.test(n))
        .map((n) => `${f} → ${n}`),
    );
    expect(outside).toEqual([]);
    // Nor Node's globals (Buffer, process, require, __dirname): the browser has none of them.
    const globals = files.filter((f) => /\b(Buffer|process|require|__dirname|__filename)\b\s*[.(]/.test(readFileSync(join(dir, f), 'utf8').replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')));
    expect(globals).toEqual([]);
  });

  it('the checks catch what they are for (a cycle and an upward import, named by file)', () => {
    const bad: ImportGraph = new Map([
      ['hub/rules/a.ts', ['hub/rules/b.ts']],
      ['hub/rules/b.ts', ['hub/rules/c.ts']],
      ['hub/rules/c.ts', ['hub/rules/a.ts', 'hub/store/x.ts']],
      ['hub/store/x.ts', ['web/index.ts', 'hub/rules/a.ts']],
      ['hardware/sim.ts', ['hub/sources/s.ts', 'firmware-bridge/bridge.ts']],
      ['web/index.ts', ['tests/support/x.ts']],
    ]);
    expect(cycles(bad).map((c) => cyclePath(bad, c))).toEqual(['hub/rules/a.ts → hub/rules/b.ts → hub/rules/c.ts → hub/rules/a.ts']);
    expect(layerViolations(bad)).toEqual([
      'hardware/sim.ts → hub/sources/s.ts (hardware may not import hub)',
      'hub/rules/c.ts → hub/store/x.ts (hub/rules may not import hub)',
      'hub/store/x.ts → web/index.ts (hub may not import web)',
      'web/index.ts → tests/support/x.ts (web may not import outside the layers)',
    ]);
  });
});
