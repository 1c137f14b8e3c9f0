import { UsageError, showValue } from '../errors.js';
import { refusal } from '../messages.js';
import { editionTable } from '../model/edition-table.js';
import { fearlessAttacker, fearlessKeywords } from '../model/keywords.js';
import { checkProfileFields, type EffectSource, type FieldedModel, type Profile, type Profiles, type Unmodelled } from '../model/profiles.js';
import type { ProfileRole, RuleTable, SystemSpec } from '../model/types.js';
import { findSystem } from '../rules/registry.js';
import type { Draft } from './draft.js';
import { DEFAULT_MOVEMENT_INCHES } from '../rules/trench-crusade/battle/kind.js';
import { ARMOUR, MELEE, RANGED, characteristic, isAbility, isWeaponProfile, modelProfileOf, readArmour, readDice, readInches, rulesOf, visible, type ArmourItem } from './entry-characteristics.js';
import { costParts, pricing, subtreeCosts, type CostParts } from './entry-costs.js';
import { MAX_CONDITIONAL_LOOKUPS, addModelText, addRuleLink, addTokens, addWeaponText, conditionOfToken, rulesSentences, signed, type RulesSentence } from './entry-text.js';
import type { CatalogueLoadout, RosterProfile, RosterSelection, RosterTree } from './read-roster.js';
import { effectKeywordPattern, type TextContext } from './rules-text.js';
import { normaliseToken, readToken, splitKeywords, splitRunTogether, tableName, type Token } from './weapon-keywords.js';

/**
 * A roster's selections as profiles (docs/import.md): each model selection a model profile, each weapon
 * selection a weapon profile, and each weapon a model carries also as "MODEL with WEAPON", the weapon in
 * that model's hands. What the rule table does not know is kept on the profile as not modelled.
 *
 * This module walks the read tree (read-roster.ts) and settles names; what it reads of one entry is
 * apart: its characteristics (entry-characteristics.ts), its costs (entry-costs.ts) and what its
 * keywords and rules text give (entry-text.ts), each into a draft (draft.ts).
 */

/** The games whose rosters are read, by the name a roster gives its game system (lower case). */
const ROSTER_SYSTEMS: Readonly<Record<string, string>> = { 'trench crusade': 'trench-crusade' };

/** The system a roster is for; a roster of another game is refused, one that names none is taken as Trench Crusade. */
export function rosterSystem(tree: RosterTree): SystemSpec {
  const given = tree.gameSystemName?.toLowerCase();
  const id = given === undefined ? ROSTER_SYSTEMS['trench crusade'] : Object.entries(ROSTER_SYSTEMS).find(([name]) => given.includes(name))?.[1];
  const system = id === undefined ? undefined : findSystem(id);
  if (!system) {
    throw refusal(tree.label, `for ${showValue(tree.gameSystemName)}`, `allowed: a roster or catalogue of ${Object.keys(ROSTER_SYSTEMS).map((n) => showValue(n)).join(', ')}`);
  }
  return system;
}

/** The keywords of a rule table that give no field: known, and of no effect on the odds here (HEAVY, BLAST). */
function noEffectKeywords(rules: RuleTable): ReadonlySet<string> {
  const table = (rules.keywords ?? {}) as Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  return new Set(Object.entries(table).filter(([, effects]) => Object.keys(effects).length === 0).map(([name]) => name));
}

/**
 * A roster read into profiles by a rule table: the scenario's (its edition's or a variant's). A
 * catalogue is read the same way, as a roster of everything it offers (src/import/catalogue.ts).
 */
