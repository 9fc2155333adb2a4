// @ts-check
// The replay clip beside an open prompt (issue 16): while the table waits for the referee,
// the newest clip written for a prompt plays here, muted and looping. Self-contained: it
// only reads the public table state and the logged-in clip list.
const box = document.getElementById('replay-clip');
const table = box?.dataset.table;
/** @type {string | null} the clip on screen */
let shown = null;

async function refresh() {
  if (!box || !table) return;
  try {
    /** @type {import('./common.js').TableState} */
    const state = await (await fetch(`/api/tables/${encodeURIComponent(table)}`)).json();
    if (state.status !== 'awaiting-referee') {
      box.hidden = true;
      return;
    }
    const res = await fetch(`/api/tables/${encodeURIComponent(table)}/clips`);
    if (!res.ok) return;
    /** @type {{ id: string, at: string, bytes: number, url: string }[]} web/routes/clips.ts */
    const clips = await res.json();
    const clip = clips.find((c) => c.id.includes('-prompt-'));
    if (!clip) return;
    if (shown !== clip.id) {
      shown = clip.id;
      box.replaceChildren();
      const title = document.createElement('h3');
      title.textContent = 'Replay';
      const video = Object.assign(document.createElement('video'), { src: clip.url, controls: true, muted: true, autoplay: true, loop: true, playsInline: true });
      video.className = 'replay-video';
      video.style.width = '100%';
      box.append(title, video);
    }
    box.hidden = false;
  } catch {
    // The next round tries again.
  }
}

refresh();
setInterval(refresh, 3000);
