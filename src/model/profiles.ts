import type { ValidateFunction } from 'ajv';
import { allowedNames, suggestFlags } from '../suggest.js';
import { showValue } from '../errors.js';
import { refusal } from '../messages.js';
import { schemaValidator } from './ajv.js';
import { describeAllowed, fieldJsonSchema } from './field-schema.js';
import type { InjuryDiceUnless } from './keywords.js';
import type { FieldSpec, FieldValue, ProfileRole, SystemSpec } from './types.js';

/**
 * Named weapons and models, with costs: a profiles file
 *   { "system": "trench-crusade",
 *     "models":  { "Trooper": { "armour": "standard", "cost": 40 } },
 *     "weapons": { "Rifle":   { "attackType": "ranged", "injuryDice": 1, "cost": 10 } } }
 * A weapon gives the fields declared with profile "weapon" (the attacker's side), a model those with
 * profile "model" (the target's side); explicit fields of a scenario override both.
 */
export interface Profile {
  readonly name: string;
  readonly role: ProfileRole;
  readonly fields: Readonly<Record<string, FieldValue>>;
  /** Keywords as written ("ARMOUR PIERCING 1"), looked up in the scenario's rule table when it is used. */
  readonly keywords: readonly string[];
  /**
   * A model's injury dice with a condition on the attacking weapon's keywords ("-1 INJURY DICE unless
   * the attack has the FIRE keyword"), as data: added to targetInjuryDice when it holds, on top of the
   * fields and keywords. Models only.
   */
  readonly injuryDiceUnless?: readonly InjuryDiceUnless[];
  /** Ducats (or whatever the designer prices in); absent if the file gives none. */
  readonly cost?: number;
  /** Its price in other currencies than `cost`'s (a catalogue's Glory Points): shown, never divided by. */
  readonly otherCosts?: Readonly<Record<string, number>>;
  readonly description?: string;
  /** From an imported roster: what it says that the rule table does not model (kept, never dropped). */
  readonly unmodelled?: readonly Unmodelled[];
  /** From an imported roster: where each effect came from, the item, keyword or sentence (`profiles --explain`). */
  readonly sources?: readonly EffectSource[];
  /**
   * "MODEL with WEAPON" from a roster: the model's own Melee and Ranged dice, by attack type; the ones
   * of the attack type the scenario ends with are added to the weapon's attack dice.
   */
  readonly attackerDice?: Readonly<Record<string, number>>;
  /**
   * A model's loadout: the weapons of the file it may carry (a catalogue's reading, or written by hand).
   * `price` pairs the model with these alone (and its own "MODEL with WEAPON"); without one, with every
   * weapon. Models only.
   */
  readonly loadout?: readonly string[];
  /**
   * A model's own dice for its attacks, by attack type: its Melee and Ranged characteristics ("+2 DICE")
   * as numbers, the non-zero ones. A duel's side is a model carrying its weapon: a weapon read apart from
   * the model (a catalogue's loadout, a hand-written file) takes the model's dice for its attack type, as
   * a roster's "MODEL with WEAPON" has them folded in (src/input/sides.ts). Models only.
   */
  readonly characteristicDice?: Readonly<Record<string, number>>;
  /**
   * A model's text about its own attacks that is not read (and a characteristic that is no number of
   * dice): an item that `stops` stops each weapon in the model's hands, not the model as a target; one of
   * class `option` (a charge's bonus, friends near it, what an ACTION does) is said with each weapon in its
   * hands, and not when it is the target. An item with an `attackType` stops only a weapon of that type (a
   * Ranged "N/A" stops no melee attack). Models only; not written in a profiles file (its description says
   * what was not modelled).
   */
  readonly ownAttackText?: readonly Unmodelled[];
}

/** One effect of an imported profile and what it was read from: `{ effect: "armour reinforced", from: 'armour item "Reinforced Armour"' }`. */
export interface EffectSource {
  readonly effect: string;
  readonly from: string;
}

