import type { SentenceForm } from './form.js';
import { A_MODEL, NAME, SUBJECT, whole } from './words.js';

/**
 * Forms of sentences that touch the model's own attacks (form.ts): dice and keywords on attacks it makes,
 * what happens after its attack places markers, the markers on it that an opponent may not spend against
 * its actions, FEAR it is immune to. They stop each weapon in its hands, never the model as a target.
 */
export const OWN_ATTACK_FORMS: readonly SentenceForm[] = [
  {
    name: 'dice added to attacks the model makes',
    touches: 'attacker',
    pattern: whole(String.raw`(?:for the rest of the activation, )?add [+-]\d+ (?:injury |bonus )?dice (?:to (?:the )?(?:success |injury )?rolls? )?for (?:an? )?(?:(?:ranged|melee) )?attacks? (?:that are )?made by (?:the model|this model|${SUBJECT})(?: if the target (?:model )?(?:has|is) .+| for each (?!(?:other )?friendly models? within).+| for the rest of the activation)?`),
    examples: ['Add +1 DICE to the Success Roll for a Melee Attack made by a Bell Warden for each BLOOD MARKER on the target', 'Add +2 DICE to rolls for Ranged Attacks made by the model', 'Add +1 INJURY DICE for attacks made by a Lancer if the target model has the TOUGH Keyword', 'for the rest of the Activation, add +2 DICE to the Success Rolls for Ranged Attacks that are made by the Bowman'],
  },
  {
    name: 'dice the model adds to its own rolls in melee',
    touches: 'attacker',
    pattern: whole(String.raw`(?:unless the target has the keywords? [a-z ,]+, )?add [+-]\d+ (?:bonus |injury )?dice to any injury rolls ${NAME} makes in melee .+`),
    examples: ['Unless the target has the Keyword UNDEAD, add +1 BONUS DICE to any injury rolls the surgeon makes in melee against opponents who are Down'],
  },
  {
    name: "dice added to the model's Melee or Ranged characteristic",
    touches: 'attacker',
    pattern: whole(String.raw`add [+-]\d+ dice to ${NAME}'s (?:melee|ranged) characteristic .+`),
    examples: ["Add +1 DICE to the Blood Knight's Melee characteristic for each BLOOD MARKER currently placed next to it"],
  },
  {
    name: 'keywords given to the weapons the model uses',
    touches: 'attacker',
    pattern: whole(String.raw`(?:add the .+ keywords? to (?:ranged |melee )?weapons used by the model.*|when this model is deployed for the first time in a game, you can give one of the following keywords to all of ${NAME}'s (?:ranged weapons and melee weapons|weapons).*|${NAME}'s [\w ]+ has the .+ keywords?)`),
    examples: ['Add the BLAST 2" Keyword to Ranged Weapons used by the model', "A Watchman's Halberd has the CLEAVE 1 Keyword"],
  },
  {
    name: 'a second attack after its own, or an attack it must make',
    touches: 'attacker',
    pattern: whole(String.raw`(?:after ${A_MODEL} that has .+ makes a melee attack, it can immediately make a second melee attack .+|do not make an injury roll if the second attack hits the target.*|it can make a melee attack that must target an enemy model that is down|this melee attack has the .+ keywords?)`),
    examples: ['After a model that has the Bone Spurs makes a Melee Attack, it can immediately make a second Melee Attack with +1 DICE', 'do not make an Injury Roll if the second attack hits the target; instead place 2 BLOOD MARKERS next to the target model', 'this Melee Attack has the CLEAVE 1 Keyword'],
  },
  {
    name: 're-rolls of its own Success Rolls',
    touches: 'attacker',
    pattern: whole(String.raw`(?:you can re-roll failed success rolls(?: and risky success rolls)? for ${SUBJECT}|any of the re-rolled dice show an? \d, .+)`),
    examples: ['You can re-roll failed Success Rolls and Risky Success Rolls for a Seer', 'any of the re-rolled dice show a 2, then the roll is treated as a Failure'],
  },
  {
    name: 'its own attack on a target with markers, or one that causes no damage',
    touches: 'attacker',
    pattern: whole(String.raw`(?:for each blood marker the target has, add [+-]\d+ to the injury roll|it causes no damage, but .+ hit with .+ can be moved .+|(?:she|he|it|they) absorbs? .+ and immediately resolves? an attack as if .+)`),
    examples: ['For each BLOOD MARKER the target has, add +2 to the Injury roll', 'It causes no damage, but any enemy hit with a Gong can be moved D3 inches'],
  },
  {
    name: 'the elevation of its own ranged attacks',
    touches: 'attacker',
    pattern: whole(String.raw`this model always counts as being on a \d+" high platform when it makes a ranged attack.*`),
    examples: ['This model always counts as being on a 2" high platform when it makes a Ranged Attack'],
  },
  {
    name: 'what its attack ignores',
    touches: 'attacker',
    pattern: whole(String.raw`this attack ignores armou?r(?: and cover)?`),
    examples: ['This attack ignores armour'],
  },
  {
    name: 'what a spell cast before its own attack\'s injury rolls adds to them',
    touches: 'attacker',
    pattern: whole(String.raw`add [+-]\d+ injury dice to all of the injury rolls you make for the attack`),
    examples: ['add +1 INJURY DICE to all of the Injury Rolls you make for the attack'],
  },
  {
    name: 'markers on the model that an opponent may not spend against its actions',
    touches: 'attacker',
    pattern: whole(String.raw`(?:your opponent|the opposing player) cannot spend (?:the )?blood markers .+`),
    examples: ['The opposing player cannot spend BLOOD MARKERS to add -DICE to a Ranged Attack by a Sharpshooter'],
  },
  {
    name: 'FEAR the model (or its friends near it) is immune to, which only its own attacks on a FEAR target feel',
    touches: 'attacker',
    pattern: whole(String.raw`(?:${SUBJECT} is immune to fear|friendly [\w ]+ models within \d+" of ${NAME} have the negate fear keyword)`),
    examples: ['The Surgeon is immune to FEAR', 'Friendly PILGRIM models within 6" of a Chaplain have the NEGATE FEAR Keyword'],
  },
  {
    name: 'enemies it fights that cannot stand up',
    touches: 'attacker',
    pattern: whole(String.raw`enemy models that are down and that are mounted on a base of \d+mm or less are not allowed to stand up if ${NAME} is within \d+" of them.*`),
    examples: ['Enemy models that are Down and that are mounted on a base of 32mm or less are not allowed to stand up if a Mauler is within 1" of them'],
  },
  {
    name: 'a melee attack with dice added, as a command or its own (read as its own, the stricter)',
    touches: 'attacker',
    pattern: whole(String.raw`the model carries out a (?:melee|ranged) attack,? and adds [+-]\d+ dice to the success roll`),
    examples: ['The model carries out a Melee Attack, and adds +1 DICE to the Success Roll'],
  },
  {
    name: 'where its own attack pushes the target, and what the push may cause',
    touches: 'attacker',
    pattern: whole(String.raw`this can break them out of melee combat .+`),
    examples: ['This can break them out of melee combat (allowing free attacks), falling down, into hazardous terrain etc'],
  },
];
