/**
 * Which knock-downs a white may make (SK5-3/4, SK7P-4/5, SK7C-5), as small policies the
 * trace applies at each contact. A white is `direct` after a plain hit by the cue ball and
 * `legal` once it has met one of its game's conditions; `still` while no event shows it
 * moving. The cue ball never fells a skittle legally in any of the three games.
 */
export type WhiteStatus = 'still' | 'direct' | 'legal';

export interface CueStrikeFacts {
  /** The cue ball touched a cushion earlier in the shot. */
  cueCushioned: boolean;
  /** The cue ball touched the other white earlier in the shot (a carom onto this white). */
  cueOffOtherWhite: boolean;
}

export interface LegalityPolicy {
  /** Rule ids naming the legal ways and the foul. */
  readonly legalRule: string;
  readonly foulRule: string;
  /** Status of a white the cue ball strikes. A new strike replaces the earlier status. */
  cueStrike(facts: CueStrikeFacts): WhiteStatus;
  /** Statuses after two whites meet; a white-on-white contact never downgrades a status. */
  whiteStrike(a: WhiteStatus, b: WhiteStatus, aStruckByCue: boolean, bStruckByCue: boolean): [WhiteStatus, WhiteStatus];
  /** SK5-4: a white sent straight at the skittles still scores if the carom was made before it felled them. */
  readonly caromFirstExcuses: boolean;
}

const best = (a: WhiteStatus, b: WhiteStatus): WhiteStatus => (a === 'legal' || b === 'legal' ? 'legal' : a === 'direct' || b === 'direct' ? 'direct' : 'still');

/**
 * SK5-3 (a) cushion after being struck, (b) carom onto it, (c) struck by a cue ball off a
 * cushion, (d) struck by the other white that the cue ball hit. Decision: SK5-4 names the
 * foul as felling "прямо, а не от борта, или от шара, или от карамболя", so a white that
 * came off the other white ("от шара") is legal too, striker as well as struck.
 */
export const FIVE_SKITTLES_POLICY: LegalityPolicy = {
  legalRule: 'SK5-3',
  foulRule: 'SK5-4',
  cueStrike: (f) => (f.cueCushioned || f.cueOffOtherWhite ? 'legal' : 'direct'),
  whiteStrike: (a, b, aByCue, bByCue) => [
    aByCue || bByCue || a !== 'still' || b !== 'still' ? 'legal' : best(a, b),
    aByCue || bByCue || a !== 'still' || b !== 'still' ? 'legal' : best(a, b),
  ],
  caromFirstExcuses: true,
};

/**
 * SK5-3 read literally (option `strictKnockDowns`): after two whites meet only the struck
 * one gains (d), and only if the striker had been hit by the cue ball; the striker keeps
 * its status. Which of the two was the striker is unknown from a contact event, so each
 * white gains (d) when the other one had been hit by the cue ball and it had not.
 */
export const FIVE_SKITTLES_STRICT_POLICY: LegalityPolicy = {
  ...FIVE_SKITTLES_POLICY,
  whiteStrike: (a, b, aByCue, bByCue) => [
    bByCue && !aByCue ? 'legal' : best(a, 'direct'),
    aByCue && !bByCue ? 'legal' : best(b, 'direct'),
  ],
};

/**
 * SK7P-4: (1) cue ball → object ball → cushion → skittles, or (2) cue ball → cushion(s) →
 * object ball. Any ball-to-ball transfer needs a cushion first: a white struck by a white
 * is legal only if the striker already was.
 */
export const PYRAMID_POLICY: LegalityPolicy = {
  legalRule: 'SK7P-4',
  foulRule: 'SK7P-5',
  cueStrike: (f) => (f.cueCushioned ? 'legal' : 'direct'),
  whiteStrike: (a, b) => [best(a, b === 'legal' ? 'legal' : 'direct'), best(b, a === 'legal' ? 'legal' : 'direct')],
  caromFirstExcuses: false,
};

/**
 * SK7C-5: (a) after cushion(s), (b) after a carom onto it by the cue ball off the other
 * white, (c) after a cue ball that came off cushion(s). A white set moving by the other
 * white is not among them: it needs a cushion of its own.
 */
export const SEVEN_CAROM_POLICY: LegalityPolicy = {
  legalRule: 'SK7C-5',
  foulRule: 'SK7C-5',
  cueStrike: (f) => (f.cueCushioned || f.cueOffOtherWhite ? 'legal' : 'direct'),
  whiteStrike: (a, b) => [best(a, 'direct'), best(b, 'direct')],
  caromFirstExcuses: false,
};