/** Something a roster says that maps to no effect: a keyword, a category, an ability, rules text. */
export interface Unmodelled {
  /** As the roster writes it. */
  readonly text: string;
  /** Where it was: "keywords", "category", "rule", "ability", "armour", ... */
  readonly from: string;
  readonly why: string;
  /**
   * A token of a weapon's keywords string (or a value that cannot be read): a command using the profile
   * stops unless --allow-unmodelled is given. Categories, rules and abilities never stop one.
   */
  readonly stops: boolean;
  /** Of a model's ownAttackText: the attack type whose weapons it stops (absent: every weapon). */
  readonly attackType?: string;
  /** A sentence of rules text not read: what it touches, which decides what it stops. */
  readonly touches?: SentenceClass;
  /** A sentence read for every case but one the question does not take, which the answer says (class `option`). */
  readonly notTaken?: string;
  /** Of `Profiles.unmodelled`: why it was read into no profile (`profiles --left-out` lists them by it). */
  readonly leftOut?: LeftOutKind;
}

/**
 * Why something a roster or catalogue names was read into no profile: an entry hidden for every faction,
 * a shared profile no entry links, links to a file not given (or no game system file), a weapon profile
 * only an option shows, compulsory choices too many to read, a selection that is neither a model nor a
 * weapon (an upgrade of the warband), a warband rule.
 */
export type LeftOutKind = 'hidden' | 'unlinked' | 'file-not-given' | 'option-profile' | 'too-many-choices' | 'selection' | 'warband-rule';

/**
 * What a sentence of rules text that is not read touches (src/import/sentence-forms/form.ts): rolls made
 * against the model (`target`), the model's own attacks (`attacker`), this weapon's attack (`weapon`),
 * what follows an attack in a fight that goes on (`fight`: a marker on the attacker, an activation that
 * ends, a redeploy after a miss), a choice or situation the question does not take (`option`: a spell its
 * player may cast, an option chosen before the game, friends near it; answered without it, and said), or
 * no roll of a single attack (`none`); `unclear` where no form classes it.
 */
export type Touches = 'target' | 'attacker' | 'weapon' | 'fight' | 'option' | 'none';
export type SentenceClass = Touches | 'unclear';

/** One unmodelled item as outputs say it: "\"Fear\" (rule: a linked rule, ...)". */
export const unmodelledText = (u: Unmodelled): string => `${JSON.stringify(u.text)} (${u.from}: ${u.why})`;

/** A catalogue profile renamed because the roster holds its name. */
export interface Renamed {
  readonly role: ProfileRole;
  readonly from: string;
  readonly to: string;
}

/** What a joined Profiles remembers of its two sources (Profiles.warband): src/model/warband-profiles.ts joins them. */
export interface WarbandSources {
  /** The roster file and the catalogue files, as the user named them, for messages. */
  readonly roster: string;
  readonly catalogue: string;
  /** The roster's models: each priced with the kit it holds (sideCost), where a catalogue's is priced at its base cost. */
  readonly rosterModels: ReadonlySet<string>;
  readonly renamed: readonly Renamed[];
}

export interface Profiles {
  readonly system: SystemSpec;
  /** As the user named it, for messages. */
  readonly file: string;
  readonly weapons: ReadonlyMap<string, Profile>;
  readonly models: ReadonlyMap<string, Profile>;
  /** Read from a roster or catalogue files (messages say which), not written as a profiles file. */
  readonly source?: 'roster' | 'catalogue';
  /** From an imported roster: what belongs to no profile (the warband's own rules). */
  readonly unmodelled?: readonly Unmodelled[];
  /** From an imported roster: the keywords of the table it was read by that give no field (HEAVY, BLAST), for `profiles` to say so. */
  readonly noEffect?: ReadonlySet<string>;
  /** A roster and catalogue files read together (`source` is then absent): what each gave. */
  readonly warband?: WarbandSources;
  /** From a roster: its models as fielded, in roster order, each model profile and how many of it (a battle's warband). */
  readonly fielded?: readonly FieldedModel[];
}

/** A model of a roster as fielded: its profile's name and how many of it the roster holds. */
export interface FieldedModel {
  readonly model: string;
  readonly count: number;
}

