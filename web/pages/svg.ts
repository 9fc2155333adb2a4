import { gameEntry } from '../../hub/rules/catalogue.ts';
import { html } from 'hono/html';
import type { Html } from './layout.ts';
import type { LooseEvent } from './shot-event.ts';
import { messages, named, type Messages } from '../i18n.ts';

const EN = messages('en');

/** SVG pictures: the last shot's timeline and the skittles. Server-rendered, no script needed. */


const LANES = [
  { key: 'cushion', label: (m: Messages) => m.railsRow },
  { key: 'ball', label: (m: Messages) => m.ballsRow },
  { key: 'skittle', label: (m: Messages) => m.skittlesRow },
  { key: 'other', label: (m: Messages) => m.laneOther },
] as const;

function lane(kind: unknown): (typeof LANES)[number]['key'] {
  return kind === 'cushion' || kind === 'ball' || kind === 'skittle' ? kind : 'other';
}

function label(e: LooseEvent, m: Messages): string {
  const s = (v: unknown) => (typeof v === 'string' ? v : '?');
  switch (e.kind) {
    case 'cushion':
      return named(m.railShort, s(e.rail));
    case 'ball':
      return Array.isArray(e.balls) ? e.balls.map((b) => (typeof b === 'string' ? named(m.ballShort, b) : '?')).join('–') : m.contact;
    case 'skittle':
      return named(m.skittleShort, s(e.skittle));
    case 'foul':
      return m.evFoul(named(m.foul, s(e.foul)));
    default:
      return typeof e.kind === 'string' ? e.kind : 'event';
  }
}

/** The last shot as a timeline: one lane per kind of event, markers at their times `t` (ms). */
export function timelineSvg(events: readonly unknown[], shape: 'wide' | 'narrow' = 'wide', empty = 'No shot yet', m: Messages = EN): Html {
  const narrow = shape === 'narrow';
  const list = events.filter((e): e is LooseEvent => typeof e === 'object' && e !== null);
  const W = narrow ? 1000 : 2000;
  const left = narrow ? 150 : 170;
  const right = 60;
  const laneH = 92;
  // Only the lanes this shot has (rails and balls always, for a stable picture).
  const used = LANES.filter((l) => l.key === 'cushion' || l.key === 'ball' || list.some((e) => lane(e.kind) === l.key));
  const H = 40 + used.length * laneH + 44;
  if (list.length === 0) {
    return html`<svg class="timeline-svg ${shape}" viewBox="0 0 ${W} 160" role="img" aria-label="${empty}"><text x="${W / 2}" y="90" text-anchor="middle" class="tl-empty">${empty}</text></svg>`;
  }
  const times = list.map((e) => (typeof e.t === 'number' && Number.isFinite(e.t) ? e.t : null));
  const known = times.filter((t): t is number => t !== null);
  const timed = known.length === list.length;
  const maxT = timed ? Math.max(1, ...known) : list.length;
  const x = (i: number) => left + ((timed ? times[i]! : i + 0.5) / maxT) * (W - left - right - 20) + 10;
  const ticks: Html[] = [];
  if (timed) {
    const step = niceStep(maxT / (narrow ? 3 : 6));
    for (let t = 0; t <= maxT + 1e-9; t += step) {
      const px = left + (t / maxT) * (W - left - right - 20) + 10;
      ticks.push(html`<line x1="${px}" y1="34" x2="${px}" y2="${H - 30}" class="tl-grid"/><text x="${px}" y="${H - 6}" text-anchor="middle" class="tl-tick">${(t / 1000).toFixed(step < 100 ? 2 : 1)} s</text>`);
    }
  }
  const lanesSvg = used.map((l, li) => {
    const y = 40 + li * laneH + laneH / 2;
    return html`<g class="tl-lane tl-${l.key}"><line x1="${left}" y1="${y}" x2="${W - right}" y2="${y}" class="tl-axis"/><text x="${left - 16}" y="${y + 8}" text-anchor="end" class="tl-label">${l.label(m)}</text></g>`;
  });
  // Labels go above or below the lane, wherever they do not run into the last one on that
  // side; when both sides are taken the label moves right of the last one (never on top).
  const CHAR = 18; // px per character at the label size
  const lastEnd = new Map<string, number>();
  const marks = list.map((e, i) => {
    const key = lane(e.kind);
    const li = used.findIndex((l) => l.key === key);
    const y = 40 + li * laneH + laneH / 2;
    const px = x(i);
    const text = label(e, m);
    const width = text.length * CHAR;
    const anchor = px > W - right - 140 ? 'end' : px < left + 100 ? 'start' : 'middle';
    let lx = anchor === 'end' ? px + 14 : anchor === 'start' ? px - 14 : px;
    const start = () => (anchor === 'end' ? lx - width : anchor === 'start' ? lx : lx - width / 2);
    const free = (side: string) => (lastEnd.get(`${key}:${side}`) ?? -Infinity) + 8 <= start();
    const side = free('up') ? 'up' : free('down') ? 'down' : (lastEnd.get(`${key}:up`) ?? 0) <= (lastEnd.get(`${key}:down`) ?? 0) ? 'up' : 'down';
    let textAnchor: string = anchor;
    if (!free(side)) {
      lx = (lastEnd.get(`${key}:${side}`) ?? 0) + 8;
      textAnchor = 'start';
    }
    const begin = textAnchor === 'start' ? lx : textAnchor === 'end' ? lx - width : lx - width / 2;
    lastEnd.set(`${key}:${side}`, begin + width);
    const up = side === 'up';
    return html`<g class="tl-mark tl-${key}"><circle cx="${px}" cy="${y}" r="13"/><text x="${lx}" y="${up ? y - 20 : y + 40}" text-anchor="${textAnchor}">${text}</text></g>`;
  });
  return html`<svg class="timeline-svg ${shape}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${m.timelineAria}">${ticks}${lanesSvg}${marks}${timed ? '' : html`<text x="${W - right}" y="${H - 6}" text-anchor="end" class="tl-tick">${m.orderOnly}</text>`}</svg>`;
}

