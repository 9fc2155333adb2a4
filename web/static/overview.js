// @ts-check
// Venue overview: the server renders the grid; this swaps it in on every change.
import { live, swap } from './common.js';

const el = document.getElementById('live');
live(`/events?view=overview&lang=${document.documentElement.lang || 'en'}`, { state: (msg) => swap(el, msg.html) });
