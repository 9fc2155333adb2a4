import { z } from 'zod';
import { RAILS } from '../ids.ts';
import { describeIssues } from '../result.ts';
import { err, ok, type Result } from '../result.ts';

/**
 * AR-1, AR-5 Decision: the catalogue format. A figure names its start position (mm from
 * the head-left corner, `cue` being the shooter's ball and `other` the other white), optional
 * marker chips, its value (AR-2: 4–11) and the cue ball's contacts in order.
 */
const point = z.tuple([z.number().min(0).max(5000), z.number().min(0).max(3000)]);
const token = z.union([z.enum(['red', 'other', 'cushion']), z.templateLiteral(['cushion:', z.enum(RAILS)])]);

export const figureSchema = z.strictObject({
  id: z.string().min(1).max(40),
  name: z.string().min(1).max(120),
  value: z.number().int().min(4).max(11),
  sequence: z.array(token).min(2).max(30),
  start: z.strictObject({ cue: point, other: point, red: point }),
  chips: z.array(point).max(20).optional(),
});
export type Figure = z.infer<typeof figureSchema>;
export type FigureToken = Figure['sequence'][number];

export const catalogueSchema = z.array(figureSchema).min(1).max(500);

export function parseCatalogue(raw: unknown, prefix = 'catalogue'): Result<Figure[]> {
  const parsed = catalogueSchema.safeParse(raw);
  if (!parsed.success) return err(describeIssues(prefix, parsed.error));
  const ids = new Set<string>();
  for (const figure of parsed.data) {
    if (ids.has(figure.id)) return err(`${prefix}: figure id '${figure.id}' appears twice`);
    ids.add(figure.id);
  }
  return ok(parsed.data);
}

/**
 * The project's own sample figures (not the official 76): enough to play and test a
 * competition. Load the official catalogue as a file in this format.
 */
export const SAMPLE_CATALOGUE: readonly Figure[] = Object.freeze([
  { id: 'S01', name: 'Straight follow', value: 4, sequence: ['red', 'other'], start: { cue: [700, 710], other: [2200, 710], red: [1100, 710] } },
  { id: 'S02', name: 'Draw back', value: 4, sequence: ['red', 'cushion:head', 'other'], start: { cue: [900, 600], other: [300, 400], red: [1300, 650] } },
  { id: 'S03', name: 'One-rail kiss-off', value: 5, sequence: ['cushion:left', 'red', 'other'], start: { cue: [1000, 300], other: [1900, 500], red: [1420, 150] } },
  { id: 'S04', name: 'Short angle', value: 5, sequence: ['red', 'cushion:right', 'other'], start: { cue: [2000, 900], other: [2500, 700], red: [2300, 1200] } },
  { id: 'S05', name: 'Two-rail around', value: 6, sequence: ['red', 'cushion:foot', 'cushion:left', 'other'], start: { cue: [1800, 1000], other: [1600, 250], red: [2500, 900] } },
  { id: 'S06', name: 'Umbrella', value: 7, sequence: ['cushion', 'cushion', 'red', 'other'], start: { cue: [600, 900], other: [1200, 700], red: [1500, 760] } },
  { id: 'S07', name: 'Massé return', value: 8, sequence: ['red', 'cushion:right', 'cushion:right', 'other'], start: { cue: [1400, 1200], other: [900, 1100], red: [1500, 1300] }, chips: [[1450, 1250]] },
  { id: 'S08', name: 'Three-rail long', value: 8, sequence: ['red', 'cushion:foot', 'cushion:right', 'cushion:head', 'other'], start: { cue: [700, 1000], other: [500, 300], red: [1300, 1100] } },
  { id: 'S09', name: 'Double kiss', value: 9, sequence: ['red', 'cushion:left', 'red', 'other'], start: { cue: [1400, 400], other: [1900, 900], red: [1420, 200] } },
  { id: 'S10', name: 'Five-rail', value: 10, sequence: ['cushion', 'cushion', 'cushion', 'cushion', 'cushion', 'red', 'other'], start: { cue: [400, 300], other: [2400, 1100], red: [2500, 1200] } },
  { id: 'S11', name: 'Jump over', value: 11, sequence: ['other', 'cushion:foot', 'red'], start: { cue: [1000, 710], other: [1200, 710], red: [2300, 710] }, chips: [[1100, 650], [1100, 770]] },
  { id: 'S12', name: 'Reverse english', value: 6, sequence: ['cushion:head', 'red', 'cushion:left', 'other'], start: { cue: [500, 1000], other: [1000, 200], red: [700, 800] } },
] satisfies Figure[]);

export function matchesSequence(sequence: readonly FigureToken[], contacts: readonly string[]): boolean {
  if (contacts.length < sequence.length) return false;
  return sequence.every((want, i) => {
    const got = contacts[i]!;
    return want === 'cushion' ? got.startsWith('cushion:') : want === got;
  });
}