function niceStep(raw: number): number {
  const pow = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  for (const m of [1, 2, 5, 10]) if (m * pow >= raw) return m * pow;
  return 10 * pow;
}

/** Skittle layouts in mm from the centre spot (illustrative: head toward the head rail). */
const SKITTLE_POS: Record<string, [number, number]> = {
  king: [0, 0],
  head: [-120, 0],
  foot: [120, 0],
  left: [0, -120],
  right: [0, 120],
  spot1: [-360, 0],
  spot3: [360, 0],
};

/** The table from above with its skittles; fallen ones drawn knocked over and marked. */
export function skittlesSvg(variant: string, fallen: ReadonlySet<string>, m: Messages = EN): Html {
  const game = gameEntry(variant);
  const names = game?.layout ? game.skittles : Object.keys(SKITTLE_POS);
  const W = 1400;
  const Hh = 460;
  const cx = W / 2;
  const cy = Hh / 2;
  // The five-skittle cross is drawn a little larger: it has no spot skittles to make room for.
  const k = game?.layout === 'carom-five' ? 1.2 : 1.1;
  const pins = names.map((n) => {
    const [dx, dy] = SKITTLE_POS[n]!;
    const x = cx + dx * k;
    const y = cy + dy * k;
    const down = fallen.has(n);
    const r = n === 'king' ? 36 : 30;
    return html`<g class="pin ${down ? 'down' : 'up'}"><circle cx="${x}" cy="${y}" r="${r}"/>${down ? html`<path d="M${x - r * 0.6} ${y - r * 0.6} L${x + r * 0.6} ${y + r * 0.6} M${x + r * 0.6} ${y - r * 0.6} L${x - r * 0.6} ${y + r * 0.6}" class="x"/>` : ''}<text x="${x}" y="${y + r + 32}" text-anchor="middle">${named(m.skittleShort, n)}</text></g>`;
  });
  return html`<svg class="skittles-svg" viewBox="0 0 ${W} ${Hh}" role="img" aria-label="${m.skittlesAria(fallen.size)}"><rect x="10" y="10" width="${W - 20}" height="${Hh - 20}" rx="24" class="cloth"/><text x="34" y="${cy + 8}" class="rail-name">${m.railShort.head}</text><text x="${W - 34}" y="${cy + 8}" text-anchor="end" class="rail-name">${m.railShort.foot}</text>${pins}</svg>`;
}

/** A table outline whose rails light up (hardware page); ids `rail-<name>` for the script. */
export function railsSvg(m: Messages = EN): Html {
  return html`<svg class="rails-svg" viewBox="0 0 1000 540" role="img" aria-label="${m.railsAria}">
<rect x="60" y="60" width="880" height="420" rx="10" class="cloth"/>
<rect id="rail-left" data-rail="left" x="60" y="16" width="880" height="40" rx="8" class="rail"/>
<rect id="rail-right" data-rail="right" x="60" y="484" width="880" height="40" rx="8" class="rail"/>
<rect id="rail-head" data-rail="head" x="16" y="60" width="40" height="420" rx="8" class="rail"/>
<rect id="rail-foot" data-rail="foot" x="944" y="60" width="40" height="420" rx="8" class="rail"/>
<text x="500" y="46" text-anchor="middle" class="rail-name">${m.railShort.left}</text>
<text x="500" y="514" text-anchor="middle" class="rail-name">${m.railShort.right}</text>
<text x="42" y="275" text-anchor="middle" class="rail-name vertical">${m.railShort.head}</text>
<text x="962" y="275" text-anchor="middle" class="rail-name vertical">${m.railShort.foot}</text>
<circle id="ball-click" cx="500" cy="270" r="46" class="click"/>
<text x="500" y="280" text-anchor="middle" class="click-label">${m.click}</text>
</svg>`;
}
