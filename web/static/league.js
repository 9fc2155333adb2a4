// @ts-check
// League display (club TV): rotates its pages every ~10 s and refreshes them from the server.
// ?rotate=<seconds> changes the pace (0 stays on one page); ?page=<id> starts at that page (today, live, standings-<season>…).
const params = new URLSearchParams(location.search);
const rotate = Number(params.get('rotate') ?? '10');
const ROTATE_MS = Number.isFinite(rotate) && rotate >= 0 ? Math.max(rotate, 3) * 1000 : 10_000;
const STAY = rotate === 0;
const root = document.getElementById('league-live');
let index = 0;

/** @returns {HTMLElement[]} */
function pages() {
  return root ? [...root.querySelectorAll('.lg-page')].filter((p) => p instanceof HTMLElement) : [];
}

/** @param {number} i */
function show(i) {
  const list = pages();
  if (list.length === 0) return;
  index = ((i % list.length) + list.length) % list.length;
  list.forEach((p, k) => p.classList.toggle('active', k === index));
  document.body.dataset.page = list[index]?.dataset.page || '';
}

/** The reconnecting badge (web/pages/layout.ts), shown while the server does not answer. @param {boolean} show */
function badge(show) {
  const conn = document.getElementById('conn');
  if (conn) conn.hidden = !show;
}

async function refresh() {
  try {
    const res = await fetch(`/league/live?lang=${document.documentElement.lang || 'en'}`, { credentials: 'same-origin' });
    if (!res.ok) throw new Error(String(res.status));
    const html = await res.text();
    if (root && root.dataset.html !== html) {
      const current = pages()[index]?.dataset.page;
      root.innerHTML = html;
      root.dataset.html = html;
      const again = pages().findIndex((p) => p.dataset.page === current);
      show(again >= 0 ? again : 0);
    }
    badge(false);
  } catch {
    badge(true);
  }
}

if (root) {
  const start = pages().findIndex((p) => p.dataset.page === params.get('page'));
  show(start >= 0 ? start : 0);
  setInterval(async () => {
    await refresh();
    if (!STAY) show(index + 1);
  }, ROTATE_MS);
}
