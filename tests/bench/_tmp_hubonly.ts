import { benchHub } from './hub.ts';
await benchHub(50, 2);
for (let i = 0; i < 3; i++) console.log(JSON.stringify(await benchHub(50, 5)));
console.log(JSON.stringify(await benchHub(500, 3)));
