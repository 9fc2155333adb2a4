// Shared by every page: live updates over SSE with a reconnecting badge, and CSRF-protected API calls.

export function config() {
  const el = document.getElementById('config');
  return el ? JSON.parse(el.textContent || '{}') : {};
}

/** Opens an EventSource; EventSource reconnects by itself, the badge shows while it does. */
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
  return meta ? meta.getAttribute('content') : '';
}

/** A JSON request with the session's CSRF token; rejects with the server's error text. */
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

export function toast(text, ok = true) {
  const el = document.getElementById('toast');
  if (!el) return;
  el.textContent = text;
  el.className = `toast ${ok ? 'ok' : 'bad'}`;
}

/** Replaces a container's content only when the HTML changed (keeps focus and avoids flicker). */
export function swap(el, html) {
  if (el && typeof html === 'string' && el.dataset.html !== html) {
    el.innerHTML = html;
    el.dataset.html = html;
  }
}
