import { monitorEventLoopDelay } from 'node:perf_hooks';
import { benchHub } from './hub.ts';
const h = monitorEventLoopDelay({ resolution: 1 }); h.enable();
console.log(JSON.stringify(await benchHub(Number(process.env.RATE ?? 50), 6)));
h.disable(); console.log('parent loop delay p50/p99/max ms', h.percentile(50)/1e6, h.percentile(99)/1e6, h.max/1e6);
