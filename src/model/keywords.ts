import { suggestFlags } from '../suggest.js';
import { listAllowed, showValue } from '../errors.js';
import { refusal } from '../messages.js';
import type { FieldValue, ProfileRole, RuleTable, SystemSpec } from './types.js';

/**
 * Keywords on profiles ("IGNORE ARMOUR", "ARMOUR PIERCING 2") turned into the field values the rule
 * table maps them to. The table is the scenario's (an edition's or a variant's), so a variant can change
 * what a keyword does or add one; a name the table does not know is refused, never dropped.
 */

/** "armour  piercing 2" -> { name: "ARMOUR PIERCING", n: 2 }: case and spacing as written do not matter. */
export function parseKeyword(text: string): { name: string; n?: number } {
  const words = text.trim().toUpperCase().split(/\s+/);
  const last = words[words.length - 1] ?? '';
  if (words.length > 1 && /^\d+$/.test(last)) return { name: words.slice(0, -1).join(' '), n: Number(last) };
  return { name: words.join(' ') };
}

/**
 * A target's injury dice that hold unless the attacking weapon has one of the keywords named: the
 * ability "-1 INJURY DICE UNLESS FIRE/GAS" (issue "Real warbands") as data; or, with `onlyIf`, only when
 * it has one of them: "-1 INJURY DICE IF GAS" (issue 48: the real Artillery Witch's "-1 INJURY DICE to
 * rolls for an Artillery Witch that has been hit by an attack with the GAS Keyword"). A roster's reader
 * builds it from a sentence; a scenario's keywords and a profiles file's `injuryDiceUnless` give it too.
 */
export interface InjuryDiceUnless {
  readonly dice: number;
  /** Keyword names of the rule table, e.g. ["FIRE", "GAS"]. */
  readonly unless: readonly string[];
  /** Keyword names of the rule table one of which the weapon must have for the dice to hold (absent: any weapon). */
  readonly onlyIf?: readonly string[];
}

/** "-1 INJURY DICE UNLESS FIRE/GAS" as written in a keyword list: case and spacing do not matter. */
export function parseInjuryDiceUnless(text: string): InjuryDiceUnless | undefined {
  const match = /^([+-]\d+) INJURY DICE (UNLESS|IF) (.+)$/.exec(text.trim().toUpperCase().replace(/\s+/g, ' '));
  if (!match) return undefined;
  const names = match[3]!.split('/').map((k) => parseKeyword(k).name).filter((k) => k !== '');
  return match[2] === 'IF' ? { dice: Number(match[1]), unless: [], onlyIf: names } : { dice: Number(match[1]), unless: names };
}

/** The keyword-list form of a condition, as a designer writes it and `profiles` shows it. */
export function injuryDiceUnlessText(c: InjuryDiceUnless): string {
  const dice = `${c.dice > 0 ? '+' : ''}${c.dice} INJURY DICE`;
  return [dice, ...(c.unless.length ? [`UNLESS ${c.unless.join('/')}`] : []), ...(c.onlyIf?.length ? [`IF ${c.onlyIf.join('/')}`] : [])].join(' ');
}

/**
 * The dice of the conditions that hold against a weapon with `weaponKeywords` (none of its UNLESS
 * keywords on the weapon), summed. A name after UNLESS that the rule table does not know is refused:
 * a misspelt FIRE would otherwise never match and keep the dice against fire.
 */
