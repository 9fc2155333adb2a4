// A worker thread that runs a TypeScript module: Node's workers do not inherit tsx's loader.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