export function rosterProfiles(tree: RosterTree, rules: RuleTable, source: 'roster' | 'catalogue' = 'roster'): Profiles {
  const system = rosterSystem(tree);
  const armourTable = editionTable(system, system.defaultEdition);
  const costType = tree.costTypes[0] ?? tree.forces.flatMap((f) => f.selections.flatMap((s) => s.costs.map((c) => c.name)))[0];
  const tokens = (text: string, role: ProfileRole) =>
    splitKeywords(text).flatMap((t) => {
      const read = readToken(t, rules, system, role);
      return read.kind === 'unknown' ? (splitRunTogether(t, rules, system, role) ?? [read]) : [read];
    });
  const nameTokens = (names: readonly string[], role: ProfileRole) => names.map((n) => readToken(n, rules, system, role));
  const keywordTable = (rules.keywords ?? {}) as Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  const effectKeywords = effectKeywordPattern(Object.keys(keywordTable).filter((k) => Object.keys(keywordTable[k]!).length > 0));
  /** What rules text is read against: the entry's names and the rule table's keywords. */
  const textContext = (names: readonly string[]): TextContext => ({ names, keyword: (name) => tableName(keywordTable, normaliseToken(name)), effectKeywords, fieldSpec: (field) => system.fields.find((f) => f.name === field) });
  // Options that carry the Unit profile of the model above them (see modelProfileOf): part of that model.
  const borrowed = new Set<RosterSelection>();
  const isModel = (s: RosterSelection) => !borrowed.has(s) && modelProfileOf(s) !== undefined;
  const isWeapon = (s: RosterSelection) => !isModel(s) && visible(s).some(isWeaponProfile);
  const weaponsAt: Draft[] = [];
  const models: Draft[] = [];
  /** How many of each model draft the roster fields (its selection's number), by the draft's place in `models`. */
  const modelCounts: number[] = [];
  const unplaced: Unmodelled[] = [];
  /**
   * A catalogue's weapon profiles that a modifier shows only when an option is chosen ("Alchemical
   * Jezzail" with its ammunition): a catalogue chooses no options, so they are listed, not read.
   */
  const noteAlternatives = (s: RosterSelection) => {
    for (const p of s.profiles) {
      if (p.hidden && p.shownWhen && isWeaponProfile(p)) unplaced.push({ text: p.name, from: `weapon profile of ${s.name}`, why: 'shown only when an option is chosen (a modifier with a condition); no option is chosen in a catalogue, so it is not read', stops: false, leftOut: 'option-profile' });
    }
  };

  // A weapon profile on a model's own selection (claws, a built-in gun) is named by the profile, and the model's rules stay the model's.
  const weaponDrafts = (s: RosterSelection, profiles: readonly RosterProfile[], costs?: CostParts): Draft[] =>
    profiles.flatMap((p) => {
      const draft: Draft = {
        // A selection named as a question ("Include Weapon Profile?", an option that adds an item's weapon) is no weapon's name.
        name: profiles.length === 1 && !isModel(s) && !/\?\s*$/.test(s.name) ? s.name : p.name || s.name,
        role: 'weapon',
        fields: {},
        keywords: [],
        unmodelled: [...(costs?.offsets ?? [])],
        ownAttackText: [],
        sources: [],
        weapons: [],
        ...pricing(s, costs),
        ...(s.catalogueIds ? { origins: s.catalogueIds } : {}),
      };
      const range = (characteristic(p, 'range') ?? '').toLowerCase();
      const type = (characteristic(p, 'type') ?? '').toLowerCase();
      // A distance is a ranged weapon, even when it also says Melee (a pistol): --attack-type melee picks the other use.
      if (/\d/.test(range)) {
        draft.fields.attackType = RANGED;
        const inches = readInches(range);
        if (inches !== undefined) draft.fields.rangeInches = inches;
        // "12\"/Melee": a battle fights with it in melee too (ruling B47).
        if (range.includes(MELEE)) draft.fields.usableInMelee = true;
      }
      else if (range.includes(MELEE) || type.includes(MELEE)) draft.fields.attackType = MELEE;
      else draft.unmodelled.push({ text: `Range ${characteristic(p, 'range') || '(none)'}`, from: 'range', why: 'neither a distance nor Melee: the scenario\'s attack type applies', stops: false });
      const rulesText = rulesOf(p);
      const conditional: { token: Token & { kind: 'modifier' }; condition: string; takenAway: boolean }[] = [];
      const sentences = rulesText ? rulesSentences(rulesText) : [];
      /** The sentences that restate a token with its condition: read, as the alternative profiles below. */
      const restating = new Set<RulesSentence>();
      let lookups = 0;
      for (const c of ['keywords', 'modifiers']) {
        const read = tokens(characteristic(p, c) ?? '', 'weapon');
        for (const t of read) {
          if (t.kind !== 'modifier' || sentences.length === 0 || lookups++ >= MAX_CONDITIONAL_LOOKUPS) continue;
          const wanted = normaliseToken(t.text);
          for (const sentence of sentences) {
            const found = conditionOfToken(wanted, sentence);
            if (!found) continue;
            conditional.push({ token: t, ...found });
            restating.add(sentence);
            break;
          }
        }
        addTokens(draft, read.filter((t) => !conditional.some((x) => x.token === t && !x.takenAway)), 'keywords', true);
      }
      if (rulesText) addWeaponText(draft, rulesText, sentences.filter((x) => !restating.has(x)), restating.size > 0, textContext([draft.name]));
      if (!isModel(s)) {
        // What is selected under a weapon (special ammunition, a bayonet's keywords) is part of it: its
        // keywords are read as the weapon's own.
        for (const item of itemsUnder(s)) {
          for (const ip of visible(item)) addTokens(draft, tokens(characteristic(ip, 'keywords') ?? '', 'weapon'), 'keywords', true);
        }
        for (const r of [s, ...itemsUnder(s)].flatMap((n) => n.rules)) addRuleLink(draft, r.name);
      }
      // A modifier of the Keywords that the rules text gives only under a condition (the real catalogue's
      // Heavy Shotgun: "+1 INJURY DICE" in its Keywords, "at Short Range" in its rules): two profiles, the
      // weapon without it and "NAME (CONDITION)" with it, so both answers are there and none is guessed.
      // One the text takes away under a condition (a flail's +1 DICE, not as an Off-Hand Weapon): the
      // weapon with it, and "NAME (CONDITION)" without it.
      const withConditions = conditional.map(({ token, condition, takenAway }) => {
        const alt: Draft = { ...draft, name: `${draft.name} (${condition})`, fields: { ...draft.fields }, keywords: [...draft.keywords], unmodelled: [...draft.unmodelled], sources: [...draft.sources] };
        if (takenAway) {
          alt.sources.push({ effect: `${token.field} ${signed(-token.value)}`, from: `the rules text takes ${JSON.stringify(token.text)} away ${condition}` });
          alt.fields[token.field] = ((alt.fields[token.field] as number | undefined) ?? 0) - token.value;
          if (alt.fields[token.field] === 0) delete alt.fields[token.field];
        } else addTokens(alt, [token], 'keywords', true);
        const why = takenAway ? `the rules text takes it away ${condition}: ${JSON.stringify(alt.name)} is without it` : `the rules text gives it only ${condition}: read into ${JSON.stringify(alt.name)}`;
        draft.unmodelled.push({ text: token.text, from: 'keywords', why, stops: false });
        return alt;
      });
      return [draft, ...withConditions];
    });
  /** The selections under a weapon that are neither weapons nor models: its items. */
  const itemsUnder = (s: RosterSelection): RosterSelection[] => {
    const out: RosterSelection[] = [];
    const stack = [...s.selections];
    for (let node = stack.shift(); node; node = stack.shift()) {
      if (isModel(node) || isWeapon(node)) continue;
      out.push(node);
      stack.push(...node.selections);
    }
    return out;
  };
  /** The weapons and models under a weapon: read on their own. */
  const beneathWeapon = (s: RosterSelection): RosterSelection[] => {
    const out: RosterSelection[] = [];
    const stack = [...s.selections];
    for (let node = stack.shift(); node; node = stack.shift()) {
      if (isModel(node) || isWeapon(node)) out.push(node);
      else stack.push(...node.selections);
    }
    return out;
  };

  /** Walks a model's subtree: its weapons, and the keywords of its items and abilities. */
  const readModel = (s: RosterSelection): Draft => {
    const { profile, from } = modelProfileOf(s)!;
    if (from !== s) borrowed.add(from);
    const costs = costParts(subtreeCosts(s, isModel), costType);
    const draft: Draft = { name: s.name, role: 'model', fields: {}, keywords: [], injuryDiceUnless: [], unmodelled: [...costs.offsets, ...loadoutNotes(s.loadout)], ownAttackText: [], sources: [], weapons: [], dice: {}, ...pricing(s, costs), ...(s.loadout ? { loadout: s.loadout } : {}) };
    let hasShield = false;
    let shieldItem: string | undefined;
    /** Armour items met in the model's tree ("Reinforced Armour"), wherever they sit. */
    const armourItems: ArmourItem[] = [];
    /** A shield or an armour item among a selection's profiles: a shield can sit in a weapon's selection ("Polearm and Shield"). */
    const noteProtection = (p: RosterProfile) => {
      const type = (characteristic(p, 'type') ?? '').toLowerCase();
      if (type === 'shield') {
        hasShield = true;
        shieldItem ??= p.name;
      }
      else if (type === 'armour' || type === 'armor') {
        const modifier = tokens(characteristic(p, 'keywords') ?? '', 'model').find((t) => t.kind === 'modifier' && t.armourModifier);
        armourItems.push({ name: p.name, ...(modifier?.kind === 'modifier' ? { modifier: modifier.value } : {}) });
      }
    };
    // What its text may call it: the roster's names, the catalogue entry's (a renamed model keeps its rules) and its Unit profile's.
    const selfNames = [...new Set([s.name, s.entryName, from.name, from.entryName, profile.name].filter((n): n is string => n !== undefined && n !== ''))];
    const stack: RosterSelection[] = [s];
    for (let node = stack.pop(); node; node = stack.pop()) {
      if (node !== s && isWeapon(node)) {
        noteAlternatives(node);
        draft.weapons.push(...weaponDrafts(node, visible(node).filter(isWeaponProfile), costParts(subtreeCosts(node, () => false), costType)));
        for (const item of [node, ...itemsUnder(node)]) for (const p of visible(item)) if (!isWeaponProfile(p)) noteProtection(p);
        // A weapon's items are the weapon's (weaponDrafts); a weapon or model under it is read on its own.
        stack.push(...beneathWeapon(node).reverse());
        continue;
      }
      if (node !== s && isModel(node)) {
        models.push(readModel(node));
        modelCounts.push(node.number);
        continue;
      }
      for (const p of visible(node)) {
        if (isAbility(p)) {
          const named = nameTokens([p.name], 'model');
          addTokens(draft, named, 'ability', false);
          // An ability its name already maps ("-1 Injury Dice", "Tough") is not read twice from its text.
          const text = characteristic(p, 'description') ?? rulesOf(p);
          if (text && named.every((t) => t.kind === 'unknown')) addModelText(draft, text, `text of ability ${p.name}`, textContext(selfNames), false);
        } else if (p !== profile && !isWeaponProfile(p)) {
          noteProtection(p);
          // An item's injury modifier (armour, a shield) is in the model's Armour characteristic already.
          const itemTokens = tokens(characteristic(p, 'keywords') ?? '', 'model').filter((t) => !(t.kind === 'modifier' && t.armourModifier));
          addTokens(draft, itemTokens, `keywords of ${p.name}`, false);
          const rulesText = rulesOf(p);
          if (rulesText) addModelText(draft, rulesText, `rules text of ${p.name}`, textContext([...selfNames, p.name, node.name]));
        }
      }
      if (node === s) {
        for (const p of visible(node).filter(isWeaponProfile)) draft.weapons.push(...weaponDrafts(node, [p]));
      }
      addTokens(draft, nameTokens(node.categories.map((c) => c.name), 'model'), 'category', false);
      addTokens(draft, nameTokens(node.rules.map((r) => r.name), 'model'), 'rule', false);
      stack.push(...[...node.selections].reverse());
    }
    const armour = readArmour(characteristic(profile, ARMOUR) ?? '', hasShield, armourTable, armourItems);
    Object.assign(draft.fields, armour.fields);
    if (armour.from) draft.sources.push({ effect: `armour ${String(armour.fields.armour)}`, from: armour.from });
    if (armour.fields.shield === true) draft.sources.push({ effect: 'shield', from: `shield item ${JSON.stringify(shieldItem)}` });
    if (armour.problem) draft.unmodelled.push({ text: `Armour ${characteristic(profile, ARMOUR) ?? ''}`, from: 'armour', why: armour.problem, stops: true });
    Object.assign(draft.dice!, { [MELEE]: characteristic(profile, MELEE) ?? '', [RANGED]: characteristic(profile, RANGED) ?? '' });
    const movement = readInches(characteristic(profile, 'movement'));
    // The common 6" is the field's default: written only where a model moves otherwise.
    if (movement !== undefined && movement !== DEFAULT_MOVEMENT_INCHES) draft.fields.movement = movement;
    return draft;
  };

  const walk = (selections: readonly RosterSelection[]) => {
    for (const s of selections) {
      if (isModel(s)) {
        // Models nested in it are pushed while it is read: its count follows it, as theirs follow them.
        models.push(readModel(s));
        modelCounts.push(s.number);
      } else if (isWeapon(s)) {
        noteAlternatives(s);
        weaponsAt.push(...weaponDrafts(s, visible(s).filter(isWeaponProfile), costParts(subtreeCosts(s, () => false), costType)));
        walk(beneathWeapon(s));
      } else {
        // An upgrade of the warband (a banner, a blessing) belongs to no model: listed with what it carries.
        if (visible(s).length > 0 || s.rules.length > 0) {
          const carries = [...visible(s).map((p) => p.name), ...s.rules.map((r) => r.name)].filter((n) => n !== s.name);
          unplaced.push({ text: s.name, from: 'selection', why: `neither a model nor a weapon${carries.length ? `; it carries ${carries.join(', ')}` : ''}`, stops: false, leftOut: 'selection' });
        }
        walk(s.selections);
      }
    }
  };
  const forces = [...tree.forces];
  for (let f = forces.shift(); f; f = forces.shift()) {
    walk(f.selections);
    for (const r of f.rules) unplaced.push({ text: r.name, from: `rule of ${f.name || 'the warband'}`, why: 'a warband rule', stops: false, leftOut: 'warband-rule' });
    for (const n of f.notRead ?? []) unplaced.push({ text: n.text, from: `catalogue ${f.name}`, why: n.why, stops: false, leftOut: n.kind });
    for (const h of f.hiddenEntries ?? []) unplaced.push({ text: h, from: `entry of ${f.name}`, why: 'hidden for every faction: no modifier shows it, so it is not read', stops: false, leftOut: 'hidden' });
    forces.push(...f.forces);
  }

  const weaponProfiles = uniqueNames([...weaponsAt, ...models.flatMap((m) => m.weapons)]);
  const { out: modelProfiles, at: modelAt } = uniqueNamesAt(models);
  const carried = modelProfiles.flatMap((m) => uniqueNames(m.weapons).map((w) => modelWith(m, w, rules, system)));
  const toProfile = (d: Draft): Profile => {
    // A value out of a field's range ("+12 DICE") stops the commands that use the profile, as an unknown token does.
    // The field is left out (with --allow-unmodelled, the profile is used without it).
    const fields = { ...d.fields };
    const unmodelled = [...d.unmodelled];
    for (let problem = checkProfileFields(system, d.role, fields); problem; problem = checkProfileFields(system, d.role, fields)) {
      unmodelled.push({ text: `${problem.field} ${String(problem.value)}`, from: 'keywords sum', why: `out of range; allowed: ${problem.allowed}`, stops: true });
      delete fields[problem.field];
    }
    return {
      name: d.name,
      role: d.role,
      fields,
      keywords: d.keywords,
      ...(d.injuryDiceUnless?.length ? { injuryDiceUnless: d.injuryDiceUnless } : {}),
      ...(d.cost === undefined ? {} : { cost: d.cost }),
      ...(d.otherCosts ? { otherCosts: d.otherCosts } : {}),
      ...(d.priceOf === undefined ? {} : { description: `the price of ${d.priceOf}` }),
      ...(unmodelled.length ? { unmodelled } : {}),
      ...(d.sources.length ? { sources: d.sources } : {}),
      ...(d.role === 'weapon' && d.dice ? { attackerDice: diceNumbers(d.dice) } : {}),
      ...(d.role === 'model' ? carrierOf(d) : {}),
    };
  };
  const weapons = new Map<string, Profile>();
  const weaponDraftsByName = uniqueNames([...weaponProfiles, ...carried]);
  for (const d of weaponDraftsByName) weapons.set(d.name, toProfile(d));
  /**
   * A catalogue model's loadout as the names of the weapon profiles read from the links it may take: every
   * profile of each (a faction's price "Rifle (Cinder Choir)", a conditional "Heavy Shotgun (at Short Range)").
   */
  const loadoutNames = (weaponIds: readonly string[]): string[] => {
    const offered = new Set(weaponIds);
    return weaponDraftsByName.filter((w) => w.origins?.some((id) => offered.has(id))).map((w) => w.name);
  };
  /**
   * A roster model's loadout: the weapons it holds in the roster, each also read as "MODEL with WEAPON"
   * (its cost the model's, kit and all). The roster says what the model carries and what it paid: paired
   * with a weapon it does not hold, a model would be priced at a cost that buys other kit.
   */
  const heldBy = (model: string): string[] => [...weapons.keys()].filter((w) => weapons.has(`${model} with ${w}`));
  return {
    system,
    file: tree.file,
    source,
    weapons,
    models: new Map(modelProfiles.map((d) => [d.name, { ...toProfile(d), ...(d.loadout?.weapons ? { loadout: loadoutNames(d.loadout.weapons) } : source === 'roster' ? { loadout: heldBy(d.name) } : {}) }] as const)),
    ...(unplaced.length ? { unmodelled: unplaced } : {}),
    noEffect: noEffectKeywords(rules),
    ...(source === 'roster' ? { fielded: fieldedModels(modelProfiles, modelAt, modelCounts) } : {}),
  };
}