export function injuryDiceUnlessTotal(rules: RuleTable, conditions: readonly InjuryDiceUnless[], weaponKeywords: readonly string[], at: string): number {
  const table = (rules.keywords ?? {}) as Readonly<Record<string, unknown>>;
  const weaponNames = new Set(weaponKeywords.map((k) => parseKeyword(k).name));
  let total = 0;
  for (const c of conditions) {
    for (const k of [...c.unless, ...(c.onlyIf ?? [])]) {
      if (!(k in table)) {
        const guess = suggestFlags(k, Object.keys(table));
        throw refusal(
          `${at}: ${showValue(injuryDiceUnlessText(c))}`,
          `${showValue(k)} is not a keyword of the rule table${guess.length ? ` (did you mean ${guess.map((g) => showValue(g)).join(' or ')}?)` : ''}`,
          `allowed after UNLESS or IF: ${listAllowed(Object.keys(table))}, separated by "/"`,
        );
      }
    }
    const holds = !c.unless.some((k) => weaponNames.has(k)) && (c.onlyIf === undefined || c.onlyIf.length === 0 || c.onlyIf.some((k) => weaponNames.has(k)));
    if (holds) total += c.dice;
  }
  return total;
}

/**
 * A model's "-1 INJURY DICE" as a scenario or profile writes it, with or without "UNLESS K": the plain
 * form acts on every injury roll against the model (its `unless` is empty). The roster reader reads the
 * plain form as the modifier it is (weapon-keywords.ts); scenario keywords take both.
 */
export function parseTargetInjuryDice(text: string): InjuryDiceUnless | undefined {
  const unless = parseInjuryDiceUnless(text);
  if (unless) return unless;
  const plain = /^([+-]\d+) INJURY DICE$/.exec(text.trim().toUpperCase().replace(/\s+/g, ' '));
  return plain ? { dice: Number(plain[1]), unless: [] } : undefined;
}

/** The field a target's "-N INJURY DICE" ability gives. */
const TARGET_INJURY_DICE = 'targetInjuryDice';

/**
 * A weapon's bonus that holds only against a target with one of the keywords named, as a keyword token
 * ("+1 INJURY DICE VS BLACK GRAIL/DEMONIC", "+1 BLOOD MARKERS VS HERETIC"): issue 48, the real Holy
 * Grenade's "Add +1 INJURY DICE to rolls against models that have the BLACK GRAIL or DEMONIC Keyword", the
 * Gavel of Justice's "place 2 BLOOD MARKERS next to it instead of 1" against BLACK GRAIL, DEMONIC or
 * HERETIC. It reads the target model's keywords (its profile's and the scenario's targetKeywords).
 */
export interface BonusVsKeywords {
  /** The stacking weapon field it adds to. */
  readonly field: 'injuryDice' | 'extraBloodMarkers';
  readonly value: number;
  /** Keyword names of the rule table; the bonus holds against a target with any of them. */
  readonly vs: readonly string[];
}

const BONUS_FIELDS: Readonly<Record<string, BonusVsKeywords['field']>> = { 'INJURY DICE': 'injuryDice', 'BLOOD MARKER': 'extraBloodMarkers', 'BLOOD MARKERS': 'extraBloodMarkers' };

/** "+1 INJURY DICE VS BLACK GRAIL/DEMONIC" as written in a keyword list: case and spacing do not matter. */
export function parseBonusVsKeywords(text: string): BonusVsKeywords | undefined {
  const match = /^([+-]\d+) (INJURY DICE|BLOOD MARKERS?) VS (.+)$/.exec(text.trim().toUpperCase().replace(/\s+/g, ' '));
  if (!match) return undefined;
  const vs = match[3]!.split('/').map((k) => parseKeyword(k).name).filter((k) => k !== '');
  return vs.length ? { field: BONUS_FIELDS[match[2]!]!, value: Number(match[1]), vs } : undefined;
}

/** The keyword-list form of a weapon's bonus against keywords, as `profiles` shows it and a designer writes it. */
export function bonusVsKeywordsText(b: BonusVsKeywords): string {
  const what = b.field === 'injuryDice' ? 'INJURY DICE' : Math.abs(b.value) === 1 ? 'BLOOD MARKER' : 'BLOOD MARKERS';
  return `${b.value > 0 ? '+' : ''}${b.value} ${what} VS ${b.vs.join('/')}`;
}

/**
 * What a weapon's bonuses against keywords among `keywords` add against a target with `targetKeywords`:
 * field by field, summed, to be added on top of the weapon's other fields (they stack). A name after VS
 * that the table does not know, or a field the system's weapons do not have, is refused.
 */
