import { h, type Html } from '../html.ts';
import { alertsFor, type HubRecord, type TableRecord } from '../store.ts';
import { isCountdown, statusText, variantName } from './scoreboard.ts';

function ago(iso: string | null | undefined, now: number): string {
  if (!iso) return 'never';
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms)) return 'unknown';
  if (ms < 1500) return 'just now';
  if (ms < 90_000) return `${Math.round(ms / 1000)} s ago`;
  if (ms < 90 * 60_000) return `${Math.round(ms / 60_000)} min ago`;
  return `${Math.round(ms / 3_600_000)} h ago`;
}

function card(rec: TableRecord, now: number, loggedIn: boolean, hubs: readonly HubRecord[]): Html {
  const s = rec.state;
  const online = rec.availability ? rec.availability.state === 'online' : null;
  const hub = hubs.find((x) => x.hub === rec.state?.hub) ?? hubs.find((x) => x.tables.includes(rec.table));
  const alerts = alertsFor(rec, hub);
  return h`<article class="tcard${alerts.length > 0 ? ' has-alerts' : ''}" data-table="${rec.table}">
  <header>
    <a class="tname" href="/tables/${rec.table}">Table ${rec.table}</a>
    ${s?.simulated ? h`<span class="badge sim">SIMULATED</span>` : ''}
    ${s ? h`<span class="badge status-${s.status}">${statusText(s)}</span>` : h`<span class="badge">No match</span>`}
  </header>
  ${s && s.status !== 'idle' ? h`<p class="tvariant">${variantName(s.variant)}${s.hub ? h` · hub ${s.hub}` : ''}</p>
  <table class="mini">${s.players.map(
    (p) => h`<tr class="${s.turn === p.name ? 'active' : ''}"><td class="turn">${s.turn === p.name ? '▶' : ''}</td><td class="pn">${p.name}</td><td class="ps">${p.score}</td><td class="pt">${isCountdown(s.variant) ? 'left' : `/ ${p.target}`}</td></tr>`,
  )}</table>` : h`<p class="muted">${s ? 'No match on this table.' : 'No state published yet.'}</p>`}
  <dl class="link">
    <div><dt>Sensors</dt><dd class="${online === null ? '' : online ? 'ok' : 'bad'}">${online === null ? 'unknown' : online ? 'online' : 'offline'}</dd></div>
    <div><dt>Heartbeat</dt><dd>${ago(rec.health?.lastHeartbeatAt, now)}</dd></div>
    <div><dt>Dropped frames</dt><dd class="${(rec.health?.framesDropped ?? 0) > 0 ? 'warn' : ''}">${rec.health?.framesDropped ?? '–'}</dd></div>
    ${rec.health?.camera ? h`<div><dt>Camera</dt><dd class="${rec.health.camera.fps === 0 ? 'bad' : rec.health.camera.dropped > 0 ? 'warn' : 'ok'}">${rec.health.camera.fps} fps · ${rec.health.camera.state.replace(/-/g, ' ')} · ${rec.health.camera.dropped} dropped</dd></div>` : ''}
  </dl>
  ${alerts.length > 0 ? h`<ul class="alerts">${alerts.map((a) => h`<li class="alert alert-${a.kind}"><strong>${a.kind.replace(/-/g, ' ')}</strong> ${a.detail}</li>`)}</ul>` : ''}
  <footer>
    <a href="/tables/${rec.table}">Scoreboard</a>
    <a href="/overlay/${rec.table}">Overlay</a>
    ${loggedIn ? h`<a href="/referee/${rec.table}">Referee</a><a href="/hardware/${rec.table}">Hardware</a>` : ''}
  </footer>
</article>`;
}

export function overviewFragment(records: TableRecord[], now: number, loggedIn: boolean, hubs: readonly HubRecord[] = []): Html {
  const hubLine =
    hubs.length > 0
      ? h`<p class="hubs">Hubs: ${hubs.map((x) => h`<span class="badge hub-${x.state}">${x.hub} · ${x.state}${x.tables.length > 0 ? ` · ${x.tables.length} table${x.tables.length === 1 ? '' : 's'}` : ''}</span> `)}</p>`
      : '';
  if (records.length === 0) return h`${hubLine}<div class="grid empty"><p class="idle">No tables seen on the broker yet.</p></div>`;
  return h`${hubLine}<div class="grid">${records.map((r) => card(r, now, loggedIn, hubs))}</div>`;
}
