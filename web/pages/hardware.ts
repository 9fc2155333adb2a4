import { html } from 'hono/html';
import type { Html } from './layout.ts';
import { railsSvg } from './svg.ts';
import { SKITTLES } from '../../hub/rules/ids.ts';
import { messages, named, type Messages } from '../i18n.ts';

/**
 * Impact channels of the board (firmware-bridge/protocol.ts): 0–5 rail piezos, 6 ball
 * contact. Which rail a piezo sits behind is the hub's table configuration (`rails`); the
 * names here are the default wiring. Bed vibration and the skittle switches have no threshold.
 */
export const CHANNELS = [0, 1, 2, 3, 4, 5, 6] as const;

/**
 * A channel's name: the rail the table's config puts it behind (`rails`, published in the table
 * state), "not wired" for a piezo channel it leaves out; the default wiring before the hub has said.
 */
function channelNameOf(channel: number, m: Messages, rails: Readonly<Record<string, string>> | null): string {
  if (channel === 6) return m.hwClick;
  if (rails) {
    const rail = rails[String(channel)];
    return m.hwPiezo(channel, rail ? named(m.rail, rail) : m.hwUnwired);
  }
  const where = [m.rail.head, m.rail.foot, m.rail.left, m.rail.right, m.hwLeftFootHalf, m.hwRightFootHalf][channel];
  return where ? m.hwPiezo(channel, where) : m.hwClick;
}

export function hardwareBody(table: string, name: string, m: Messages = messages('en'), rails: Readonly<Record<string, string>> | null = null): Html {
  const channelName = (c: number, mm: Messages) => channelNameOf(c, mm, rails);
  return html`<main class="hw" data-table="${table}">
  <h1>${m.hwTitle(name)}</h1>
  <p id="scoring-mode" class="muted" hidden></p>
  <div class="hw-grid">
    <section class="card">
      <h2>${m.hwLiveHits}</h2>
      <p class="muted">${m.hwTapHint}</p>
      ${railsSvg(m)}
      <div class="skittle-lights">${SKITTLES.map((k) => html`<span class="sk-light" id="sk-${k}" data-skittle="${k}">${named(m.skittle, k)}</span>`)}</div>
    </section>
    <section class="card">
      <h2>${m.hwChannels}</h2>
      <table class="channels"><thead><tr><th>#</th><th>${m.hwSensor}</th><th>${m.hwLastAmplitude}</th><th>${m.hwHits}</th></tr></thead>
      <tbody>${CHANNELS.map((c) => html`<tr id="ch-${c}"><td>${c}</td><td>${channelName(c, m)}</td><td><div class="meter"><div class="bar" id="bar-${c}"></div></div><span class="amp" id="amp-${c}">–</span></td><td class="num" id="hits-${c}">0</td></tr>`)}</tbody></table>
      <p>${m.hwVibration} <span class="meter"><span class="bar" id="bar-vibration"></span></span><span class="amp" id="amp-vibration">–</span></p>
      <h3>${m.hwRecent}</h3>
      <ol id="sensor-log" class="sensor-log"></ol>
    </section>
    <section class="card">
      <h2>${m.hwThresholds}</h2>
      <form id="thresholds-form">
        <table class="channels"><thead><tr><th>#</th><th>${m.hwSensor}</th><th>${m.hwThreshold}</th><th>${m.hwRefractory}</th></tr></thead>
        <tbody>${CHANNELS.map((c) => html`<tr><td>${c}</td><td>${channelName(c, m)}</td><td><input type="number" name="threshold-${c}" aria-label="${m.hwThresholdOf(channelName(c, m))}" min="0" max="255" value="40" required></td><td><input type="number" name="refractory-${c}" aria-label="${m.hwRefractoryOf(channelName(c, m))}" min="0" max="7000" value="30" required></td></tr>`)}</tbody></table>
        <button class="btn primary" type="submit">${m.hwSend}</button>
      </form>
      <p id="board-settings" class="muted">${m.hwBoardNotReported}</p>
    </section>
    <section class="card">
      <h2>${m.hwCalTitle}</h2>
      <p class="muted">${m.hwCalHelp}</p>
      <div class="row"><button type="button" class="btn" id="noise-record">${m.hwRecordNoise}</button> <button type="button" class="btn primary" id="propose">${m.hwPropose}</button></div>
      <table class="channels"><thead><tr><th>#</th><th>${m.hwNoisePeak}</th><th>${m.hwSoftestKnock}</th><th>${m.hwProposal}</th><th>${m.hwNoiseHits}</th></tr></thead>
      <tbody>${CHANNELS.map((c) => html`<tr><td>${c}</td><td class="num" id="noise-${c}">–</td><td class="num" id="knock-${c}">–</td><td class="num" id="proposal-${c}">–</td><td id="rate-${c}">–</td></tr>`)}</tbody></table>
    </section>
    <section class="card">
      <h2>${m.hwTapTest}</h2>
      <p class="muted">${m.hwTapHelp}</p>
      <ol id="taptest" class="taptest">${(['head', 'foot', 'left', 'right'] as const).map((r) => html`<li data-rail="${r}" data-name="${m.rail[r]}"><span class="tt-rail">${m.rail[r]}</span> <span class="tt-state">${m.hwNotTested}</span></li>`)}</ol>
      <div class="row"><button type="button" class="btn primary" id="taptest-start">${m.hwStartTap}</button></div>
      <p id="taptest-msg" class="big-msg"></p>
    </section>
  </div>
</main>`;
}
