import type { FieldValue, RuleTable } from '../model/types.js';
import type { RosterProfile, RosterSelection } from './read-roster.js';

/**
 * What a roster's profiles are and what their characteristics say: which profile is a weapon, an ability
 * or a model's own, a model's Armour (with the shield and armour items it carries) and Melee and Ranged
 * dice, and an entry's Rules text. Apart from roster.ts, which walks the selections, because these read
 * one profile at a time and know the Trench Crusade data's names, not the roster's shape.
 */

/** Profile and characteristic names of the Trench Crusade data (matched without regard to case). */
export const ARMOUR = 'armour';
export const MELEE = 'melee';
export const RANGED = 'ranged';
export const isWeaponProfile = (p: RosterProfile) => /weapon/i.test(p.typeName);
export const isAbility = (p: RosterProfile) => /abilit/i.test(p.typeName);
export const characteristic = (p: RosterProfile, name: string) => p.characteristics.find((c) => c.name.toLowerCase() === name)?.$text;
export const visible = (s: RosterSelection) => s.profiles.filter((p) => !p.hidden);
/** A model's profile carries an Armour characteristic; items and weapons do not. */
const ownModelProfile = (s: RosterSelection) => visible(s).find((p) => !isWeaponProfile(p) && characteristic(p, ARMOUR) !== undefined);
const isModelType = (s: RosterSelection) => /^(model|unit)$/i.test(s.type);

/**
 * A selection's model profile and the selection that carries it: its own, or, for a selection of type
 * "model" without one, the one an option under it carries. The real catalogue's thralls are such: their
 * own profiles are an unarmed attack and an ability, and the Unit profile is on the option chosen
 * ("Grounded" or "Winged"), which is then part of the model, not a model of its own.
 */
export function modelProfileOf(s: RosterSelection): { readonly profile: RosterProfile; readonly from: RosterSelection } | undefined {
  const own = ownModelProfile(s);
  if (own) return { profile: own, from: s };
  if (!isModelType(s)) return undefined;
  const queue = [...s.selections];
  for (let node = queue.shift(); node; node = queue.shift()) {
    if (isModelType(node)) continue;
    const found = ownModelProfile(node);
    if (found) return { profile: found, from: node };
    queue.push(...node.selections);
  }
  return undefined;
}

/**
 * The armour and shield of a model. Its armour and shield items come first, wherever they sit in its
 * selection tree: a shield is an item whose profile's Type is "Shield" (the real catalogue's "Polearm
 * and Shield" holds one beside the weapon), an armour an item of Type "Armour" named after an armour of
 * the table ("Reinforced Armour"). Without an armour item, the Armour characteristic is read as the
 * final value, every item folded in: with a shield, -3 is Reinforced Armour and the shield, never
 * Machine Armour. Names ("Reinforced") are read too. A value that is no armour of the table stops every
 * command that uses the model.
 */
export function readArmour(value: string, hasShield: boolean, table: RuleTable, items: readonly ArmourItem[] = []): { fields: Record<string, FieldValue>; problem?: string; from?: string } {
  const armours = table.armour as Readonly<Record<string, number>>;
  const shield = (table.shield as { readonly modifier: number }).modifier;
  // An armour item the model carries names its armour ("Reinforced Armour"), wherever it sits in the tree,
  // or, named otherwise ("Armour of the Fly"), gives it by its own -N INJURY MODIFIER.
  const armourOf = ({ name, modifier }: ArmourItem) =>
    Object.keys(armours).find((a) => a !== 'none' && new RegExp(`\\b${a}\\b`, 'i').test(name)) ?? (modifier === undefined ? undefined : Object.keys(armours).find((a) => a !== 'none' && armours[a] === modifier));
  const byItem = items.map((item) => ({ item, armour: armourOf(item) })).find((x) => x.armour !== undefined);
  if (byItem) return { fields: { armour: byItem.armour!, ...(hasShield ? { shield: true } : {}) }, from: `armour item ${JSON.stringify(byItem.item.name)}` };
  const unread = items.find(({ modifier }) => modifier !== undefined);
  if (unread) return { fields: {}, problem: `its armour item ${JSON.stringify(unread.name)} gives ${unread.modifier} INJURY MODIFIER, which is no armour of the rule table` };
  const t = value.trim().toLowerCase();
  const byName = Object.keys(armours).find((a) => t === a || t === `${a} armour`);
  if (byName) return { fields: { armour: byName, ...(hasShield ? { shield: true } : {}) }, from: `Armour characteristic ${JSON.stringify(value)}` };
  const n = t === '' || t === '-' ? 0 : /^[+-]?\d+$/.test(t) ? Number(t) : NaN;
  const armourPart = hasShield ? n - shield : n;
  const found = Object.keys(armours).find((a) => armours[a] === armourPart);
  if (found === undefined) {
    const allowed = Object.entries(armours).map(([a, m]) => `${m} (${a})`).join(', ');
    return { fields: {}, problem: `no armour of the rule table${hasShield ? ' with a shield' : ''}; allowed: ${allowed}${hasShield ? `, each ${shield} more with a shield` : ''}` };
  }
  return { fields: { armour: found, ...(hasShield ? { shield: true } : {}) }, from: `Armour characteristic ${JSON.stringify(value)}${hasShield ? `, a shield's ${shield} taken out` : ''}` };
}

/** An armour item a model carries: its name, and the injury modifier its keywords give (undefined if none). */
export interface ArmourItem {
  readonly name: string;
  readonly modifier?: number;
}

/**
 * The inches a Movement or Range characteristic gives ("6\"/Infantry", "24\"", "12\"/Melee", and the real
 * catalogue's Halberd-Gun "Melee/24\""): the first number marked as inches, else a number it starts with;
 * undefined where it gives none ("-", "Melee", empty).
 */
export function readInches(value: string | undefined): number | undefined {
  const text = value ?? '';
  const m = /(\d+(?:\.\d+)?)\s*(?:"|”|''|inch)/i.exec(text) ?? /^\s*(\d+(?:\.\d+)?)/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** A model's Melee or Ranged characteristic ("+1 DICE", "-1", "0") as attack dice, or undefined if it is not one. */
export function readDice(value: string): number | undefined {
  const t = value.trim().toUpperCase();
  if (t === '' || t === '-') return 0;
  const m = /^([+-]?\d+)\s*(D|DICE|DIE)?$/.exec(t);
  return m ? Number(m[1]) : undefined;
}

/**
 * A Rules characteristic with something in it ("-" is nothing). A catalogue may name it "Description":
 * the real one does on its Battlekit items, whose characteristic type (by id, in the game system) is
 * Rules, and a roster exported from it carries that name without the game system's types.
 */
export const rulesOf = (p: RosterProfile) => {
  const t = characteristic(p, 'rules') ?? characteristic(p, 'description');
  return t && t !== '-' && t !== '—' ? t : undefined;
};
