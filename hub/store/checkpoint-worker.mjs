// Runs SQLite WAL checkpoints on a thread of its own, so that copying the log into the
// database file and its fsync never stall the hub's event loop (plain JS: a worker needs
// no TypeScript loader).
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

const db = new Database(workerData.path);
db.pragma('busy_timeout = 1000');
// A checkpoint reads each page once: no reason to keep them (better-sqlite3's default cache is 16 MB).
db.pragma(`cache_size = -${workerData.cacheKiB}`);
const timer = setInterval(() => {
  try {
    // PASSIVE: copy what no reader needs, never wait for the writer.
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (e) {
    parentPort?.postMessage({ error: String(e) });
  }
}, workerData.everyMs);
parentPort?.on('message', (m) => {
  if (m === 'stop') {
    clearInterval(timer);
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {}
    db.close();
    parentPort?.postMessage('stopped');
  }
});
