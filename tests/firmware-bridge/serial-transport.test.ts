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

  it('tells two identical boards apart by USB serial number', async () => {
    const ports = [
      { path: '/dev/ttyUSB0', vendorId: '0403', productId: '6001', serialNumber: 'A10KX2' },
      { path: '/dev/ttyUSB1', vendorId: '0403', productId: '6001', serialNumber: 'B77QZ9' },
    ];
    expect(findPort(ports, [{ vendorId: '0403', productId: '6001', serialNumber: 'B77QZ9' }])).toBe('/dev/ttyUSB1');
    expect(findPort(ports, [{ vendorId: '0403', productId: '6001' }])).toBe('/dev/ttyUSB0');
    expect(findPort(ports, [{ vendorId: '0403', productId: '6001', serialNumber: 'nope' }])).toBeNull();
    // The mock binding numbers its ports' serial numbers 1, 2, … from a reset.
    SerialPortMock.binding.reset();
    SerialPortMock.binding.createPort('/dev/ttyFTA', { vendorId: '0403', productId: '6001' });
    SerialPortMock.binding.createPort('/dev/ttyFTB', { record: true, vendorId: '0403', productId: '6001' });
    expect((await TrackedPortMock.list()).map((p) => [p.path, p.serialNumber])).toEqual([['/dev/ttyFTA', '1'], ['/dev/ttyFTB', '2']]);
    const conn = await new SerialTransport({ SerialPort: TrackedPortMock, usbIds: [{ vendorId: '0403', productId: '6001', serialNumber: '2' }] }).connect();
    expect(conn.description).toBe('serial /dev/ttyFTB');
    await conn.close();
    await expect(new SerialTransport({ SerialPort: TrackedPortMock, usbIds: [{ vendorId: '0403', productId: '6001', serialNumber: 'C00000' }] }).connect()).rejects.toThrow(/serial number C00000/);
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
