// The group commits of the sensor stream, on a thread of their own (EventStore's
// `writeInWorker`): binding and inserting the rows and the transaction's commit were about a
// sixth of the hub thread's busy time in a flood (issue 18). Each batch is one transaction, in
// the order sent; the answer names it (and the last row id, or the error), and `committed[0]`
// then holds its number, so the hub thread can also wait for it without its event loop (a
// synchronous append that must follow the rows queued before it). Plain JS: a worker needs no
// TypeScript loader.
import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';

const { path, cacheKiB, port, committed, rowSql, rowWidth, rowsPerInsert, dropsSql, textColumns, numberColumns } = workerData;
const db = new Database(path);
// The hub thread's connection made the file WAL (a setting of the file); these are per connection.
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma(`cache_size = -${cacheKiB}`);

const statements = new Map();
const insertRows = (n) => {
  let statement = statements.get(n);
  if (!statement) statements.set(n, (statement = db.prepare(`${rowSql.head}${new Array(n).fill(rowSql.row).join(', ')}`)));
  return statement;
};
const insertDrops = db.prepare(dropsSql);
const group = db.transaction((values, rows, drops) => {
  let lastId = null;
  for (let from = 0; from < rows; from += rowsPerInsert) {
    const n = Math.min(rowsPerInsert, rows - from);
    lastId = Number(insertRows(n).run(n === rows ? values : values.slice(from * rowWidth, (from + n) * rowWidth)).lastInsertRowid);
  }
  for (const [table, bySource] of drops) for (const [source, count] of bySource) insertDrops.run(table, source, count);
  return lastId;
});

/** The rows' values, row after row, from what store-writer.ts packRows sent. */
function unpackRows(m) {
  const values = new Array(m.rows * rowWidth);
  let at = 0;
  for (let r = 0, t = 0, n = 0; r < m.rows; r++) {
    const row = r * rowWidth;
    for (const c of textColumns) {
      const length = m.lengths[t++];
      values[row + c] = m.text.slice(at, at + length);
      at += length;
    }
    for (const c of numberColumns) {
      const v = m.numbers[n++];
      values[row + c] = Number.isNaN(v) ? null : v;
    }
  }
  return values;
}

// Up: from now on the hub thread may hand groups over (until then it commits them itself, so a
// flood's first shot never waits for this thread to load SQLite and open the file).
port.postMessage({ ready: true });

port.on('message', (m) => {
  if (m.stop) {
    db.close();
    port.postMessage({ stopped: true });
    port.close();
    return;
  }
  let reply;
  try {
    reply = { seq: m.seq, lastId: group(unpackRows(m), m.rows, m.drops) };
  } catch (e) {
    reply = { seq: m.seq, error: { message: String(e?.message ?? e), code: String(e?.code ?? '') } };
  }
  // The answer first, then the number: a hub thread woken by the number finds the answer.
  port.postMessage(reply);
  Atomics.store(committed, 0, m.seq);
  Atomics.notify(committed, 0);
});
