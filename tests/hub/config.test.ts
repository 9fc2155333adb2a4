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

  it('a Firmata board takes switches (debounce, polarity) and no rails by default; a serial board matches its USB serial number', () => {
    const parsed = parseConfig('{"tables":[{"id":"f","source":{"type":"firmata","path":"/dev/ttyUSB0"},"switches":{"debounceMs":20,"inverted":[3]},"skittles":{"3":"king"}},{"id":"s","source":{"type":"serial","match":{"vendorId":"1A86","productId":"7523","serialNumber":"A10KX2"}}}]}', 'hub.json');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.tables[0]).toMatchObject({ rails: {}, switches: { debounceMs: 20, inverted: [3] } });
    expect(parsed.value.tables[1]).toMatchObject({ rails: { '0': 'head', '1': 'foot', '2': 'left', '3': 'right' }, switches: { debounceMs: 10, inverted: [] }, crossRailMs: 4 });
  });

  it('refuses piezo rails on a Firmata board, with the bandwidth arithmetic as the reason', () => {
    const parsed = parseConfig('{"tables":[{"id":"f","source":{"type":"firmata","path":"/dev/ttyUSB0"},"rails":{"0":"head"}}]}', 'hub.json');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(/tables\[0\]\.rails: a Firmata board cannot score piezo rails: .*12 kB\/s, 57,600 baud carries 5\.76 kB\/s/);
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
    ['a switch index out of range', '{"tables":[{"id":"t","source":{"type":"simulator"},"switches":{"inverted":[7]}}]}', /tables\[0\]\.switches\.inverted/],
    ['a bad default match', '{"tables":[{"id":"t","source":{"type":"simulator"},"defaultMatch":{"variant":"x","players":["a"],"target":1}}]}', /tables\[0\]\.defaultMatch\.players/],
  ])('refuses %s with an error naming it', (_name, text, message) => {
    const parsed = parseConfig(text, 'hub.json');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});
