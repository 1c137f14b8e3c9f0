import type { SentenceForm } from './form.js';
import { NAME, whole } from './words.js';

/**
 * Forms of sentences that touch this weapon's attack (form.ts): its rolls replaced or skipped, a bonus
 * under a condition on the target, markers its injuries place, a choice made before its injury roll.
 * They stop the weapon; each is a rule a later effect may read (the class 5 and 6).
 */
export const WEAPON_ATTACK_FORMS: readonly SentenceForm[] = [
  {
    name: 'no Success Roll for its attack',
    touches: 'weapon',
    pattern: whole(String.raw`(?:when ${NAME} is used to make a ranged attack, )?do not make a success roll(?: for the attack)?|if an attack made with ${NAME} is a success or critical success, do not make an injury roll for the target`),
    examples: ['When a Fire Hose is used to make a Ranged Attack, do not make a Success Roll for the attack', 'do not make a Success Roll'],
  },
  {
    name: 'a bonus or keyword against a target that has a keyword, or is Down in other words',
    touches: 'weapon',
    pattern: whole(String.raw`(?:this weapon has the [a-z0-9 ]+ keyword if the target (?:is down|has .+)|add [+-]\d+ injury dice to rolls against models that have the [a-z ,]+ keywords?|attacks made against models? with the keywords [a-z ,]+ add [+-]\d+ injury dice)`),
    examples: ['This weapon has the CLEAVE 1 Keyword if the target is Down', 'Add +1 INJURY DICE to rolls against models that have the UNDEAD Keyword'],
  },
  {
    name: 'a bonus under a condition of the battlefield or the turn',
    touches: 'weapon',
    // Not the situations options.ts answers without (a target not yet activated, an attacker behind terrain).
    pattern: whole(String.raw`add (?:an? )?[+-]\d+ (?:injury )?(?:dice|modifier) to (?:the )?rolls? (?:for attacks made with this weapon |made for this weapon |for a model that is hit by ${NAME} )?if (?!the target has not yet been activated this turn$|the attacker is in contact with a terrain piece).+`),
    examples: ['Add a +1 INJURY MODIFIER to rolls made for this weapon if the target is on a bridge', 'Add +1 DICE to the roll if the attacker is in cover'],
  },
  {
    name: 'blood markers its injuries place',
    touches: 'weapon',
    pattern: whole(String.raw`(?:double the number of blood markers placed next to a model by an injury roll for an attack made with ${NAME}|if the target has the [a-z ,]+ keywords?, place \d+ blood markers next to it instead of \d+)`),
    examples: ['Double the number of BLOOD MARKERS placed next to a model by an injury roll for an attack made with a Leech Jar', 'If the target has the UNDEAD Keyword, place 3 BLOOD MARKERS next to it instead of 1'],
  },
  {
    name: 'its injury roll made another way, or its critical on another number',
    touches: 'weapon',
    pattern: whole(String.raw`(?:when you make an injury roll for an attack made with ${NAME}, .+|before making an injury roll for an attack made with ${NAME}, you must choose .+|lower the roll needed to achieve a critical success for .+|${NAME} achieves? a critical success on an? \d+\+.*|rolls? injuries with \dd6 .+)`),
    examples: ['When you make an Injury Roll for an attack made with a Rack, roll 1D6 instead of 2D6', 'Before making an Injury Roll for an attack made with a Bone Bow, you must choose if the roll will have the DEADLY Keyword'],
  },
];
