// A worker thread starts without the TypeScript loader that `npm start` gives the main thread
// (`--import tsx`): register it here, then load the worker's entry (workerData.entry).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
