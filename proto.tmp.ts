import { readFileSync } from 'node:fs';
import { renderMatchVideo, signature } from '/work/wt-camlive/tests/camera/match-video.ts';
import { createFrameProcessor } from '/work/wt-camlive/hub/camera/vision-processor.ts';
import { Y4mReader } from '/work/wt-camlive/hub/camera/y4m.ts';
const [variant, shots, seed, cseed] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])];
const t0 = performance.now();
const v = renderMatchVideo({ file: `/tmp/proto-${variant}-${seed}.y4m`, variant, shots, seed, cameraSeed: cseed, fps: 30, width: 800, height: 450 });
console.log('render', Math.round(performance.now() - t0), 'ms', v.frames, 'frames');
const p = await createFrameProcessor({ width: 800, height: 450, fps: 30, corners: v.corners, options: { balls: variant.startsWith('skittles') ? 'skittles' : 'carom', k1: v.k1, fovDeg: v.fovDeg, table: v.table } });
const r = new Y4mReader();
const frames = r.push(readFileSync(v.file));
const msgs: any[] = [];
const t1 = performance.now();
frames.forEach((f, i) => { for (const m of p.push({ width: 800, height: 450, format: 'yuv420p', data: f, t: (i * 1000) / 30 })) msgs.push({ ...m, at: (i * 1000) / 30 }); });
console.log('track', Math.round(performance.now() - t1), 'ms');
console.log(msgs.map((m) => m.type + '@' + Math.round(m.at)).join(' '));
const camShots = msgs.filter((m) => m.type === 'shot');
v.shots.forEach((s, k) => {
  const truth = s.truth.shot.events.map(signature).join(' ');
  const cam = camShots[k]?.shot.events.map(signature).join(' ');
  console.log(k, truth === cam ? 'SAME' : 'DIFF', 'strike', s.strikeAtMs, '\n  T', truth, '\n  C', cam);
  console.log('  truth t', s.truth.shot.events.map((e) => e.t).join(','), ' cam t', camShots[k]?.shot.events.map((e: any) => Math.round(e.t - s.strikeAtMs)).join(','));
});
import { fuseShot } from '/work/wt-camlive/hub/camera/fusion.ts';
import { sensorView } from '/work/wt-camlive/hardware/simulator/accuracy.ts';
import { createMatch } from '/work/wt-camlive/hardware/simulator/match-helpers.ts';
const fusedM = createMatch(v.setup);
const sensM = createMatch(v.setup);
let prompts = 0, sprompts = 0, bad = 0;
v.shots.forEach((s, k) => {
  const cam = camShots[k]?.shot ?? { events: [] };
  const f = fuseShot(sensorView(s.truth.shot), cam, { offsetMs: -s.strikeAtMs - 1000 / 60, toleranceMs: 1000 / 60 + 15 });
  const a = fusedM.apply({ kind: 'shot', shot: f.shot });
  let st = fusedM.view();
  if (!a.ok) { bad++; console.log(k, 'refused', a.error); return; }
  if (st.status === 'awaiting-referee') { prompts++; const o = st.prompt!.options.find((o) => o.points === s.expected.points && o.foul === s.expected.foul && o.turnPasses === s.expected.turnPasses)!; fusedM.apply({ kind: 'referee', referee: { ruling: o.ruling, option: o.index } }); }
  else if (JSON.stringify(st.shots.at(-1)!.points) !== JSON.stringify(s.expected.points) || st.shots.at(-1)!.foul !== s.expected.foul) { bad++; console.log(k, 'WRONG'); }
  sensM.apply({ kind: 'shot', shot: sensorView(s.truth.shot) });
  const ss = sensM.view();
  if (ss.status === 'awaiting-referee') { sprompts++; const o = ss.prompt!.options.find((o) => o.points === s.expected.points && o.foul === s.expected.foul && o.turnPasses === s.expected.turnPasses)!; sensM.apply({ kind: 'referee', referee: { ruling: o.ruling, option: o.index } }); }
  console.log(k, 'fused', f.identified, f.unknown, f.unmatchedCamera, st.status);
});
console.log('fused prompts', prompts, 'wrong', bad, 'sensor prompts', sprompts);