/**
 * What a model brings to a weapon in its hands that is not its own "MODEL with WEAPON" (a duel's side:
 * src/input/sides.ts): its Melee and Ranged dice, and what stops its attacks. A characteristic that is
 * no number of dice ("N/A" on a model that cannot shoot) stops only weapons of its attack type, as it
 * stops only the "MODEL with WEAPON"s that read it (modelWith).
 */
function carrierOf(model: Draft): Pick<Profile, 'characteristicDice' | 'ownAttackText'> {
  const dice: Record<string, number> = {};
  const stops: Unmodelled[] = [...model.ownAttackText];
  for (const [type, value] of Object.entries(model.dice ?? {})) {
    const n = readDice(value);
    if (n === undefined) stops.push({ text: `${type === MELEE ? 'Melee' : 'Ranged'} ${value}`, from: 'characteristic', why: 'not a number of dice, such as +1 DICE', stops: true, attackType: type });
    else if (n !== 0) dice[type] = n;
  }
  return { ...(Object.keys(dice).length ? { characteristicDice: dice } : {}), ...(stops.length ? { ownAttackText: stops } : {}) };
}

function diceNumbers(dice: Readonly<Record<string, string>>): Readonly<Record<string, number>> {
  return Object.fromEntries(Object.entries(dice).map(([k, v]) => [k, readDice(v) ?? 0]));
}

