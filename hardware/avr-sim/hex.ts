/**
 * Intel HEX loader for avr8js (which has none). Validates every record's checksum and
 * throws with the line number on malformed input.
 */
export function parseIntelHex(text: string, size = 0x8000): Uint8Array {
  const mem = new Uint8Array(size);
  let base = 0;
  let sawEof = false;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const where = `HEX line ${i + 1}`;
    if (sawEof) throw new Error(`${where}: data after end-of-file record`);
    if (!/^:([0-9A-Fa-f]{2})+$/.test(line)) throw new Error(`${where}: not an Intel HEX record`);
    const bytes = Buffer.from(line.slice(1), 'hex');
    const len = bytes[0]!;
    if (bytes.length !== len + 5) throw new Error(`${where}: length field ${len} does not match record`);
    let sum = 0;
    for (const b of bytes) sum = (sum + b) & 0xff;
    if (sum !== 0) throw new Error(`${where}: bad checksum`);
    const addr = (bytes[1]! << 8) | bytes[2]!;
    const type = bytes[3]!;
    const data = bytes.subarray(4, 4 + len);
    switch (type) {
      case 0: {
        const at = base + addr;
        if (at + len > size) throw new Error(`${where}: data at 0x${at.toString(16)} beyond flash size`);
        mem.set(data, at);
        break;
      }
      case 1:
        sawEof = true;
        break;
      case 2:
        base = ((data[0]! << 8) | data[1]!) * 16;
        break;
      case 4:
        base = ((data[0]! << 8) | data[1]!) << 16;
        break;
      case 3:
      case 5:
        break; // start address records: irrelevant for AVR
      default:
        throw new Error(`${where}: unknown record type ${type}`);
    }
  }
  if (!sawEof) throw new Error('HEX: missing end-of-file record');
  return mem;
}

/** Flash bytes as the 16-bit words avr8js's CPU expects. */
export function hexToProgram(text: string, flashBytes = 0x8000): Uint16Array {
  const bytes = parseIntelHex(text, flashBytes);
  return new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
}