export const SECTION: Record<ProfileRole, 'weapons' | 'models'> = { weapon: 'weapons', model: 'models' };
/** The keys of a role's profile that are no field. */
export function profileKeys(system: SystemSpec, role: ProfileRole): string[] {
  return ['keywords', ...(givesInjuryDiceUnless(system, role) ? ['injuryDiceUnless'] : []), ...(role === 'model' ? ['loadout'] : []), ...(givesCharacteristicDice(system, role) ? ['characteristicDice'] : []), 'cost', 'otherCosts', 'description'];
}

/** A model of a system whose weapons have attack dice by attack type may give its own (its Melee and Ranged characteristics). */
const givesCharacteristicDice = (system: SystemSpec, role: ProfileRole) => role === 'model' && ['attackDice', 'attackType'].every((name) => system.fields.some((f) => f.name === name));

/** A model of a system whose targets have injury dice may give them with a condition. */
const givesInjuryDiceUnless = (system: SystemSpec, role: ProfileRole) => role === 'model' && system.fields.some((f) => f.name === 'targetInjuryDice');

/** The fields a weapon or a model profile of a system may give. */
export function profileFields(system: SystemSpec, role: ProfileRole): FieldSpec[] {
  return system.fields.filter((f) => f.profile === role);
}

/** A model's loadout, declared once: the schema, the check and the message's "allowed" come from it. */
export const LOADOUT_SCHEMA = {
  type: 'array',
  items: { type: 'string', minLength: 1 },
  uniqueItems: true,
  description: 'The weapons of this file the model may carry, by name (a catalogue\'s reading gives them): price pairs it with these alone, and its own "MODEL with WEAPON"; without it, with every weapon',
} as const;
export const LOADOUT_ALLOWED = 'a list of weapon names of this file, each once, e.g. ["Trench Knife", "Musket"]';

export function profileSchema(system: SystemSpec, role: ProfileRole): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    cost: { type: 'number', minimum: 0, maximum: 1e9, description: 'What it costs (ducats, points): the value view divides by it' },
    otherCosts: {
      type: 'object',
      additionalProperties: { type: 'number', minimum: 0, maximum: 1e9 },
      description: 'Its price in other currencies than cost\'s, by name ({ "Glory Points": 4 }): shown, never divided by',
    },
    description: { type: 'string' },
    keywords: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Keywords of the rule table ("IGNORE ARMOUR", "ARMOUR PIERCING 1"); `injury-lab rules` lists them' },
  };
  // The target's injury dice field, on a model of a system that has it: what injuryDiceUnless adds to.
  const dice = role === 'model' ? system.fields.find((f) => f.name === 'targetInjuryDice') : undefined;
  if (dice) {
    properties.injuryDiceUnless = {
      type: 'array',
      description:
        'Injury dice against the model unless the attacking weapon has one of the keywords named, or only if it has one: [{ "dice": -1, "unless": ["FIRE", "GAS"] }] is "-1 INJURY DICE UNLESS FIRE/GAS"; [{ "dice": -1, "unless": [], "onlyIf": ["GAS"] }] is "-1 INJURY DICE IF GAS"',
      items: {
        type: 'object',
        properties: {
          dice: fieldJsonSchema(dice),
          unless: { type: 'array', items: { type: 'string', pattern: '^[A-Z][A-Z -]*$' }, description: 'Keyword names of the rule table, in capitals: the dice do not hold against a weapon with one of them' },
          onlyIf: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[A-Z][A-Z -]*$' }, description: 'Keyword names of the rule table, in capitals: the dice hold only against a weapon with one of them' },
        },
        required: ['dice', 'unless'],
        anyOf: [{ properties: { unless: { minItems: 1 } } }, { required: ['onlyIf'] }],
        additionalProperties: false,
      },
    };
  }
  if (role === 'model') properties.loadout = LOADOUT_SCHEMA;
  if (givesCharacteristicDice(system, role)) {
    const dice = system.fields.find((f) => f.name === 'attackDice')!;
    const types = system.fields.find((f) => f.name === 'attackType')!;
    properties.characteristicDice = {
      type: 'object',
      description: 'The model\'s own dice for its attacks, by attack type ({ "melee": 2, "ranged": -1 }: its Melee and Ranged characteristics): added to a weapon it carries in a duel that is not its own "MODEL with WEAPON"',
      propertyNames: fieldJsonSchema(types),
      additionalProperties: fieldJsonSchema(dice),
    };
  }
  for (const f of profileFields(system, role)) properties[f.name] = fieldJsonSchema(f);
  return { type: 'object', properties, additionalProperties: false };
}



