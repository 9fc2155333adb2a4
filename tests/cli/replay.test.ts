import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { componentMissing } from '../support/components.ts';
import { subsetMismatch } from '../support/expect-subset.ts';
import { FIXTURE_SCENARIOS_DIR, REPO_ROOT, SCENARIOS_DIR, sharedPresent } from '../support/paths.ts';

/** Runs the replay command exactly as CONTRACT §2 spells it. */
function replay(file: string) {
  const r = spawnSync('npm', ['run', '--silent', 'replay', '--', file], { cwd: REPO_ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function writeLog(lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'replay-'));
  const file = join(dir, 'match.jsonl');
  writeFileSync(file, lines.join('\n'));
  return file;
}

const MATCH = '{"match": {"variant": "three-cushion", "players": ["Ana", "Ben"], "target": 15}}';

/** Replays every `*.jsonl` in a folder and compares with its `*.expected.json` (a subset match). */
function scenarioSuite(dir: string, logs: string[]) {
  it.each(logs)('%s', (log) => {
    const expected = JSON.parse(readFileSync(join(dir, log.replace(/\.jsonl$/, '.expected.json')), 'utf8'));
    const r = replay(join(dir, log));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(subsetMismatch(expected, JSON.parse(r.stdout))).toBeNull();
  });
}

const jsonlIn = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort();

// The repository keeps its own copy, so a clone with nothing beside it tests itself.
describe('the repository\'s scenarios replay to their expected results through the CLI', () => {
  scenarioSuite(FIXTURE_SCENARIOS_DIR, jsonlIn(FIXTURE_SCENARIOS_DIR));
});

describe('shared scenarios replay to their expected results through the CLI', () => {
  const missing = componentMissing('shared/scenarios beside the repository', sharedPresent());
  if (missing) {
    it.skip('../shared/scenarios is not beside this clone', () => {});
  } else {
    scenarioSuite(SCENARIOS_DIR, jsonlIn(SCENARIOS_DIR));
    it('every shared scenario has its copy in tests/fixtures/scenarios', () => {
      const copies = new Set(readdirSync(FIXTURE_SCENARIOS_DIR));
      const missingCopies = readdirSync(SCENARIOS_DIR).filter((f) => !copies.has(f));
      expect(missingCopies).toEqual([]);
    });
  }
});

describe('replay command (CONTRACT §2)', () => {
  it('prints the state for a good log, skipping blank lines and // comments', () => {
    const r = replay(writeLog(['// a comment', '', MATCH, '{"shot": {"events": [{"kind": "ball", "balls": ["white", "red"]}]}}']));
    expect(r.status).toBe(0);
    const state = JSON.parse(r.stdout);
    expect(state).toMatchObject({ variant: 'three-cushion', status: 'playing', turn: 'Ben', prompt: null });
    expect(state.players[0]).toMatchObject({ name: 'Ana', score: 0, innings: 1, highRun: 0, average: 0 });
    expect(state.shots).toEqual([expect.objectContaining({ shooter: 'Ana', points: 0, foul: null, rules: ['TC-1', 'TC-2'], turnPasses: true })]);
  });

  it.each([
    ['an unknown ball id', '{"shot": {"events": [{"kind": "ball", "balls": ["white", "green"]}]}}', /^line 2: shot.events\[0\]: unknown ball 'green'/],
    ['a wrong shooter assertion', '{"shot": {"shooter": "Ben", "events": []}}', /^line 2: shooter: the log says 'Ben' but it is Ana's turn/],
    ['a bad rail', '{"shot": {"events": [{"kind": "cushion", "rail": "top"}]}}', /^line 2: shot.events\[0\].rail: /],
    ['broken JSON', '{"shot": ', /^line 2: not valid JSON/],
    ['a ruling with no prompt', '{"referee": {"ruling": "score"}}', /^line 2: ruling 'score' but no referee prompt is open/],
  ])('exits 2 with "line N: reason" and prints nothing on stdout for %s', (_name, line, message) => {
    const r = replay(writeLog([MATCH, line]));
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('a shot while a prompt is open is an error on its own line', () => {
    const open = '{"shot": {"events": [{"kind": "ball", "balls": ["white", "red"]}, {"kind": "cushion", "rail": "foot"}, {"kind": "cushion", "rail": "left"}, {"kind": "cushion", "rail": "head"}, {"kind": "ball", "balls": ["white", "yellow"]}]}}';
    const r = replay(writeLog([MATCH, open, open]));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^line 3: a shot while a referee prompt is open/);
  });

  it('an unreadable file or a missing argument exits 2', () => {
    expect(replay('/nonexistent/log.jsonl')).toMatchObject({ status: 2, stdout: '' });
    const r = spawnSync('npx', ['tsx', 'app/main.ts', 'replay'], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/usage: replay FILE/);
  });
});
