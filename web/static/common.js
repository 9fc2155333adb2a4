// @ts-check
// Shared by every page: live updates over SSE with a reconnecting badge, and CSRF-protected API calls.

/**
 * What the server sends (web/routes/live.ts): the contract's payloads, type-only imports.
 * @typedef {import('../../hub/contract/table.ts').TableState} TableState
 * @typedef {import('../../hub/contract/table.ts').TableHealth} TableHealth
 * @typedef {import('../../hub/contract/table.ts').Availability} Availability
 * @typedef {import('../../hub/contract/table.ts').TableEvent} TableEvent
 * @typedef {{ table?: string, state?: TableState | null, availability?: Availability | null, health?: TableHealth | null, html?: string, say?: string }} StateMessage
 *   A `state` message: a table's payloads, and the server-rendered fragment of the view asked for.
 * @typedef {{ state?: (msg: StateMessage) => void, event?: (event: TableEvent) => void }} LiveHandlers
 */

/**
 * The element with this id, of this type; a page without it is a bug, said by name.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {{ new (): T, name: string }} [type]
 * @returns {T}
 */
export function byId(id, type) {
  const el = document.getElementById(id);
  if (!(el instanceof (type ?? HTMLElement))) throw new Error(`page: no #${id}${type ? ` (${type.name})` : ''}`);
  return /** @type {T} */ (el);
}

/**
 * The first element matching the selector, of this type; a page without it is a bug, said by name.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} selector
 * @param {{ new (): T, name: string }} [type]
 * @returns {T}
 */
export function one(selector, type) {
  const el = document.querySelector(selector);
  if (!(el instanceof (type ?? HTMLElement))) throw new Error(`page: no ${selector}${type ? ` (${type.name})` : ''}`);
  return /** @type {T} */ (el);
}

/**
 * JSON embedded in the page (`<script type="application/json" id=…>`, web/pages/layout.ts jsonBlock).
 * @param {string} id
 * @returns {any} what the server put there (its shape is the page's own)
 */
export function pageJson(id) {
  const el = document.getElementById(id);
  return el ? JSON.parse(el.textContent || '{}') : {};
}

/** @returns {any} the display's settings (web/routes/pages.ts displayConfig) */
export function config() {
  return pageJson('config');
}

/**
 * Opens an EventSource; EventSource reconnects by itself, the badge shows while it does.
 * @param {string} url
 * @param {LiveHandlers} handlers
 */
export function live(url, handlers) {
  const badge = document.getElementById('conn');
  const source = new EventSource(url);
  source.addEventListener('open', () => {
    if (badge) badge.hidden = true;
    document.body.dataset.live = 'open';
  });
  source.addEventListener('error', () => {
    if (badge) badge.hidden = false;
    document.body.dataset.live = 'reconnecting';
  });
  source.addEventListener('state', (e) => handlers.state && handlers.state(JSON.parse(e.data)));
  source.addEventListener('table-event', (e) => handlers.event && handlers.event(JSON.parse(e.data)));
  return source;
}

function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return (meta && meta.getAttribute('content')) || '';
}

/**
 * A JSON request with the session's CSRF token; rejects with the server's error text.
 * @param {'GET' | 'POST' | 'PUT'} method
 * @param {string} url
 * @param {unknown} [body]
 * @returns {Promise<any>} the answer's JSON (each route's own shape)
 */
export async function api(method, url, body) {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  // The session is gone (expired, or logged out elsewhere): log in again and come back here.
  if (res.status === 401 && document.querySelector('meta[name="csrf-token"]')) {
    location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
  }
  if (!res.ok) throw new Error((data && data.error) || `HTTP ${res.status}`);
  return data;
}

/**
 * @param {string} text
 * @param {boolean} [ok]
 */
export function toast(text, ok = true) {
  const el = document.getElementById('toast');
  if (!el) return;
  el.textContent = text;
  el.className = `toast ${ok ? 'ok' : 'bad'}`;
}

/**
 * Replaces a container's content only when the HTML changed (keeps focus and avoids flicker).
 * @param {HTMLElement | null} el
 * @param {unknown} html
 */
export function swap(el, html) {
  if (el && typeof html === 'string' && el.dataset.html !== html) {
    el.innerHTML = html;
    el.dataset.html = html;
  }
}
