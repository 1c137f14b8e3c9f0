import { join, type CarryOnForm, type SentenceClass, type SentenceForm } from './form.js';
import { AGAINST_IT_FORMS } from './against-it.js';
import { CARRY_ON_FORMS, NO_ROLL_FORMS } from './no-roll.js';
import { OWN_ATTACK_FORMS } from './own-attacks.js';
import { AFTER_ATTACK_FORMS } from './after-attack.js';
import { OPTION_FORMS } from './options.js';
import { WEAPON_ATTACK_FORMS } from './weapon-attack.js';

/** Every form, by what it touches (each file one class). */
export const SENTENCE_FORMS: readonly SentenceForm[] = [...NO_ROLL_FORMS, ...AGAINST_IT_FORMS, ...OWN_ATTACK_FORMS, ...WEAPON_ATTACK_FORMS, ...AFTER_ATTACK_FORMS, ...OPTION_FORMS];
export { CARRY_ON_FORMS };

/** What the forms say of a sentence: its class and the forms that gave it. */
export interface FormClass {
  readonly touches: SentenceClass;
  /** The names of the forms that classed it, its opening's first. */
  readonly forms: readonly string[];
  /** A form that classed it leads in to another model's rules (SentenceForm.listIsAnotherModels). */
  readonly othersFollow?: true;
  /** A form that classed it opens an option: the sentences after it are what the option does (SentenceForm.restIsTheOption). */
  readonly optionFollows?: true;
  /** A form that classed it is an ACTION the model may take: what follows is under it (SentenceForm.restIsAChoice). */
  readonly choiceFollows?: true;
  /** An option about the model's own attacks (SentenceForm.ofItsAttacks). */
  readonly ofItsAttacks?: true;
}

/**
 * The class the forms give a sentence. Whole-sentence forms come first (a form may hold its own opening:
 * "Instead, measure a straight line ..." is how a weapon without a Success Roll chooses whom it hits);
 * forms that disagree make it unclear, whatever their order in the table. Else an opening that carries on the sentence before it (CARRY_ON_FORMS) is taken off, the
 * rest is classed on its own (by `alone` where no form classes it), and the two are joined with
 * `previous` (the class of the sentence before it in the same text; with none before, unclear). Undefined
 * if no form classes the sentence. A form's `subject` group that `anotherModel` names as another model's
 * makes that form's class none.
 */
export function classBySentenceForms(
  sentence: string,
  previous: SentenceClass | undefined,
  alone: (rest: string) => FormClass,
  forms: readonly SentenceForm[] = SENTENCE_FORMS,
  anotherModel: (subject: string) => string | undefined = () => undefined,
): FormClass | undefined {
  const matched = forms.flatMap((f) => {
    const m = f.pattern.exec(sentence);
    if (!m) return [];
    // A form whose subject names another model ("... for an Artillery Witch that has been hit ..." on a
    // Witch Coven Matriarch) is that entry's rule: it touches none of this one's questions.
    const other = m.groups?.subject === undefined ? undefined : anotherModel(m.groups.subject);
    return [other === undefined ? { touches: f.touches, name: f.name, othersFollow: f.listIsAnotherModels, optionFollows: f.restIsTheOption, choiceFollows: f.restIsAChoice, ofItsAttacks: f.ofItsAttacks } : { touches: 'none' as const, name: `${f.name}, of ${other}: another entry's rule` }];
  });
  if (matched.length > 0) {
    let touches: SentenceClass = matched[0]!.touches;
    for (const f of matched) touches = touches === f.touches ? touches : 'unclear';
    const othersFollow = touches === 'none' && matched.some((f) => f.othersFollow) ? { othersFollow: true as const } : {};
    const optionFollows = touches === 'option' && matched.some((f) => f.optionFollows) ? { optionFollows: true as const } : {};
    const choiceFollows = touches === 'none' && matched.some((f) => f.choiceFollows) ? { choiceFollows: true as const } : {};
    const ofItsAttacks = touches === 'option' && matched.some((f) => f.ofItsAttacks) ? { ofItsAttacks: true as const } : {};
    return { touches, forms: matched.map((f) => f.name), ...othersFollow, ...optionFollows, ...choiceFollows, ...ofItsAttacks };
  }
  const opening = openingOf(sentence);
  if (opening) {
    const rest = sentence.slice(opening.length).replace(/^[\s,]+/, '');
    const restClass = opening.form.illustrates ? { touches: 'none' as const, forms: [] } : (classBySentenceForms(rest, previous, alone, forms, anotherModel) ?? alone(rest));
    const touches = join(previous ?? 'unclear', restClass.touches);
    const othersFollow = touches === 'none' && restClass.othersFollow ? { othersFollow: true as const } : {};
    const ofItsAttacks = touches === 'option' && restClass.ofItsAttacks ? { ofItsAttacks: true as const } : {};
    return { touches, forms: [opening.form.name, ...restClass.forms], ...othersFollow, ...ofItsAttacks };
  }
  return undefined;
}

/** The longest opening of the carry-on forms a sentence starts with, and its form. */
function openingOf(sentence: string): { readonly form: CarryOnForm; readonly length: number } | undefined {
  let best: { form: CarryOnForm; length: number } | undefined;
  for (const form of CARRY_ON_FORMS) {
    const m = form.opening.exec(sentence);
    if (m && m.index === 0 && m[0].length < sentence.length && (best === undefined || m[0].length > best.length)) best = { form, length: m[0].length };
  }
  return best;
}