export function bonusesVsKeywords(rules: RuleTable, system: SystemSpec, keywords: readonly string[], targetKeywords: readonly string[], at: string): Record<string, number> {
  const own = roleFields(system, 'weapon');
  const out: Record<string, number> = {};
  for (const text of keywords) {
    const vs = parseBonusVsKeywords(text);
    if (!vs) continue;
    if (!own.has(vs.field)) throw refusal(at, `${showValue(text)} gives ${vs.field}, which is not a weapon field of ${system.id}`);
    const holds = bonusVsKeywords(rules, vs, targetKeywords, at, text);
    if (holds) out[holds.field] = (out[holds.field] ?? 0) + holds.value;
  }
  return out;
}

/**
 * The bonus a weapon's condition on keywords gives against a target with `targetKeywords`, or undefined
 * when it does not hold. A name after VS that the rule table does not know is refused: a misspelt
 * DEMONIC would never match and drop the bonus without a word.
 */
function bonusVsKeywords(rules: RuleTable, b: BonusVsKeywords, targetKeywords: readonly string[], at: string, text: string): BonusVsKeywords | undefined {
  const table = (rules.keywords ?? {}) as Readonly<Record<string, unknown>>;
  for (const k of b.vs) {
    if (!(k in table)) {
      const guess = suggestFlags(k, Object.keys(table));
      throw refusal(
        `${at}: ${showValue(text)}`,
        `${showValue(k)} is not a keyword of the rule table${guess.length ? ` (did you mean ${guess.map((g) => showValue(g)).join(' or ')}?)` : ''}`,
        `allowed after VS: ${listAllowed(Object.keys(table))}, separated by "/"`,
      );
    }
  }
  const names = new Set(targetKeywords.map((k) => parseKeyword(k).name));
  return b.vs.some((k) => names.has(k)) ? b : undefined;
}

/**
 * Why a keyword of the table cannot stand as written on a profile of one side: it needs its number, it
 * takes none, or it gives a field that side does not give. Undefined when it can. (Profiles refuse the
 * misuse when used; a roster lists it as not modelled instead.)
 */
export function keywordMisuse(
  effects: Readonly<Record<string, FieldValue>>,
  n: number | undefined,
  own: ReadonlySet<string>,
): { readonly problem: 'needs a number' | 'takes no number' } | { readonly problem: 'other side'; readonly field: string } | undefined {
  const wantsN = Object.values(effects).includes('N');
  if (wantsN && n === undefined) return { problem: 'needs a number' };
  // A keyword of no effect here reads whatever number it carries (BLAST 3": its distance) and ignores it.
  if (!wantsN && n !== undefined && Object.keys(effects).length > 0) return { problem: 'takes no number' };
  const field = Object.keys(effects).find((f) => !own.has(f));
  return field === undefined ? undefined : { problem: 'other side', field };
}

/**
 * Keywords that make a model immune to FEAR when it attacks, besides FEAR itself (read from the table):
 * NEGATE FEAR, and GOLEM, whose rule in the game system file gives it NEGATE FEAR (ruling T25).
 */
const IMMUNE_TO_FEAR: ReadonlySet<string> = new Set(['NEGATE FEAR', 'GOLEM']);

/** The model keywords that make it an attacker a FEAR target does not hinder, as written: FEAR and IMMUNE_TO_FEAR's. */
export function fearlessKeywords(keywords: readonly string[]): string[] {
  return keywords.filter((k) => IMMUNE_TO_FEAR.has(parseKeyword(k).name) || parseKeyword(k).name === 'FEAR');
}

/**
 * Does a model with these keywords attack unhindered by a FEAR target (attackerFear)? It has FEAR by the
 * rule table's reading of its keywords, or is immune to FEAR. Read for "MODEL with WEAPON" (src/import)
 * and for a duel side's model carrying a weapon read apart from it (src/input/sides.ts): one reading.
 */
