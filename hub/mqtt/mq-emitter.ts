import { createRequire } from 'node:module';
import { Fifo } from './fifo.ts';

/** What aedes needs of its `mq` (mqemitter's interface). */
export interface MqEmitter {
  readonly length: number;
  current: number;
  concurrency: number;
  on(topic: string, listener: (message: unknown, done: () => void) => void, callback?: () => void): unknown;
  emit(message: { topic: string }, callback?: (error?: Error) => void): unknown;
  removeListener(topic: string, listener: (message: unknown, done: () => void) => void, callback?: () => void): unknown;
  close(callback: () => void): unknown;
}

interface MqEmitterInternals {
  _messageQueue: unknown;
  _messageCallbacks: unknown;
}

/** aedes's own mqemitter (the version it was built with), not one the hub would pin separately. */
const requireFromAedes = createRequire(createRequire(import.meta.url).resolve('aedes'));

/**
 * aedes's message bus with O(1) queues. mqemitter holds the messages over its concurrency
 * limit in two arrays and takes each off with `shift()`, which copies the array once it is
 * long: at flood rates that made draining quadratic (issue 18: 16 % of the CPU). The two
 * arrays are only ever pushed, shifted and measured, so a ring queue stands in for each.
 */
export function createMqEmitter(concurrency: number): MqEmitter {
  const mqemitter = requireFromAedes('mqemitter') as (opts: { concurrency: number; matchEmptyLevels: boolean }) => MqEmitter;
  const mq = mqemitter({ concurrency, matchEmptyLevels: true }); // empty levels: [MQTT-4.7.1-3], as aedes does
  const internals = internalsOf(mq);
  // Checked, not assumed: if a new mqemitter keeps its queue otherwise, the broker still works, just slower.
  if (Array.isArray(internals._messageQueue) && Array.isArray(internals._messageCallbacks) && internals._messageQueue.length === 0) {
    internals._messageQueue = new Fifo();
    internals._messageCallbacks = new Fifo();
  }
  return mq;
}

/** Tells when a message has gone onto the bus: from then on nothing published later overtakes it. */
export interface BusEntry {
  /** `entered` is called once the message carrying this very payload is on the bus. */
  when(payload: Buffer, entered: () => void): void;
}

/**
 * Watches what aedes puts on its bus. aedes numbers a message when it is published but puts it
 * on the bus only after its asynchronous steps (a retained message is stored first), and its
 * bus keeps the order messages come onto it. A message is known by its payload: aedes passes
 * the publisher's Buffer on as it is.
 */
export function watchBusEntry(mq: MqEmitter): BusEntry {
  const waiting = new WeakMap<Buffer, () => void>();
  const emit = mq.emit.bind(mq);
  mq.emit = (message, callback) => {
    const result = emit(message, callback);
    const payload = (message as { payload?: unknown }).payload;
    const entered = Buffer.isBuffer(payload) ? waiting.get(payload) : undefined;
    if (entered) {
      waiting.delete(payload as Buffer);
      entered();
    }
    return result;
  };
  return { when: (payload, entered) => void waiting.set(payload, entered) };
}

/** mqemitter's private queues, which its typings do not declare. */
function internalsOf(mq: MqEmitter): MqEmitterInternals {
  return mq as unknown as MqEmitterInternals; // sound: the queues are checked with Array.isArray / instanceof before use
}

/** True when the emitter's queues are the O(1) ones (a test guards against an mqemitter upgrade). */
export function hasRingQueues(mq: MqEmitter): boolean {
  const internals = internalsOf(mq);
  return internals._messageQueue instanceof Fifo && internals._messageCallbacks instanceof Fifo;
}