const validators = new Map<string, ValidateFunction>();
/** The compiled check of one role's profiles of a system (compiled once). */
export function profileValidator(system: SystemSpec, role: ProfileRole): ValidateFunction {
  const key = `${system.id}/${role}`;
  let v = validators.get(key);
  if (!v) {
    v = schemaValidator().compile(profileSchema(system, role));
    validators.set(key, v);
  }
  return v;
}


/**
 * The first field an imported profile gives with a value its field does not allow ("+12 DICE" is
 * attackDice 12), with what is allowed, or undefined. Only the role's own fields are checked: "MODEL
 * with WEAPON" also carries the attacker's.
 */
export function checkProfileFields(system: SystemSpec, role: ProfileRole, fields: Readonly<Record<string, FieldValue>>): { field: string; value: FieldValue; allowed: string } | undefined {
  for (const f of profileFields(system, role)) {
    const value = fields[f.name];
    if (value !== undefined && !profileValidator(system, role)({ [f.name]: value })) return { field: f.name, value, allowed: describeAllowed(f.schema) };
  }
  return undefined;
}


/**
 * Where a file's names come from, as messages say it: profiles file "a.json", roster file "r.ros", or
 * a roster with catalogue files.
 */
function namedIn(profiles: Profiles): string {
  const w = profiles.warband;
  return w ? `roster ${showValue(w.roster)} with catalogue files ${showValue(w.catalogue)}` : `${profiles.source ?? 'profiles'} file ${showValue(profiles.file)}`;
}

/** The command that lists a file's names, for a message's "allowed". */
function listingCommand(profiles: Profiles): string {
  const w = profiles.warband;
  if (w) return `injury-lab profiles --roster ${showValue(w.roster)}, and --catalogue with ${showValue(w.catalogue)}; a name both hold is the catalogue's "NAME (catalogue)"`;
  return `injury-lab profiles ${profiles.source ? `--${profiles.source} ` : ''}${showValue(profiles.file)}`;
}

/** The profile a name gives, or one line naming the flag, the name, a guess and what is allowed. */
export function findProfile(profiles: Profiles, role: ProfileRole, name: unknown, key: string): Profile {
  const table = role === 'weapon' ? profiles.weapons : profiles.models;
  const found = typeof name === 'string' ? table.get(name) : undefined;
  if (found) return found;
  const names = [...table.keys()];
  const guess = typeof name === 'string' ? suggestFlags(name, names) : [];
  const none = names.length === 0 ? ` (it has no ${SECTION[role]})` : '';
  throw refusal(
    key,
    `${showValue(name)} is not a ${role} of ${namedIn(profiles)}${none}${guess.length ? ` (did you mean ${guess.map((g) => showValue(g)).join(' or ')}?)` : ''}`,
    `allowed: ${names.length ? allowedNames(name, names, listingCommand(profiles)) : 'a name the file lists'}`,
  );
}

/**
 * Every way to read NAME as "MODEL with WEAPON", split at each " with " in turn (a model's own name may
 * hold one: "Man with a Plan with Rifle").
 */
function pairingParts(name: string): [string, string][] {
  const parts: [string, string][] = [];
  for (let at = name.indexOf(' with '); at >= 0; at = name.indexOf(' with ', at + 1)) parts.push([name.slice(0, at), name.slice(at + ' with '.length)]);
  return parts;
}

/**
 * "MODEL with WEAPON" as a model and a weapon the file lists apart (a profiles file or a catalogue names
 * no such pairing itself), or undefined.
 */
function pairingOfParts(profiles: Profiles, name: string): { model: string; weapon: string } | undefined {
  const found = pairingParts(name).find(([model, weapon]) => profiles.models.has(model) && profiles.weapons.has(weapon));
  return found && { model: found[0], weapon: found[1] };
}