export function fearlessAttacker(rules: RuleTable, system: SystemSpec, keywords: readonly string[], at: string): boolean {
  return keywordFields(rules, system, 'model', keywords, at).fear === true || keywords.some((k) => IMMUNE_TO_FEAR.has(parseKeyword(k).name));
}

/** The fields a role's profile may give, by name. */
export function roleFields(system: SystemSpec, role: ProfileRole): Set<string> {
  return new Set(system.fields.filter((f) => f.profile === role).map((f) => f.name));
}

/**
 * The field values of a profile's keywords, in order. Fields declared `stacks` (dice, modifiers,
 * markers) add up over the keywords, as bonuses from several sources do; for the others a later
 * keyword's value wins.
 */
export function keywordFields(
  rules: RuleTable,
  system: SystemSpec,
  role: ProfileRole,
  keywords: readonly string[],
  at: string,
  /**
   * The other side's keywords a condition reads: for a model, the weapon's ("-N INJURY DICE UNLESS K");
   * for a weapon, the target model's ("+1 INJURY DICE VS K").
   */
  otherKeywords: readonly string[] = [],
): Record<string, FieldValue> {
  if (keywords.length === 0) return {};
  const table = rules.keywords;
  if (typeof table !== 'object' || table === null) throw refusal(at, `${system.id} has no keywords in its rule table yet`, 'allowed: fields only');
  // Every keyword's name, for a refusal's list only: a variant may add hundreds, and this runs per cell.
  const names = (): string[] => Object.keys(table);
  const own = roleFields(system, role);
  const stacking = new Set(system.fields.filter((f) => f.stacks).map((f) => f.name));
  const out: Record<string, FieldValue> = {};
  const add = (field: string, given: FieldValue) => {
    const before = out[field];
    out[field] = stacking.has(field) && typeof before === 'number' && typeof given === 'number' ? before + given : given;
  };
  // A keyword listed twice is one keyword (catalogues repeat them): FIRE, FIRE is one marker, not two.
  const seen = new Set<string>();
  for (const text of keywords) {
    const normal = text.trim().toUpperCase().replace(/\s+/g, ' ');
    if (seen.has(normal)) continue;
    seen.add(normal);
    const unless = role === 'model' ? parseTargetInjuryDice(text) : undefined;
    if (unless) {
      const dice = injuryDiceUnlessTotal(rules, [unless], otherKeywords, at);
      if (dice !== 0) add(TARGET_INJURY_DICE, dice);
      continue;
    }
    // A weapon's bonus against keywords adds on top of everything else (bonusesVsKeywords), as a target's
    // UNLESS adds to its dice: a profile's own extraBloodMarkers would otherwise hide it.
    if (role === 'weapon' && parseBonusVsKeywords(text)) continue;
    const { name, n } = parseKeyword(text);
    const effects = (table as Record<string, unknown>)[name] as Record<string, FieldValue> | undefined;
    if (effects === undefined) {
      const guess = suggestFlags(name, names());
      throw refusal(
        at,
        `${showValue(text)} is not a keyword of the rule table${guess.length ? ` (did you mean ${guess.map((g) => showValue(g)).join(' or ')}?)` : ''}`,
        `allowed: ${listAllowed(names())} (a variant can add one)`,
      );
    }
    const misuse = keywordMisuse(effects, n, own);
    if (misuse?.problem === 'needs a number') throw refusal(at, `${showValue(text)} needs its number, e.g. "${name} 1"`);
    if (misuse?.problem === 'takes no number') throw refusal(`${at}: ${showValue(text)}`, `${name} takes no number`, `allowed: "${name}"`);
    if (misuse?.problem === 'other side') {
      throw refusal(at, `${showValue(text)} gives ${misuse.field}, which is not a ${role} field`, `allowed on a ${role}: keywords giving ${listAllowed([...own])}`);
    }
    for (const [field, value] of Object.entries(effects)) add(field, value === 'N' ? n! : value);
  }
  return out;
}
