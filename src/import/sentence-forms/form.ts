import type { SentenceClass, Touches } from '../../model/profiles.js';

/**
 * A sentence of rules text that injury-lab does not read into an effect is classed by what it touches
 * (docs/import.md, "What a sentence touches"): the questions whose answer it could change. A class
 * comes from a form the whole sentence matches, never from a word alone ("experts at inflicting
 * debilitating injuries" is flavour; "If the roll is a Failure, the model's Activation ends" touches no
 * attack), and a sentence no form classes stops every question that uses its entry.
 */

/**
 * What a sentence touches (declared with the profiles that carry it):
 * - `target`: rolls made against the model (it stops the model as a target);
 * - `attacker`: the model's own attacks (it stops each weapon in the model's hands);
 * - `weapon`: this weapon's attack (it stops the weapon);
 * - `fight`: what follows one attack when the models fight on (markers placed on the attacker, an
 *   activation that ends, a redeploy after a missed attack, markers that act on later rolls): it stops
 *   the kinds in which they do (a sequence, a duel: KindSpec.fightsOn), never a single attack;
 * - `option`: a choice its player may make, or a situation around it, that the question does not take
 *   (a spell cast when it is hurt, an option chosen before the game, friends near it): answered without
 *   it, never stopping, and said with the answer;
 * - `none`: no roll of a single attack (an activation, a move, the campaign, other models, flavour):
 *   listed, never stopping;
 * - `unclear`: no form classes it, or forms that disagree: it stops every question its entry is in.
 */
export type { SentenceClass, Touches };

export interface SentenceForm {
  /** What the form is, as `profiles --explain` and docs/import.md name it. */
  readonly name: string;
  readonly touches: Touches;
  /**
   * The whole sentence, in plain text (rules-text.ts plainText, no final full stop), matched without
   * regard to case. Anchored at both ends: a form never classes part of a sentence. A group named
   * `subject` is the model the sentence is about: where that is a plain name of another model, the
   * sentence is that entry's rule and touches none of this one's questions.
   */
  readonly pattern: RegExp;
  /** Invented sentences the form must class (test/sentence-forms.test.ts); never catalogue text. */
  readonly examples: readonly [string, ...string[]];
  /**
   * The form is a lead-in to another model's rules or commands ("... can command any other friendly
   * model to do one of the following:"): the sentences after its colon are that model's, and touch no
   * question of this one's (rules-text.ts, entry-text.ts addText).
   */
  readonly listIsAnotherModels?: true;
  /**
   * The form opens an option (a spell its player may cast, a choice made before the game): the sentences
   * after it in the same text are what the option does, and hold only when it is taken (class `option`).
   */
  readonly restIsTheOption?: true;
  /**
   * The form is an ACTION the model may take (a choice of its activation, `none` itself): what the
   * sentences after it in the same text do to an attack holds only when it is taken. One a form classes as
   * touching an attack is an option instead (answered without, said: the Trample ACTION's own melee
   * attack, a ritual's redirected bomb); one that touches none stays none, an unclear one still stops, and
   * one read whole is read (the catalogue has none: a rule glued after an ACTION's text is still a rule).
   */
  readonly restIsAChoice?: true;
  /**
   * An option about the model's own attacks (a charge's bonus, friends near the attacker, a spell for its
   * own attack): said with each weapon in its hands, not when it is the target (Profile.ownAttackText).
   */
  readonly ofItsAttacks?: true;
}

/**
 * The opening of a sentence that carries on the one before it ("If it does so, ...", "If the roll is a
 * Success, ..."): what follows it is classed by the forms on its own, and the sentence is that class and
 * the one before it together (join). So the result of an ACTION that adds dice to the model's own
 * attacks touches its attacks, and one that moves a friend touches nothing.
 */
export interface CarryOnForm {
  readonly name: string;
  /** Anchored at the start; what it leaves is the rest of the sentence. */
  readonly opening: RegExp;
  /** It only illustrates the sentence before ("For example, ..."): what follows adds nothing of its own. */
  readonly illustrates?: boolean;
  readonly examples: readonly [string, ...string[]];
}

/**
 * Two classes together: the same, or what one adds to `none`; `option` with any other is the other
 * (what stops wins over what is said); `fight` with the target's or the weapon's is theirs (they stop
 * every kind, fights too); a target's and an attacker's together are unclear.
 */
export function join(a: SentenceClass, b: SentenceClass): SentenceClass {
  if (a === b) return a;
  if (a === 'none') return b;
  if (b === 'none') return a;
  if (a === 'option' || b === 'option') return a === 'option' ? b : a;
  if (a === 'fight' && (b === 'target' || b === 'weapon')) return b;
  if (b === 'fight' && (a === 'target' || a === 'weapon')) return a;
  return 'unclear';
}

/** How a class is said in listings and messages. */
export const CLASS_TEXT: Readonly<Record<SentenceClass, string>> = {
  target: 'touches rolls against the model',
  attacker: "touches the model's own attacks",
  weapon: "touches this weapon's attack",
  fight: 'touches what follows the attack when the models fight on (it stops duels and sequences, not one attack)',
  option: 'a choice or situation the question does not take: answered without it, and said',
  none: 'touches no roll of a single attack',
  unclear: 'what it touches is unclear',
};
