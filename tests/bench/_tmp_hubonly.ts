import { benchHub } from './hub.ts';
console.log(JSON.stringify(await benchHub(50, 3)));
for (let i = 0; i < 2; i++) console.log(JSON.stringify(await benchHub(50, 8)));
console.log(JSON.stringify(await benchHub(500, 5)));
