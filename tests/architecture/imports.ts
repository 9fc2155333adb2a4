import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The project's import graph, read with the TypeScript compiler's own pre-processor: every
 * `import … from`, `export … from`, `import('…')` and `import type`, in .ts, .mts and .mjs
 * files. Only relative imports count (packages are not layers). Paths are repository-relative.
 */
export type ImportGraph = Map<string, string[]>;

const SOURCE = /\.(ts|mts|mjs)$/;

function sourcesUnder(root: string, folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      if (entry === 'node_modules' || entry.startsWith('.')) continue;
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (SOURCE.test(entry) && !entry.endsWith('.d.ts')) out.push(relative(root, path));
    }
  };
  walk(join(root, folder));
  return out;
}

export function importGraph(root: string, folders: readonly string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const folder of folders) {
    for (const file of sourcesUnder(root, folder)) {
      const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
      const targets = importedFiles
        .map((i) => i.fileName)
        .filter((name) => name.startsWith('./') || name.startsWith('../'))
        .map((name) => relative(root, resolve(root, dirname(file), name)));
      graph.set(file, [...new Set(targets)]);
    }
  }
  return graph;
}

/** Every import cycle (a strongly connected component of more than one file, or a file importing itself), by Tarjan's algorithm. */
export function cycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) found.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return found;
}

/** One cycle as a readable path `a → b → … → a`: the shortest one through the component's first file. */
export function cyclePath(graph: ImportGraph, component: readonly string[]): string {
  const members = new Set(component);
  const start = component[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const target of graph.get(at) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [at];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start].join(' → ');
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, at);
        queue.push(target);
      }
    }
  }
  return component.join(', ');
}
