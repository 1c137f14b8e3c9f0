import { describe, expect, it } from 'vitest';
import { readModelSentence, readWeaponSentence, sentencesOf, type TextContext } from '../src/import/rules-text.js';
import { CARRY_ON_FORMS, SENTENCE_FORMS, classBySentenceForms } from '../src/import/sentence-forms/classify.js';
import { join, type SentenceClass } from '../src/import/sentence-forms/form.js';

/**
 * Issue 48: a sentence not read is classed by the form it matches, never by a word alone. Every form of
 * the table is tested on its own invented examples (no catalogue text), through the whole classifier: an
 * example another form of a different class also matches would be unclear, and fail here.
 */

const context: TextContext = { names: ['Lantern Warden'], keyword: (name) => (['FIRE', 'GAS', 'SHRAPNEL'].includes(name) ? name : undefined), effectKeywords: undefined, fieldSpec: () => undefined };
const classOf = (sentence: string, previous?: SentenceClass) => {
  const r = readModelSentence(sentence, context, previous);
  return r.kind === 'classed' ? r.touches : 'read';
};

describe('the table of sentence forms', () => {
  it.each(SENTENCE_FORMS.flatMap((f) => f.examples.map((e) => [f.name, f.touches, e] as const)))('%s: "%s" is classed so (%s)', (_name, touches, example) => {
    expect(classBySentenceForms(example, 'none', () => ({ touches: 'unclear', forms: [] }))?.touches).toBe(touches);
  });

  it('every form has a name and examples, and no two forms share a name', () => {
    const names = SENTENCE_FORMS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of SENTENCE_FORMS) expect(f.pattern.flags).toContain('i');
  });

  it('an ACTION of its own touches no roll, but a Fight, Shoot or attack ACTION with dice is not that form', () => {
    expect(classOf('A Lantern Warden can take a Vigil ACTION with +1 DICE')).toBe('none');
    expect(classOf('A Lantern Warden can make a Melee Attack ACTION with +1 DICE')).toBe('unclear');
    expect(classOf('A Lantern Warden may take a Fight ACTION with +1 DICE')).toBe('unclear');
  });

  it("a form's subject naming another model makes it that entry's rule: it touches none of this one's questions", () => {
    expect(classOf('The first time the Lantern Warden suffers an Out of Action result on the Injury Table, it is treated as a Minor Hit result instead')).toBe('target');
    expect(classOf('The first time the Glass Saint suffers an Out of Action result on the Injury Table, it is treated as a Minor Hit result instead')).toBe('none');
    expect(classOf('You can re-roll failed Success Rolls for a Glass Saint')).toBe('none');
    expect(classOf('You can re-roll failed Success Rolls for the model')).toBe('attacker');
  });

  it('a form classes the whole sentence, never a part of it', () => {
    // The activation form, with a clause about the attack after it: no longer the form's sentence.
    expect(classOf("If the roll is a Failure, the Lantern Warden's Activation ends and add +1 INJURY DICE to its attacks")).toBe('unclear');
    expect(classOf("If the roll is a Failure, the Lantern Warden's Activation ends")).toBe('none');
  });

  it('words alone class nothing: flavour that names injuries is no roll only by its form; an unknown sentence about the odds is unclear', () => {
    expect(classOf('Due to their knowledge of old wounds, the Wardens are experts at inflicting lasting injuries')).toBe('none');
    expect(classOf('The Wardens are experts at inflicting lasting injuries')).toBe('unclear');
    expect(classOf('The Warden hums a hymn while it walks')).toBe('none');
  });

  it('forms of two classes that both match a sentence make it unclear, whatever their order; two of one class agree', () => {
    const unclear = () => ({ touches: 'unclear' as const, forms: [] });
    const own = { name: 'own', touches: 'attacker' as const, pattern: /^the bells ring$/i, examples: ['the bells ring'] as [string] };
    const against = { name: 'against', touches: 'target' as const, pattern: /^the bells \w+$/i, examples: ['the bells ring'] as [string] };
    const alsoOwn = { ...own, name: 'also own' };
    for (const forms of [[own, against], [against, own]]) expect(classBySentenceForms('the bells ring', undefined, unclear, forms)).toEqual({ touches: 'unclear', forms: forms.map((f) => f.name) });
    expect(classBySentenceForms('the bells ring', undefined, unclear, [own, alsoOwn])?.touches).toBe('attacker');
  });
});