/**
 * "MODEL with WEAPON": the weapon's fields and keywords, the model's own Melee and Ranged dice (added to
 * the weapon's attack dice for the attack type the scenario ends with) and the model's FEAR as the
 * attacker's. Its cost is the model's (the weapon is part of it).
 */
function modelWith(model: Draft, weapon: Draft, rules: RuleTable, system: SystemSpec): Draft {
  const unmodelled = [...weapon.unmodelled];
  // Only the characteristic the weapon's attack reads: a melee weapon never reads Ranged ("N/A" on a
  // model that cannot shoot). A weapon of no known attack type reads either.
  const reads = weapon.fields.attackType === MELEE || weapon.fields.attackType === RANGED ? [weapon.fields.attackType] : [MELEE, RANGED];
  const diceSources: EffectSource[] = [];
  for (const [type, value] of Object.entries(model.dice ?? {})) {
    if (!reads.includes(type)) continue;
    const characteristicName = type === MELEE ? 'Melee' : 'Ranged';
    const dice = readDice(value);
    if (dice === undefined) unmodelled.push({ text: `${characteristicName} ${value}`, from: `${model.name}'s characteristic`, why: 'not a number of dice, such as +1 DICE', stops: true });
    else if (dice !== 0) diceSources.push({ effect: `attackDice ${signed(dice)} (${type} attacks)`, from: `${model.name}'s ${characteristicName} characteristic ${JSON.stringify(value)}` });
  }
  // What the model's own text says of its attacks and is not read stops the weapon in its hands.
  for (const stop of model.ownAttackText) if (!unmodelled.some((u) => u.text === stop.text && u.from === stop.from)) unmodelled.push({ ...stop, from: `${model.name}'s ${stop.from}` });
  // The model's keywords as the table maps them: one that gives the model fear, or makes it immune to
  // FEAR, makes it an attacker a FEAR target does not hinder.
  // A keyword the table refuses stops this row, never the whole file (one entry's sentence once refused every faction).
  let immune = false;
  try {
    immune = fearlessAttacker(rules, system, model.keywords, `model ${showValue(model.name)}`);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    unmodelled.push({ text: model.keywords.join(', '), from: `${model.name}'s keywords`, why: e.message, stops: true });
  }
  const fields = { ...weapon.fields, ...(immune ? { attackerFear: true } : {}) };
  return {
    name: `${model.name} with ${weapon.name}`,
    role: 'weapon',
    fields,
    keywords: weapon.keywords,
    unmodelled,
    ownAttackText: [],
    sources: [
      ...weapon.sources,
      ...diceSources,
      ...(immune ? [{ effect: 'attackerFear', from: `${model.name}'s keywords ${fearlessKeywords(model.keywords).join(', ') || '(FEAR)'}` }] : []),
    ],
    weapons: [],
    ...(model.cost === undefined ? {} : { cost: model.cost }),
    ...(model.otherCosts ? { otherCosts: model.otherCosts } : {}),
    ...(model.dice ? { dice: model.dice } : {}),
  };
}

