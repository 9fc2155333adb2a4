import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

type SqlValue = string | number | null;

/** One group commit: the rows' columns row after row, and the drop counters to add. */
export interface WriterBatch {
  values: SqlValue[];
  rows: number;
  drops: Map<string, Map<string, number>>;
}

/**
 * A group's rows for the hand-over: the text columns (table, kind, body, at) as one string and
 * their lengths, the numeric ones (match, hub time, board µs, seq, ref; NaN for null) as
 * numbers — two buffers moved, not copied, and one string. Cloning the rows as an array of
 * values cost the hub thread more than the insert it saved (a profile of a flood: 4.3 µs a row).
 * The worker unpacks them (writer-worker.mjs, unpackRows).
 */
export function packRows(values: readonly SqlValue[], rows: number, width: number): { text: string; lengths: Int32Array<ArrayBuffer>; numbers: Float64Array<ArrayBuffer> } {
  const parts = new Array<string>(rows * TEXT_COLUMNS.length);
  const lengths = new Int32Array(rows * TEXT_COLUMNS.length);
  const numbers = new Float64Array(rows * NUMBER_COLUMNS.length);
  for (let r = 0, t = 0, n = 0; r < rows; r++) {
    const row = r * width;
    for (const c of TEXT_COLUMNS) {
      const v = values[row + c] as string;
      parts[t] = v;
      lengths[t++] = v.length;
    }
    for (const c of NUMBER_COLUMNS) {
      const v = values[row + c];
      numbers[n++] = v === null ? NaN : (v as number);
    }
  }
  return { text: parts.join(''), lengths, numbers };
}

/** Columns of a log row (event-store.ts ROW_COLUMNS: table_id, match_id, kind, body, hub_time, board_us, seq, at, ref) by type. */
export const TEXT_COLUMNS = [0, 2, 3, 7] as const;
export const NUMBER_COLUMNS = [1, 4, 5, 6, 8] as const;

/** What the writer thread posts: that it is up, a batch's answer (by its number), or that it stopped. */
type WriterMessage = { ready?: boolean; seq?: number; lastId?: number | null; error?: { message: string; code: string }; stopped?: boolean };

/** How a batch ended: committed (the id of its last row, null with none), or not at all. */
export type WriterAnswer = { ok: true; lastId: number | null } | { ok: false; message: string; code: string };

export interface StoreWriterOptions {
  path: string;
  cacheKiB: number;
  /** `INSERT INTO log (…) VALUES ` and one row's `(?, …)`: the worker joins n of them. */
  rowSql: { head: string; row: string };
  rowWidth: number;
  rowsPerInsert: number;
  dropsSql: string;
  /** The thread is up (its connection open): batches sent from now on are taken at once. */
  onReady?: () => void;
  /** Each batch's answer, in the order sent, on the hub thread. */
  onAnswer: (answer: WriterAnswer) => void;
  /** The thread failed or ended unasked: batches not answered are the caller's to settle. */
  onLost: (error: Error) => void;
}

/**
 * The store's writer thread (writer-worker.mjs): batches go over a message port and are
 * answered over it, in order. `waitAll` blocks the hub thread until every batch sent is
 * answered (Atomics.wait on a counter the worker bumps after each), for a synchronous write
 * that must come after them in the log.
 */
export class StoreWriter {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly committed = new Int32Array(new SharedArrayBuffer(4));
  private sent = 0;
  private answered = 0;
  private stopping = false;
  private lost = false;
  private up = false;

  constructor(private readonly options: StoreWriterOptions) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(new URL('./writer-worker.mjs', import.meta.url), {
      workerData: { path: options.path, cacheKiB: options.cacheKiB, port: port2, committed: this.committed, rowSql: options.rowSql, rowWidth: options.rowWidth, rowsPerInsert: options.rowsPerInsert, dropsSql: options.dropsSql, textColumns: TEXT_COLUMNS, numberColumns: NUMBER_COLUMNS },
      transferList: [port2],
    });
    this.worker.unref();
    this.port.unref();
    this.port.on('message', (m: WriterMessage) => this.take(m));
    const lose = (error: Error) => {
      if (this.stopping || this.lost) return;
      this.lost = true;
      // Answers already on their way are taken before the caller settles the rest.
      this.drain();
      this.options.onLost(error);
    };
    this.worker.on('error', lose);
    this.worker.on('exit', (code) => lose(new Error(`the store's writer thread exited (code ${code})`)));
  }

  /**
   * The thread has opened the store and takes batches. Before it, a batch would wait for the
   * thread to start (loading better-sqlite3, opening the file: 50–60 ms seen at a flood's start,
   * the hub thread blocked in `waitAll` for a shot's append all that time).
   */
  get ready(): boolean {
    return this.up && !this.lost;
  }

  /** Batches sent and not yet answered. */
  get inFlight(): number {
    return this.sent - this.answered;
  }

  send(batch: WriterBatch): void {
    this.sent += 1;
    const { text, lengths, numbers } = packRows(batch.values, batch.rows, this.options.rowWidth);
    this.port.postMessage({ seq: this.sent, text, lengths, numbers, rows: batch.rows, drops: batch.drops }, [lengths.buffer, numbers.buffer]);
  }

  /**
   * Blocks until every batch sent is answered, and hands the answers over (in order) before it
   * returns. Throws when the thread does not answer within `timeoutMs` (its batches stay in
   * flight, answered later if it ever does: never written twice).
   */
  waitAll(timeoutMs = 10_000): void {
    const until = performance.now() + timeoutMs;
    for (let c = Atomics.load(this.committed, 0); c < this.sent && !this.lost; c = Atomics.load(this.committed, 0)) {
      const left = until - performance.now();
      if (left <= 0 || Atomics.wait(this.committed, 0, c, left) === 'timed-out') throw new Error(`the store's writer thread did not answer within ${timeoutMs} ms`);
    }
    this.drain();
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (!this.lost) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2000);
        this.port.on('message', (m: WriterMessage) => m.stopped && (clearTimeout(timer), resolve()));
        this.port.postMessage({ stop: true });
      });
    }
    this.port.close();
    await this.worker.terminate();
  }

  /** Answers already posted, taken now rather than at the event loop's next turn. */
  private drain(): void {
    for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) this.take(m.message);
  }

  private take(m: WriterMessage): void {
    if (m.ready) {
      this.up = true;
      this.options.onReady?.();
      return;
    }
    if (m.seq === undefined) return;
    this.answered = m.seq;
    this.options.onAnswer(m.error ? { ok: false, message: m.error.message, code: m.error.code } : { ok: true, lastId: m.lastId ?? null });
  }
}