describe('openings that carry on the sentence before', () => {
  it.each(CARRY_ON_FORMS.flatMap((f) => f.examples.map((e) => [f.name, e] as const)))('%s: "%s"', (_name, example) => {
    expect(CARRY_ON_FORMS.some((f) => f.opening.test(example))).toBe(true);
  });

  it("the rest is classed on its own and joined with the sentence before: an ACTION's result that adds dice to its attacks touches them", () => {
    expect(classOf('If the roll is a Success or Critical Success, add +2 DICE to rolls for Ranged Attacks made by the model', 'none')).toBe('attacker');
    expect(classOf('If the roll is a Success or Critical Success, you can move the model D3"', 'none')).toBe('none');
    // The same result after a sentence about attacks against the model: both, so unclear.
    expect(classOf('If the roll is a Success or Critical Success, add +2 DICE to rolls for Ranged Attacks made by the model', 'target')).toBe('unclear');
    // Carrying on nothing (the first sentence of a text): unclear.
    expect(classOf('If they do so, take a Success Roll for the model')).toBe('unclear');
    expect(classOf('If they do so, take a Success Roll for the model', 'none')).toBe('none');
  });

  it('an example adds nothing: it is the class of the rule it illustrates', () => {
    expect(classOf('For example, if you roll a 9, add +1 INJURY DICE to the roll', 'attacker')).toBe('attacker');
    expect(classOf('For example, if you roll a 9, add +1 INJURY DICE to the roll', 'none')).toBe('none');
  });

  it('join: the same class, what one adds to none, and a target with an attacker is unclear', () => {
    expect(join('none', 'target')).toBe('target');
    expect(join('attacker', 'none')).toBe('attacker');
    expect(join('attacker', 'target')).toBe('unclear');
    expect(join('unclear', 'none')).toBe('unclear');
  });
});

describe('what a sentence read into an effect, or naming another model, is', () => {
  it('a form read whole is read; one naming another model is that model\'s rule and touches none', () => {
    expect(classOf('Add -1 INJURY DICE to Injury Rolls for a Lantern Warden')).toBe('read');
    const other = readModelSentence('Add -1 INJURY DICE to Injury Rolls for a Glass Saint', context);
    expect(other).toEqual({ kind: 'classed', touches: 'none', why: "it names a Glass Saint: another entry's rule, never this one's" });
    // A subject that is a clause, not a name, is not another model: unclear.
    expect(classOf('Add -1 INJURY DICE to Injury Rolls for a model within 3" of the Lantern Warden')).toBe('unclear');
  });

  it("a weapon's sentence is classed by the same forms: a move after the attack touches none, an unknown rule about its roll is unclear", () => {
    const weaponClass = (s: string) => {
      const r = readWeaponSentence(s, context);
      return r.kind === 'classed' ? r.touches : 'read';
    };
    expect(weaponClass('You can move the model D3"')).toBe('none');
    expect(weaponClass('This weapon rolls its injuries twice and keeps the worse')).toBe('unclear');
  });

  it('a saint\'s "St." does not end a sentence, and a missing space after a full stop does', () => {
    expect(sentencesOf('If the roll is a Failure, the Disciple of St. Ash\'s Activation ends.')).toEqual(["If the roll is a Failure, the Disciple of St. Ash's Activation ends"]);
    expect(sentencesOf('A Warden can take a Vigil ACTION.If it does so, take a Success Roll for the Warden.')).toEqual(['A Warden can take a Vigil ACTION', 'If it does so, take a Success Roll for the Warden']);
  });
});

describe('docs/import.md', () => {
  it('lists every form by its name, under its class', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../docs/import.md', import.meta.url), 'utf8');
    const listed = doc.slice(doc.indexOf('The forms of each class'), doc.indexOf('The rulings behind the class'));
    for (const f of SENTENCE_FORMS) {
      const classAt = listed.indexOf(`- \`${f.touches}\``);
      const at = listed.indexOf(`  - ${f.name}\n`);
      expect(at, f.name).toBeGreaterThan(classAt);
      expect(classAt).toBeGreaterThanOrEqual(0);
      // Under its own class: no other class's heading comes between them.
      expect(listed.slice(classAt + 1, at).match(/^- `/gm) ?? [], f.name).toHaveLength(0);
    }
  });
});
