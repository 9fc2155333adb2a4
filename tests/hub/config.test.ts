import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../hub/config/load.ts';
import { hashPasswordSync } from '../../hub/ops/password.ts';
import { REPO_ROOT } from '../support/paths.ts';

describe('hub configuration', () => {
  it('the shipped example is refused until its placeholder hashes are replaced, naming each one; then it parses', () => {
    const text = readFileSync(join(REPO_ROOT, 'hub/deploy/hub.example.json'), 'utf8');
    const placeholder = parseConfig(text, 'hub.json');
    expect(placeholder.ok).toBe(false);
    if (!placeholder.ok) {
      expect(placeholder.error).toMatch(/^hub\.json: venue\.passwordHash: .*placeholder.*hash-password.*; broker\.users\[0\]\.passwordHash: not a password hash/);
      expect(placeholder.error).not.toContain('\n');
    }
    const example = JSON.parse(text);
    const hash = hashPasswordSync('a venue password');
    example.venue.passwordHash = hash;
    for (const user of example.broker.users) user.passwordHash = hash;
    const parsed = parseConfig(JSON.stringify(example));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.value.tables.map((t) => t.id)).toEqual(['north-1', 'north-2']);
  });

  it.each([
    ['a password in clear', 'felt-and-chalk-2024', /not a password hash/],
    ['a hash with a placeholder salt and key', 'scrypt$16384$8$1$REPLACE$REPLACE', /salt is not base64/],
    ['a hash with a cost that is not a power of two', `scrypt$1000$8$1$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(32).toString('base64')}`, /cost .* out of range/],
  ])('refuses %s as venue.passwordHash', (_name, hash, message) => {
    const parsed = parseConfig(JSON.stringify({ venue: { passwordHash: hash } }), 'hub.json');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(new RegExp(`^hub\\.json: venue\\.passwordHash: .*${message.source}`));
  });

  it('store.writerThread defaults on, and a value that is not a boolean is refused naming the field', () => {
    const ok = parseConfig('{}', 'hub.json');
    expect(ok.ok && ok.value.store.writerThread).toBe(true);
    const off = parseConfig(JSON.stringify({ store: { writerThread: false } }), 'hub.json');
    expect(off.ok && off.value.store.writerThread).toBe(false);
    const bad = parseConfig(JSON.stringify({ store: { writerThread: 'yes' } }), 'hub.json');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/hub\.json: store\.writerThread: .*expected boolean/);
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
