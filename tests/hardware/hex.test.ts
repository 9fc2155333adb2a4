import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEX_PATH } from '../../hardware/avr-sim/board.ts';
import { hexToProgram, parseIntelHex } from '../../hardware/avr-sim/hex.ts';
import { componentMissing } from '../support/components.ts';

const BUILD = new URL('../../hardware/firmware/build.sh', import.meta.url).pathname;

describe('Intel HEX loader', () => {
  it('loads data records at their addresses', () => {
    const mem = parseIntelHex(':0300100001020CDE\n:00000001FF\n');
    expect([...mem.subarray(0x10, 0x13)]).toEqual([1, 2, 0x0c]);
  });
  it('rejects a bad checksum, a bad length, junk, and a missing EOF record, naming the line', () => {
    expect(() => parseIntelHex(':0300100001020CDF\n:00000001FF\n')).toThrow(/line 1: bad checksum/);
    expect(() => parseIntelHex(':0400100001020CDE\n:00000001FF\n')).toThrow(/line 1: length field/);
    expect(() => parseIntelHex('hello\n')).toThrow(/line 1: not an Intel HEX record/);
    expect(() => parseIntelHex(':0300100001020CDE\n')).toThrow(/missing end-of-file/);
    expect(() => parseIntelHex(':0380000001020C6E\n:00000001FF\n', 0x100)).toThrow(/beyond flash size/);
  });
  it('the committed firmware HEX parses into a program with a reset vector', () => {
    const prog = hexToProgram(readFileSync(DEFAULT_HEX_PATH, 'utf8'));
    expect(prog[0]).toBe(0x940c); // jmp __ctors_end
  });
});

describe('committed firmware build', () => {
  it('rebuilding from source gives byte-identical HEX (not stale)', () => {
    if (componentMissing('avr-gcc (Debian gcc-avr)', existsSync('/usr/bin/avr-gcc'))) return;
    const out = mkdtempSync(join(tmpdir(), 'fw-'));
    try {
      execFileSync(BUILD, [out], { stdio: 'pipe' });
      const fresh = readFileSync(join(out, 'table.hex'));
      const committed = readFileSync(DEFAULT_HEX_PATH);
      expect(fresh.equals(committed), 'hardware/firmware/build/table.hex is stale: run hardware/firmware/build.sh and commit').toBe(true);
      const sym = readFileSync(join(out, 'table.sym'));
      expect(sym.equals(readFileSync(DEFAULT_HEX_PATH.replace(/hex$/, 'sym'))), 'hardware/firmware/build/table.sym is stale: run hardware/firmware/build.sh and commit').toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
