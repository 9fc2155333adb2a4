import { existsSync, readFileSync } from 'node:fs';
import type { Hono } from 'hono';
import { etag } from 'hono/etag';
import { fileURLToPath } from 'node:url';
import { jsonError, type Env } from './common.ts';

/**
 * `/static/vision/<name>.js`: the camera detector (hub/vision/, pure TypeScript with no Node
 * API) as browser ES modules, for the tracker page (issue 16: one detector module for the hub
 * and the browser). In the build this folder is dist/hub/vision/, which `npm run build`
 * emits as .js with its relative imports rewritten, and is served as it is. Run from the
 * sources (tsx, the tests) there is only .ts: each module is transpiled once with the
 * `typescript` package (a dev dependency, loaded only then) and kept, so the page always runs
 * the detector the hub runs, with no build step to forget. Only a plain module name in that
 * folder is served: no path, no other folder.
 */
const VISION_DIR = fileURLToPath(new URL('../../hub/vision/', import.meta.url));
const NAME = /^[a-z0-9-]+\.js$/;

const transpiled = new Map<string, string>();

async function moduleSource(name: string): Promise<string | null> {
  const js = `${VISION_DIR}${name}`;
  if (existsSync(js)) return readFileSync(js, 'utf8');
  const ts = js.replace(/\.js$/, '.ts');
  if (!existsSync(ts)) return null;
  const cached = transpiled.get(name);
  if (cached !== undefined) return cached;
  const { default: typescript } = await import('typescript');
  const out = typescript.transpileModule(readFileSync(ts, 'utf8'), {
    fileName: ts,
    compilerOptions: { target: typescript.ScriptTarget.ES2022, module: typescript.ModuleKind.ESNext, rewriteRelativeImportExtensions: true, verbatimModuleSyntax: false },
  }).outputText;
  transpiled.set(name, out);
  return out;
}

export function visionRoutes(app: Hono<Env>): void {
  app.get('/static/vision/:name', etag(), async (c) => {
    const name = c.req.param('name');
    if (!NAME.test(name)) return jsonError(404, `no detector module '${name}'`);
    const source = await moduleSource(name);
    if (source === null) return jsonError(404, `no detector module '${name}'`);
    c.header('Cache-Control', 'no-cache');
    return c.body(source, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });
}