/** Did-you-mean for a "MODEL with WEAPON" one of whose parts is mistyped: each part as given if the file has it, else its guesses. */
function pairingGuesses(profiles: Profiles, name: string): string[] {
  const models = [...profiles.models.keys()];
  const weapons = [...profiles.weapons.keys()];
  return pairingParts(name).flatMap(([model, weapon]) => {
    const modelGuesses = profiles.models.has(model) ? [model] : suggestFlags(model, models);
    const weaponGuesses = profiles.weapons.has(weapon) ? [weapon] : suggestFlags(weapon, weapons);
    return modelGuesses.flatMap((m) => weaponGuesses.map((w) => `${m} with ${w}`));
  });
}

/**
 * A duel side's `profile`: a "MODEL with WEAPON" weapon profile (a roster's, with its model's dice), with
 * the model profile it names if there is one; else a model and a weapon the file lists apart, named
 * "MODEL with WEAPON" (a profiles file's or a catalogue's); or a model profile alone. `key` names it in
 * messages.
 */
export function findSideProfiles(profiles: Profiles, name: unknown, key: string): { model?: string; weapon?: string } {
  if (typeof name === 'string' && profiles.weapons.has(name)) {
    const model = pairingParts(name)
      .map(([m]) => m)
      .find((m) => profiles.models.has(m));
    // A weapon alone is no side: the model that wields it would be a default body nobody asked for.
    if (model === undefined) {
      const example = profiles.models.keys().next().value;
      throw refusal(
        key,
        `${showValue(name)} is a weapon of ${namedIn(profiles)}, not a side (a model with its weapon)`,
        `allowed: "MODEL with WEAPON"${example !== undefined ? ` (${showValue(`${example} with ${name}`)})` : ''}, a model, or "model" and "weapon" given apart`,
      );
    }
    return { weapon: name, model };
  }
  if (typeof name === 'string' && profiles.models.has(name)) return { model: name };
  const pairing = typeof name === 'string' ? pairingOfParts(profiles, name) : undefined;
  if (pairing) return pairing;
  const names = [...profiles.models.keys(), ...[...profiles.weapons.keys()].filter((w) => w.includes(' with '))];
  // A pairing with one part mistyped is nearer its mended pairing than the model its name starts with.
  const guess = typeof name === 'string' ? [...new Set([...pairingGuesses(profiles, name), ...suggestFlags(name, names)])].slice(0, 3) : [];
  throw refusal(
    key,
    `${showValue(name)} is not a model or a "MODEL with WEAPON" of ${namedIn(profiles)}${guess.length ? ` (did you mean ${guess.map((g) => showValue(g)).join(' or ')}?)` : ''}`,
    `allowed: ${names.length ? allowedNames(name, names, listingCommand(profiles)) : 'a name the file lists'}, or "MODEL with WEAPON" of a model and a weapon it lists`,
  );
}

/**
 * What a side of a model with its weapon costs, or undefined where a part it names has no cost (or it
 * names none). A model and a weapon priced apart (a profiles file, a catalogue: a model at its base
 * cost) cost their sum. A roster prices each model with its kit, and its "MODEL with WEAPON" at that
 * model's price (as the weapon and target dimensions label them): its weapon is already in the model's
 * cost, so the model's (or the pairing's) cost is the side's, never added to again.
 */
export function sideCost(profiles: Profiles, side: { readonly model?: string; readonly weapon?: string }): number | undefined {
  const model = side.model === undefined ? undefined : profiles.models.get(side.model);
  const weapon = side.weapon === undefined ? undefined : profiles.weapons.get(side.weapon);
  const pairing = weapon !== undefined && model !== undefined && weapon.name.startsWith(`${model.name} with `);
  // A roster's model (a roster read alone, or the roster's side of a roster with catalogues) is priced with its kit.
  const kitPriced = model !== undefined && (profiles.source === 'roster' || profiles.warband?.rosterModels.has(model.name) === true);
  const parts = pairing ? [weapon] : kitPriced ? [model] : [model, weapon].filter((p): p is Profile => p !== undefined);
  if (parts.length === 0 || parts.some((p) => p.cost === undefined)) return undefined;
  return parts.reduce((sum, p) => sum + p.cost!, 0);
}

/** A profile's name as axes and tables show it: with its cost, "Great Hammer (12)", where it has one. */
export function costLabel(name: string, cost: number | undefined): string {
  return cost === undefined ? name : `${name} (${cost})`;
}
