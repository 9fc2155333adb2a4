import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../hub/config/load.ts';
import { REPO_ROOT } from '../support/paths.ts';

describe('hub configuration', () => {
  it('the shipped example parses (password hashes aside, they are placeholders)', () => {
    const parsed = parseConfig(readFileSync(join(REPO_ROOT, 'hub/deploy/hub.example.json'), 'utf8'));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.value.tables.map((t) => t.id)).toEqual(['north-1', 'north-2']);
  });

  it('takes a board behind a serial server (ser2net) with its serial baud rate defaulted', () => {
    const parsed = parseConfig('{"tables":[{"id":"t","source":{"type":"tcp","host":"10.0.0.7","port":4001}}]}', 'hub.json');
    expect(parsed.ok && parsed.value.tables[0]!.source).toEqual({ type: 'tcp', host: '10.0.0.7', port: 4001, baudRate: 115200 });
  });

  it.each([
    ['not JSON', '{', /not valid JSON/],
    ['an unknown field', '{"tabels": []}', /unknown field 'tabels'/],
    ['a bad channel', '{"tables":[{"id":"t","source":{"type":"serial","path":"/dev/x"},"rails":{"7":"head"}}]}', /tables\[0\]\.rails\.7/],
    ['a bad rail', '{"tables":[{"id":"t","source":{"type":"serial","path":"/dev/x"},"rails":{"0":"top"}}]}', /tables\[0\]\.rails\.0/],
    ['a serial source with neither path nor match', '{"tables":[{"id":"t","source":{"type":"serial"}}]}', /give a path or a USB match/],
    ['a duplicate table id', '{"tables":[{"id":"t","source":{"type":"simulator"}},{"id":"t","source":{"type":"simulator"}}]}', /tables\[1\]\.id: 't' is used twice/],
    ['a serial server without a port', '{"tables":[{"id":"t","source":{"type":"tcp","host":"ser2net.local"}}]}', /tables\[0\]\.source\.port/],
    ['an unknown status-frame policy', '{"store":{"statusFrames":"sometimes"}}', /store\.statusFrames/],
    ['a keep-alive under a second', '{"store":{"statusFrames":"changes","keepAliveMs":10}}', /store\.keepAliveMs/],
    ['a bad default match', '{"tables":[{"id":"t","source":{"type":"simulator"},"defaultMatch":{"variant":"x","players":["a"],"target":1}}]}', /tables\[0\]\.defaultMatch\.players/],
  ])('refuses %s with an error naming it', (_name, text, message) => {
    const parsed = parseConfig(text, 'hub.json');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});