/** The same of a profile, for telling a repeated selection from a different one of the same name. */
const sameness = (d: Draft) => JSON.stringify([d.fields, d.keywords, d.injuryDiceUnless, d.cost, d.otherCosts, d.unmodelled, d.ownAttackText, d.dice, d.weapons.map((w) => w.name), d.loadout?.weapons]);

/** A catalogue model's loadout notes (what could not be evaluated) as not modelled: listed, never stopping. */
const loadoutNotes = (loadout: CatalogueLoadout | undefined): Unmodelled[] => (loadout?.notes ?? []).map((n) => ({ text: n.text, from: 'loadout', why: n.why, stops: false }));

/**
 * `NAME (n)` for the first n from `from` that no profile has, real or made here: a selection really named
 * "Trooper (2)" keeps its name, and the second kind of "Trooper" becomes "Trooper (3)", so no profile
 * replaces another.
 */
function unusedName(name: string, from: number, taken: ReadonlySet<string>): string {
  let n = from;
  while (taken.has(`${name} (${n})`)) n += 1;
  return `${name} (${n})`;
}

/**
 * Names made unique: selections of the same name that read the same are one profile (three identical
 * troopers are one "Trooper"; an item two factions price alike is one, "the price of A, B"); ones that
 * differ get " (2)", " (3)", ... in roster order (the next number no other profile is called), or the
 * faction whose price they have: "Rifle (B)".
 */
