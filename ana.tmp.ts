import { Match } from './hub/rules/match.ts';
import { seededRandom } from './hub/rules/random.ts';
import { PhysicsTable } from './hardware/simulator/physics/planner.ts';
import { sensorView } from './hardware/simulator/accuracy.ts';
const variant = process.argv[2] ?? 'carom';
const random = seededRandom(7);
const setup = { variant, players: ['Ana', 'Ben'], target: 100000, options: {} };
const mk = () => { const m = Match.create(setup); if (!m.ok) throw 0; return m.value; };
let truth = mk(); let seen = mk();
const phys = new PhysicsTable(variant);
let n = 0, prompted = 0;
for (let k = 0; k < 200; k++) {
  const view = truth.view();
  const { shot } = phys.plan({ variant, cueBall: view.cueBall!, isBreak: view.shots.length === 0, random, table: { length: 2840, width: 1420 }, instructions: view.instructions });
  truth.apply({ kind: 'shot', shot });
  const exp = truth.view().shots.at(-1)!;
  seen.apply({ kind: 'shot', shot: sensorView(shot) });
  const s = seen.view();
  if (s.status === 'awaiting-referee') {
    prompted++;
    const opt = s.prompt!.options.find((o) => o.points === exp.points && o.foul === exp.foul && o.turnPasses === exp.turnPasses)!;
    if (prompted < 25) console.log(shot.events.map((e: any) => e.kind === 'ball' ? `B(${e.balls.join('+')})@${e.t}` : e.kind === 'cushion' ? `${e.rail[0]}:${e.ball}@${e.t}` : `${e.kind}:${e.ball ?? e.by}@${e.t}`).join(' '), '=>', s.prompt!.options.map(o => `${o.ruling}${o.points}`).join('/'), 'truth', exp.points);
    seen.apply({ kind: 'referee', referee: { ruling: opt.ruling, option: opt.index } });
  }
  n++;
}
console.log(variant, 'prompted', prompted, 'of', n);
