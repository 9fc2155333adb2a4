import { html } from 'hono/html';
import { jsonBlock, type Html } from './layout.ts';
import type { Lang } from '../i18n.ts';

/**
 * The camera's calibration page (issue 16), linked from the hardware page: a live frame of
 * the table's camera, the four cushion-nose corners clicked on it (or found automatically),
 * the table's lines drawn through them to check the fit, and Save. Its words live here, in
 * both languages, so the page is one module (web/static/calibration.js drives it).
 */
const TEXT = {
  en: {
    title: (table: string) => `${table} · camera calibration`,
    link: 'Camera calibration',
    help: 'Click the four corners of the playing surface where the cushion noses meet, in this order: head-left, foot-left, foot-right, head-right. The table’s lines are then drawn over the picture: they must lie on the cushions, diamonds and spots. Save applies the corners to the running camera at once and keeps them across restarts.',
    order: ['head-left', 'foot-left', 'foot-right', 'head-right'],
    reload: 'New picture',
    find: 'Find automatically',
    clear: 'Start again',
    save: 'Save',
    frameAlt: 'The latest picture of the table’s camera',
    noFrame: 'No picture from the camera yet.',
    client: {
      clickNext: (name: string) => `Click the ${name} corner.`,
      checking: 'Checking the corners…',
      fits: 'The table’s lines are drawn through these corners. Check that they fit, then save.',
      saved: 'Saved: the camera uses these corners now.',
      searching: 'Looking for the table in the picture…',
      found: 'Corners found: check the lines, then save.',
      refused: 'Not saved:',
      current: 'The corners in use are drawn.',
      none: 'This camera has no corners yet.',
      labels: ['HL', 'FL', 'FR', 'HR'],
      names: ['head-left', 'foot-left', 'foot-right', 'head-right'],
    },
  },
  ru: {
    title: (table: string) => `${table} · калибровка камеры`,
    link: 'Калибровка камеры',
    help: 'Щёлкните четыре угла игрового поля, где сходятся кромки бортов, по порядку: головной левый, дальний левый, дальний правый, головной правый. Затем поверх снимка рисуются линии стола: они должны лечь на борта, отметки и точки. «Сохранить» сразу передаёт углы работающей камере и сохраняет их после перезапуска.',
    order: ['головной левый', 'дальний левый', 'дальний правый', 'головной правый'],
    reload: 'Новый снимок',
    find: 'Найти автоматически',
    clear: 'Заново',
    save: 'Сохранить',
    frameAlt: 'Последний снимок камеры стола',
    noFrame: 'Снимка от камеры пока нет.',
    client: {
      clickNext: (name: string) => `Щёлкните угол: ${name}.`,
      checking: 'Проверка углов…',
      fits: 'Линии стола нарисованы по этим углам. Проверьте, что они совпадают, и сохраните.',
      saved: 'Сохранено: камера уже работает с этими углами.',
      searching: 'Поиск стола на снимке…',
      found: 'Углы найдены: проверьте линии и сохраните.',
      refused: 'Не сохранено:',
      current: 'Нарисованы действующие углы.',
      none: 'У этой камеры ещё нет углов.',
      labels: ['ГЛ', 'ДЛ', 'ДП', 'ГП'],
      names: ['головной левый', 'дальний левый', 'дальний правый', 'головной правый'],
    },
  },
} as const;

export function calibrationText(lang: Lang) {
  return TEXT[lang] ?? TEXT.en;
}

/** The link on the hardware page (shown for a table with a camera). */
export function calibrationLink(table: string, lang: Lang): Html {
  return html`<p class="cal-link"><a class="btn" href="/calibration/${table}">${calibrationText(lang).link}</a></p>`;
}

export function calibrationBody(table: string, name: string, lang: Lang): Html {
  const t = calibrationText(lang);
  // The client's words, with the functions turned into templates it fills in.
  const client = { ...t.client, clickNext: t.client.clickNext('{name}') };
  return html`<main class="calibration" data-table="${table}">
  ${jsonBlock('i18n', client)}
  <h1>${t.title(name)}</h1>
  <p class="muted">${t.help}</p>
  <ol class="cal-order">${t.order.map((o, k) => html`<li id="cal-corner-${k}"><span>${o}</span> <span class="num cal-xy">–</span></li>`)}</ol>
  <div class="row">
    <button type="button" class="btn" id="cal-reload">${t.reload}</button>
    <button type="button" class="btn" id="cal-find">${t.find}</button>
    <button type="button" class="btn" id="cal-clear">${t.clear}</button>
    <button type="button" class="btn primary" id="cal-save" disabled>${t.save}</button>
  </div>
  <p id="cal-msg" class="big-msg" role="status" aria-live="polite"></p>
  <div class="cal-stage" id="cal-stage">
    <img id="cal-frame" alt="${t.frameAlt}">
    <canvas id="cal-overlay"></canvas>
  </div>
  <p id="cal-noframe" class="muted" hidden>${t.noFrame}</p>
</main>`;
}
