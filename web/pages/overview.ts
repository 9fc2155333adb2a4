import { html } from 'hono/html';
import type { Html } from './layout.ts';
import { alertsFor, type HubRecord, type TableRecord } from '../store.ts';
import { messages, named, type Lang, type Messages } from '../i18n.ts';
import { isCountdown, statusText, tableName, variantName } from './scoreboard.ts';

function ago(iso: string | null | undefined, now: number, m: Messages): string {
  if (!iso) return m.never;
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms)) return m.unknownState;
  if (ms < 1500) return m.justNow;
  if (ms < 90_000) return m.secondsAgo(Math.round(ms / 1000));
  if (ms < 90 * 60_000) return m.minutesAgo(Math.round(ms / 60_000));
  return m.hoursAgo(Math.round(ms / 3_600_000));
}

/** An alert's detail in the page's language when the panel made it; the hub's own details as they come. */
function alertDetail(kind: string, detail: string, hub: HubRecord | undefined, m: Messages): string {
  if (kind === 'prompt-waiting') return m.alertPrompt;
  if (kind === 'link-down' && detail === 'the sensor board does not answer') return m.alertLinkDown;
  if (kind === 'hub-offline' && hub) return m.alertHubOffline(hub.hub);
  return detail;
}

function card(rec: TableRecord, now: number, loggedIn: boolean, hubs: readonly HubRecord[], m: Messages): Html {
  const s = rec.state;
  const online = rec.availability ? rec.availability.state === 'online' : null;
  const hub = hubs.find((x) => x.hub === rec.state?.hub) ?? hubs.find((x) => x.tables.includes(rec.table));
  const alerts = alertsFor(rec, hub);
  return html`<article class="tcard${alerts.length > 0 ? ' has-alerts' : ''}" data-table="${rec.table}">
  <header>
    <a class="tname" href="/tables/${rec.table}">${tableName(s, rec.table, m)}</a>
    ${s?.simulated ? html`<span class="badge sim">${m.simulated}</span>` : ''}
    ${s ? html`<span class="badge status-${s.status}">${statusText(s, m)}</span>` : html`<span class="badge">${m.noMatch}</span>`}
  </header>
  ${s && s.status !== 'idle' ? html`<p class="tvariant">${variantName(s.variant, m)}${s.hub ? html` · ${m.hubWord} ${s.hub}` : ''}</p>
  <table class="mini">${s.players.map(
    (p) => html`<tr class="${s.turn === p.name ? 'active' : ''}"><td class="turn">${s.turn === p.name ? '▶' : ''}</td><td class="pn">${p.name}</td><td class="ps">${p.score}</td><td class="pt">${isCountdown(s) ? m.left : `/ ${p.target}`}</td></tr>`,
  )}</table>` : html`<p class="muted">${s ? m.noMatchOnTable : m.noStateYet}</p>`}
  <dl class="link">
    <div><dt>${m.sensors}</dt><dd class="${online === null ? '' : online ? 'ok' : 'bad'}">${online === null ? m.unknownState : online ? m.online : m.offline}</dd></div>
    <div><dt>${m.heartbeat}</dt><dd>${ago(rec.health?.lastHeartbeatAt, now, m)}</dd></div>
    <div><dt>${m.droppedFrames}</dt><dd class="${(rec.health?.framesDropped ?? 0) > 0 ? 'warn' : ''}">${rec.health?.framesDropped ?? '–'}</dd></div>
    ${rec.health?.camera ? html`<div><dt>${m.camera}</dt><dd class="${rec.health.camera.fps === 0 ? 'bad' : rec.health.camera.dropped > 0 ? 'warn' : 'ok'}">${rec.health.camera.fps} fps · ${rec.health.camera.state.replace(/-/g, ' ')} · ${rec.health.camera.dropped} ${m.dropped}</dd></div>` : ''}
  </dl>
  ${alerts.length > 0 ? html`<ul class="alerts">${alerts.map((a) => html`<li class="alert alert-${a.kind}"><strong>${named(m.alertKind, a.kind)}</strong> ${alertDetail(a.kind, a.detail, hub, m)}</li>`)}</ul>` : ''}
  <footer>
    <a href="/tables/${rec.table}">${m.linkScoreboard}</a>
    <a href="/overlay/${rec.table}">${m.linkOverlay}</a>
    ${loggedIn ? html`<a href="/referee/${rec.table}">${m.linkReferee}</a><a href="/hardware/${rec.table}">${m.linkHardware}</a>` : ''}
  </footer>
</article>`;
}

export function overviewFragment(records: TableRecord[], now: number, loggedIn: boolean, hubs: readonly HubRecord[] = [], lang: Lang = 'en'): Html {
  const m = messages(lang);
  const hubLine =
    hubs.length > 0
      ? html`<p class="hubs">${m.hubs}: ${hubs.map((x) => html`<span class="badge hub-${x.state}">${x.hub} · ${x.state === 'online' ? m.online : m.offline}${x.tables.length > 0 ? ` · ${m.hubTables(x.tables.length)}` : ''}</span> `)}</p>`
      : '';
  if (records.length === 0) return html`${hubLine}<div class="grid empty"><p class="idle">${m.noTablesSeen}</p></div>`;
  return html`${hubLine}<div class="grid">${records.map((r) => card(r, now, loggedIn, hubs, m))}</div>`;
}