function uniqueNames(drafts: readonly Draft[]): Draft[] {
  return uniqueNamesAt(drafts).out;
}

/**
 * A roster's models as it fields them: each model profile and how many of it, in roster order, identical
 * models (one profile) counted together. `at[i]` is the profile the i-th draft became.
 */
function fieldedModels(profiles: readonly Draft[], at: readonly number[], counts: readonly number[]): FieldedModel[] {
  const byProfile = new Map<number, number>();
  at.forEach((profile, i) => byProfile.set(profile, (byProfile.get(profile) ?? 0) + (counts[i] ?? 1)));
  return [...byProfile].map(([profile, count]) => ({ model: profiles[profile]!.name, count }));
}

/** uniqueNames, with the place in `out` each draft became (`at[i]` for drafts[i]). */
function uniqueNamesAt(drafts: readonly Draft[]): { out: Draft[]; at: number[] } {
  const at: number[] = [];
  const out: Draft[] = [];
  const seen = new Map<string, { same: string; at: number }[]>();
  const taken = new Set(drafts.map((d) => d.name));
  for (const d of drafts) {
    const kinds = seen.get(d.name) ?? [];
    const same = sameness(d);
    const earlier = kinds.find((k) => k.same === same);
    if (earlier) {
      at.push(earlier.at);
      let kept = out[earlier.at]!;
      if (d.priceOf !== undefined && !kept.priceOf?.split(', ').includes(d.priceOf)) kept = { ...kept, priceOf: kept.priceOf ? `${kept.priceOf}, ${d.priceOf}` : d.priceOf };
      // One profile for both: a loadout that names either names it.
      if (d.origins?.some((id) => !kept.origins?.includes(id))) kept = { ...kept, origins: [...new Set([...(kept.origins ?? []), ...d.origins])] };
      out[earlier.at] = kept;
      continue;
    }
    kinds.push({ same, at: out.length });
    seen.set(d.name, kinds);
    at.push(out.length);
    if (kinds.length === 1) {
      out.push(d);
      continue;
    }
    const by = d.priceOf ?? d.offeredBy ?? d.catalogue;
    const byPrice = by === undefined ? undefined : `${d.name} (${by})`;
    const name = byPrice !== undefined && !taken.has(byPrice) ? byPrice : unusedName(d.name, kinds.length, taken);
    taken.add(name);
    out.push({ ...d, name });
  }
  return { out, at };
}
