import { SerialPortMock } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import { findPort, KNOWN_USB_IDS, SerialTransport } from '../../firmware-bridge/transports/serial.ts';
import { TrackedPortMock } from '../../hardware/avr-sim/serial-link.ts';

afterEach(() => SerialPortMock.binding.reset());

describe('serial transport', () => {
  it('finds the board by USB vendor/product id, case-insensitively', () => {
    const ports = [
      { path: '/dev/ttyS0' },
      { path: '/dev/ttyACM0', vendorId: '2341', productId: '8036' }, // Leonardo: not ours
      { path: '/dev/ttyUSB3', vendorId: '1A86', productId: '7523' },
    ];
    expect(findPort(ports, KNOWN_USB_IDS)).toBe('/dev/ttyUSB3');
    expect(findPort(ports.slice(0, 2), KNOWN_USB_IDS)).toBeNull();
  });

  it('auto-detects among listed ports, opens it, and passes bytes both ways', async () => {
    SerialPortMock.binding.createPort('/dev/ttyOTHER', { vendorId: '0000', productId: '0000' });
    SerialPortMock.binding.createPort('/dev/ttyNANO', { record: true, vendorId: '0403', productId: '6001' });
    const t = new SerialTransport({ SerialPort: TrackedPortMock });
    const conn = await t.connect();
    expect(conn.description).toBe('serial /dev/ttyNANO');
    const got: Buffer[] = [];
    conn.on('data', (d: Buffer) => got.push(d));
    const port = TrackedPortMock.latestOpen()!;
    port.port!.emitData(Buffer.from([1, 2, 3]));
    await conn.write(Buffer.from([9, 8]));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(Buffer.concat(got)).toEqual(Buffer.from([1, 2, 3]));
    expect([...port.port!.recording]).toEqual([9, 8]);
    const closed = new Promise((r) => conn.once('close', r));
    await conn.close();
    expect(await closed).toBeNull();
  });

  it('fails clearly when no known board is plugged in, and validates its options', async () => {
    SerialPortMock.binding.createPort('/dev/ttyOTHER', { vendorId: '0000', productId: '0000' });
    await expect(new SerialTransport({ SerialPort: TrackedPortMock }).connect()).rejects.toThrow(/no table board found/);
    expect(() => new SerialTransport({ path: '' })).toThrow(/"path"/);
    expect(() => new SerialTransport({ baudRate: 0 })).toThrow(/"baudRate"/);
  });
});
