import type { SentenceForm } from './form.js';
import { A_MODEL, NAME, SUBJECT, whole } from './words.js';

/**
 * Forms of sentences that touch rolls made against the model (form.ts): what an Out of Action does to it,
 * dice and modifiers against it under a condition, armour and immunities it has, spells cast when it is
 * hurt. They stop the model as a target, never a weapon in its hands.
 */
export const AGAINST_IT_FORMS: readonly SentenceForm[] = [
  {
    name: 'its first Out of Action turned into another result',
    touches: 'target',
    pattern: whole(String.raw`the first time ${SUBJECT} suffers an out of action result on the injury (?:table|chart), it is treated as an? [\w ]+ result(?: instead)?`),
    examples: ['The first time the Old Guard suffers an Out of Action result on the Injury Table, it is treated as a Minor Hit result instead'],
  },
  {
    name: 'an Out of Action against it turned into another result under a condition',
    touches: 'target',
    pattern: whole(String.raw`(?:once per turn, when ${SUBJECT} would be taken out of action, it instead (?!goes dormant$).+|injuries that would be inflicted on ${NAME} are instead inflicted on .+)`),
    examples: ['Once per Turn, when a Golem would be taken Out of Action, it instead crumbles', 'Injuries that would be inflicted on the Golem are instead inflicted on its keeper'],
  },
  {
    name: 'injury dice against it when the attack has a keyword',
    touches: 'target',
    pattern: whole(String.raw`add [+-]\d+ injury dice to (?:injury )?rolls for (?:${A_MODEL} that has [\w ]+|${SUBJECT}) that has been hit by an attack with the [a-z]+ keyword`),
    examples: ['Add -1 INJURY DICE to rolls for a Mist Walker that has been hit by an attack with the GAS Keyword'],
  },
  {
    name: 'cover against ranged attacks on it',
    touches: 'target',
    pattern: whole(String.raw`the ranged attack modifier for a target being in cover is [+-]\d+ dice instead of [+-]\d+ dice if the target has .+`),
    examples: ['The Ranged Attack Modifier for a target being in Cover is -2 DICE instead of -1 DICE if the target has a Ghillie Cloak'],
  },
  {
    name: 'an attack on it that fails and is rolled again',
    touches: 'target',
    pattern: whole(String.raw`if your opponent fails their success roll for an attack targeting ${SUBJECT}, .*\bre-?rolls?\b.*`),
    examples: ['If your opponent fails their Success Roll for an attack targeting a Duellist, they must re-roll it'],
  },
  {
    name: 'rules of its own that hold until its first Out of Action (its armour and results: a lead-in and what it ends with)',
    touches: 'target',
    pattern: whole(String.raw`(?:this is represented by the following special rules, which apply to ${NAME} until it suffers an out of action result(?: on the injury (?:table|chart))?:?|when this happens, any blood markers on ${NAME} are removed, and from then on, these special rules no longer apply to the model.*)`),
    examples: ['This is represented by the following special rules, which apply to the Iron Saint until it suffers an Out of Action result on the Injury Table:', 'When this happens, any BLOOD MARKERS on the Iron Saint are removed, and from then on, these special rules no longer apply to the model, it has an Armour Characteristic of -2'],
  },
  {
    name: 'its armour and keywords, said in words',
    touches: 'target',
    pattern: whole(String.raw`(?:it has an armour characteristic of [+-]?\d+ and does not have the .+ keywords?|if an attack would normally ignore armour, ${NAME} still grants an? [+-]\d+ injury modifier)`),
    examples: ['If an attack would normally ignore armour, Stone Plate still grants a -1 INJURY MODIFIER', 'It has an Armour Characteristic of 0 and does not have the TOUGH Keyword'],
  },
];
