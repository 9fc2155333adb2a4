import { h, type Html } from '../html.ts';
import { railsSvg } from './svg.ts';
import { SKITTLES } from '../../hub/rules/ids.ts';

/**
 * Impact channels of the board (firmware-bridge/protocol.ts): 0–5 rail piezos, 6 ball
 * contact. Which rail a piezo sits behind is the hub's table configuration (`rails`); the
 * names here are the default wiring. Bed vibration and the skittle switches have no threshold.
 */
export const CHANNELS = [
  { channel: 0, name: 'piezo 0 (head rail)' },
  { channel: 1, name: 'piezo 1 (foot rail)' },
  { channel: 2, name: 'piezo 2 (left rail)' },
  { channel: 3, name: 'piezo 3 (right rail)' },
  { channel: 4, name: 'piezo 4 (left, foot half)' },
  { channel: 5, name: 'piezo 5 (right, foot half)' },
  { channel: 6, name: 'ball contact (click)' },
];

export function hardwareBody(table: string): Html {
  return h`<main class="hw" data-table="${table}">
  <h1>Table ${table} · sensors</h1>
  <div class="hw-grid">
    <section class="card">
      <h2>Live hits</h2>
      <p class="muted">Tap a rail: it lights up as the hit arrives.</p>
      ${railsSvg()}
      <div class="skittle-lights">${SKITTLES.map((k) => h`<span class="sk-light" id="sk-${k}" data-skittle="${k}">${k}</span>`)}</div>
    </section>
    <section class="card">
      <h2>Channels</h2>
      <table class="channels"><thead><tr><th>#</th><th>Sensor</th><th>Last amplitude</th><th>Hits</th></tr></thead>
      <tbody>${CHANNELS.map((c) => h`<tr id="ch-${c.channel}"><td>${c.channel}</td><td>${c.name}</td><td><div class="meter"><div class="bar" id="bar-${c.channel}"></div></div><span class="amp" id="amp-${c.channel}">–</span></td><td class="num" id="hits-${c.channel}">0</td></tr>`)}</tbody></table>
      <p>Bed vibration <span class="meter"><span class="bar" id="bar-vibration"></span></span><span class="amp" id="amp-vibration">–</span></p>
      <h3>Recent sensor events</h3>
      <ol id="sensor-log" class="sensor-log"></ol>
    </section>
    <section class="card">
      <h2>Thresholds</h2>
      <form id="thresholds-form">
        <table class="channels"><thead><tr><th>#</th><th>Sensor</th><th>Threshold (0–255)</th><th>Refractory (ms)</th></tr></thead>
        <tbody>${CHANNELS.map((c) => h`<tr><td>${c.channel}</td><td>${c.name}</td><td><input type="number" name="threshold-${c.channel}" aria-label="Threshold, ${c.name}" min="0" max="255" value="40" required></td><td><input type="number" name="refractory-${c.channel}" aria-label="Refractory time, ${c.name}" min="0" max="7000" value="30" required></td></tr>`)}</tbody></table>
        <button class="btn primary" type="submit">Send to the board</button>
      </form>
    </section>
    <section class="card">
      <h2>Tap test</h2>
      <p class="muted">Tap each rail in turn when asked. The page checks that the hit arrives as that rail (the hub maps piezo channels to rails) and shows the channel it came on.</p>
      <ol id="taptest" class="taptest">${['head', 'foot', 'left', 'right'].map((r) => h`<li data-rail="${r}"><span class="tt-rail">${r} rail</span> <span class="tt-state">not tested</span></li>`)}</ol>
      <div class="row"><button type="button" class="btn primary" id="taptest-start">Start tap test</button></div>
      <p id="taptest-msg" class="big-msg"></p>
    </section>
  </div>
</main>`;
}
