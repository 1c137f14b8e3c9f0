import type { InjuryDiceUnless } from '../model/keywords.js';
import type { EffectSource, Unmodelled } from '../model/profiles.js';
import type { FieldValue, ProfileRole } from '../model/types.js';
import type { CatalogueLoadout } from './read-roster.js';

/**
 * The draft of one imported profile: what roster.ts reads for a selection before names are settled. Its
 * own module because the modules that fill it in (entry-text.ts, entry-costs.ts) and the one that walks
 * the roster (roster.ts) all use it, and none of them may import roster.ts (no circle).
 */

/** What was read for one profile before names are settled. */
export interface Draft {
  name: string;
  readonly role: ProfileRole;
  readonly fields: Record<string, FieldValue>;
  readonly keywords: string[];
  /** A model's injury dice with a condition on the attacking weapon (rules text read whole), as data. */
  readonly injuryDiceUnless?: InjuryDiceUnless[];
  readonly unmodelled: Unmodelled[];
  /**
   * A model's sentences about its own attacks that are not read (rules-text.ts): they stop each
   * "MODEL with WEAPON", not the model as a target.
   */
  readonly ownAttackText: Unmodelled[];
  /** Where each effect came from (`profiles --explain`). */
  readonly sources: EffectSource[];
  readonly cost?: number;
  /** Its price in the roster's other cost types (a mercenary's Glory Points). */
  readonly otherCosts?: Readonly<Record<string, number>>;
  /** Whose price the cost is (a catalogue's faction), and what a different one of the same name is called after. */
  readonly priceOf?: string;
  /** The catalogue that holds it: what a different one of the same name, priced by no faction, is called after. */
  readonly catalogue?: string;
  /** The faction whose link offers it: what a different one of the same name, not priced apart, is called after (its loadout differs). */
  readonly offeredBy?: string;
  /** A catalogue's weapon: the ids of the links (or entries) it was read from, which a model's loadout names. */
  readonly origins?: readonly string[];
  /** A catalogue's model: the weapons it may carry, by those ids, and what could not be evaluated. */
  readonly loadout?: CatalogueLoadout;
  /** A model's weapons, and its Melee and Ranged dice, for "MODEL with WEAPON". */
  readonly weapons: Draft[];
  readonly dice?: Readonly<Record<string, string>>;
}
