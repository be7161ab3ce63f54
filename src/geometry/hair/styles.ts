/**
 * The hairstyle library as data: each style is a handful of numbers the card generator (cards.ts)
 * grows into a mesh. Lengths are strand lengths in cm from the root; the template head is about
 * 23 cm from chin to crown, the shoulders some 25 cm below the ears.
 */
import type { HairLength, HairParting } from './hair-words.ts';

/** How strands leave the scalp: away from a parting line, away from the crown, back from the forehead, or to a gather point. */
export type Flow = 'parting' | 'crown' | 'back' | 'gather';

export interface HairStyle {
  name: string;
  /** The length class the style stands for, as the photo analysis names them. */
  length: Exclude<HairLength, 'none'>;
  flow: Flow;
  parting: HairParting;
  /** Strand length on top, at the sides (above the ears) and at the back, cm. */
  top: number;
  sides: number;
  back: number;
  /** Front strands fall over the forehead down to this share of the way from the hairline to the brows (0 none). */
  fringe: number;
  /** How far the outer layer stands off the scalp, cm. */
  lift: number;
  /** Extra lift over the forehead, cm, settling towards the crown and the sides. */
  quiff?: number;
  /** Curl: amplitude (cm) and turns per 10 cm. */
  curl: number;
  curlRate: number;
  /** How much strands stand out radially instead of falling (0 falls, 1 straight out: afro). */
  stand: number;
  /** Side strands pass behind the ears. */
  tucked: boolean;
  /** Where `gather` strands meet (template cm) and what hangs from it. */
  gather?: { at: [number, number, number]; tail: number; bun: number };
  /** Only a stubble shell: no cards. */
  shellOnly?: boolean;
  /** Only the dense under-layer, `lift` off the scalp, no cards: a buzz cut. */
  cardless?: boolean;
}

const base = { fringe: 0, lift: 0.6, curl: 0, curlRate: 0, stand: 0, tucked: false } as const;

export const HAIRSTYLES: readonly HairStyle[] = [
  { ...base, name: 'shaved', length: 'shaved', flow: 'crown', parting: 'none', top: 0, sides: 0, back: 0, lift: 0, shellOnly: true },
  { ...base, name: 'buzz-cut', length: 'shaved', flow: 'crown', parting: 'none', top: 1.2, sides: 0.8, back: 0.8, lift: 0.3, cardless: true },
  { ...base, name: 'short-crop', length: 'short', flow: 'crown', parting: 'none', top: 4, sides: 2.5, back: 3, lift: 0.35 },
  { ...base, name: 'short-fringe', length: 'short', flow: 'crown', parting: 'none', top: 7, sides: 3.5, back: 4, fringe: 0.7, lift: 0.8 },
  { ...base, name: 'side-part', length: 'short', flow: 'parting', parting: 'left', top: 9, sides: 3.5, back: 4, lift: 0.6 },
  { ...base, name: 'quiff', length: 'short', flow: 'back', parting: 'none', top: 10, sides: 2, back: 3, lift: 0.5, quiff: 1.4 },
  { ...base, name: 'short-curly', length: 'short', flow: 'crown', parting: 'none', top: 6, sides: 4.5, back: 5, fringe: 0.3, lift: 1.6, curl: 0.8, curlRate: 4 },
  { ...base, name: 'afro', length: 'ear', flow: 'crown', parting: 'none', top: 9, sides: 9, back: 9, lift: 4.5, curl: 0.9, curlRate: 5, stand: 0.15 },
  { ...base, name: 'bob', length: 'chin', flow: 'parting', parting: 'centre', top: 20, sides: 17, back: 17, lift: 1.2 },
  { ...base, name: 'chin-fringe', length: 'chin', flow: 'parting', parting: 'none', top: 20, sides: 17, back: 17, fringe: 0.85, lift: 1.2 },
  { ...base, name: 'shoulder-straight', length: 'shoulder', flow: 'parting', parting: 'centre', top: 30, sides: 28, back: 28, lift: 1 },
  { ...base, name: 'long-straight', length: 'long', flow: 'parting', parting: 'right', top: 42, sides: 40, back: 40, lift: 1 },
  { ...base, name: 'long-wavy', length: 'long', flow: 'parting', parting: 'centre', top: 42, sides: 40, back: 40, lift: 1.6, curl: 1.2, curlRate: 1.2 },
  { ...base, name: 'ponytail', length: 'long', flow: 'gather', parting: 'none', top: 14, sides: 12, back: 8, lift: 0.4, gather: { at: [0, 4, -15.5], tail: 30, bun: 0 } },
  { ...base, name: 'bun', length: 'long', flow: 'gather', parting: 'none', top: 14, sides: 12, back: 8, lift: 0.4, gather: { at: [0, 11, -14.5], tail: 0, bun: 3.6 } },
  { ...base, name: 'tucked-shoulder', length: 'shoulder', flow: 'parting', parting: 'left', top: 30, sides: 28, back: 28, lift: 0.8, tucked: true },
];

/** Length classes in order, for distances between an observed and a style's length. */
export const LENGTH_ORDER: readonly HairLength[] = ['none', 'shaved', 'short', 'ear', 'chin', 'shoulder', 'long'];
