// @ts-check
// The detected tracks over a replay clip (issue 16): when replay-clip.js shows a clip, its
// tracks (hub/camera/clip-tracks.ts: each ball's position per frame, the contacts) are
// drawn on a canvas over the video in the balls' colours — the path so far bright, the rest
// faint, the balls where they are now, and each contact as a ring once the video reaches it.
// A module (the `export {}` below), so its names stay out of replay-clip.js's global scope.

/** @typedef {import('../../hub/camera/clip-tracks.ts').ClipTracksFile} ClipTracksFile */

/** @type {Record<string, string>} */
const BALL = { white: '#f5f5f0', yellow: '#f2c230', red: '#d8342c', cue: '#f2c230', one: '#f5f5f0', two: '#f5f5f0' };
const box = document.getElementById('replay-clip');

/** @param {HTMLVideoElement} video */
function attach(video) {
  if (video.dataset.tracks) return;
  video.dataset.tracks = 'loading';
  const stage = document.createElement('div');
  stage.className = 'replay-stage';
  video.replaceWith(stage);
  const canvas = document.createElement('canvas');
  canvas.className = 'replay-tracks';
  stage.append(video, canvas);
  fetch(`${new URL(video.src, location.href).pathname}/tracks`, { credentials: 'same-origin' })
    .then((res) => (res.ok ? res.json() : null))
    .then((/** @type {ClipTracksFile | null} */ tracks) => {
      if (!tracks || !Array.isArray(tracks.frames)) {
        video.dataset.tracks = 'none';
        return;
      }
      canvas.width = tracks.width;
      canvas.height = tracks.height;
      video.dataset.tracks = 'shown';
      const paint = () => draw(canvas, tracks, video.currentTime);
      paint();
      video.addEventListener('timeupdate', paint);
      video.addEventListener('seeked', paint);
      const loop = () => {
        if (!canvas.isConnected) return;
        if (!video.paused) paint();
        requestAnimationFrame(loop);
      };
      requestAnimationFrame(loop);
    })
    .catch(() => (video.dataset.tracks = 'none'));
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {ClipTracksFile} tracks
 * @param {number} time the video's position, seconds
 */
function draw(canvas, tracks, time) {
  const g = canvas.getContext('2d');
  if (!g) throw new Error('clip tracks: no 2d context');
  g.clearRect(0, 0, canvas.width, canvas.height);
  const now = Math.min(tracks.frames.length - 1, Math.max(0, Math.floor(time * tracks.fps)));
  const px = Math.max(1, canvas.width / 400);
  const balls = new Set(tracks.frames.flatMap((f) => (f ? Object.keys(f) : [])));
  g.lineCap = 'round';
  g.lineJoin = 'round';
  for (const ball of balls) {
    const colour = BALL[ball] || '#ffffff';
    g.strokeStyle = colour;
    /** @type {[number, number, number][]} from, to (frames), alpha */
    const passes = [[0, tracks.frames.length - 1, 0.35], [0, now, 1]];
    for (const [from, to, alpha] of passes) {
      g.globalAlpha = alpha;
      g.lineWidth = 2 * px;
      g.beginPath();
      let pen = false;
      for (let k = from; k <= to; k++) {
        const p = tracks.frames[k]?.[ball];
        if (!p) {
          pen = false;
          continue;
        }
        if (pen) g.lineTo(p[0], p[1]);
        else g.moveTo(p[0], p[1]);
        pen = true;
      }
      g.stroke();
    }
    g.globalAlpha = 1;
    // Where the ball is now (or was last seen).
    for (let k = now; k >= 0; k--) {
      const p = tracks.frames[k]?.[ball];
      if (!p) continue;
      g.fillStyle = colour;
      g.beginPath();
      g.arc(p[0], p[1], 3.5 * px, 0, 2 * Math.PI);
      g.fill();
      break;
    }
  }
  // Contacts reached so far: a ring in the (first) ball's colour, a square for a cushion.
  for (const c of tracks.contacts || []) {
    if (!c.at || c.frame > now) continue;
    const who = (c.balls || []).find((b) => b);
    g.strokeStyle = (who && BALL[who]) || '#ffffff';
    g.lineWidth = 1.5 * px;
    g.beginPath();
    if (c.kind === 'cushion') g.rect(c.at[0] - 6 * px, c.at[1] - 6 * px, 12 * px, 12 * px);
    else g.arc(c.at[0], c.at[1], 7 * px, 0, 2 * Math.PI);
    g.stroke();
  }
  canvas.dataset.frame = String(now);
}

if (box) {
  const scan = () => box.querySelectorAll('video').forEach(attach);
  new MutationObserver(scan).observe(box, { childList: true, subtree: true });
  scan();
}

export {};
