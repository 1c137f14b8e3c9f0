import type { SentenceForm } from './form.js';
import { NAME, whole } from './words.js';

/**
 * Forms of sentences that offer a choice its player may make, or name a situation around the model, that
 * the question does not take (form.ts `option`): a spell cast when it is hurt or for its own attack, an
 * option chosen before the game, friends near it with markers, a loadout it may use. The answer is the
 * plain case, without it, and says so (a line on stderr, the `notModelled` label of JSON outputs); a form
 * that opens an option (`restIsTheOption`) puts the rest of its text under it.
 */
export const OPTION_FORMS: readonly SentenceForm[] = [
  {
    name: 'a spell its player may cast when the model is hurt (not cast)',
    touches: 'option',
    pattern: whole(String.raw`you can cast this spell (?:once per turn )?(?:before|after) an injury roll is made for the spellcaster`),
    examples: ['You can cast this spell once per Turn after an Injury Roll is made for the spellcaster'],
    restIsTheOption: true,
  },
  {
    name: "a spell its player may cast for the model's own attack (not cast)",
    touches: 'option',
    pattern: whole(String.raw`you can cast this spell before making any injury rolls for an attack made by the spellcaster`),
    examples: ['You can cast this spell before making any Injury Rolls for an attack made by the spellcaster'],
    restIsTheOption: true,
    ofItsAttacks: true,
  },
  {
    name: 'a choice its player makes before the game (not made)',
    touches: 'option',
    pattern: whole(String.raw`at the start of each game, before deployment, you can say that .+`),
    examples: ['At the start of each game, before deployment, you can say that one Acolyte will be chained to the Iron Saint'],
    restIsTheOption: true,
  },
  {
    name: 'a situation of friends near it with markers (not met)',
    touches: 'option',
    pattern: whole(String.raw`as long as there (?:is|are) at least (?:a total of )?\d+ blood markers? on friendly models within \d+" of ${NAME}, .+`),
    examples: ['As long as there are at least a total of 2 Blood Markers on friendly models within 3" of a Veiled One, every Out of Action injury result against it is treated as Down instead'],
  },
  {
    name: 'dice on its own melee attacks for each friend near it (a situation: no friend near, as in a duel)',
    touches: 'option',
    pattern: whole(String.raw`add [+-]\d+ dice to the success roll for a melee attack made by ${NAME}(?: or ${NAME})? for each (?:other )?friendly model within \d+" of (?:it|the attacking model).*`),
    examples: ['add +1 DICE to the Success Roll for a Melee Attack made by a Rat Thrall for each other friendly model within 3" of the attacking model', 'Add +1 DICE to the Success Roll for a Melee Attack made by a Bell Warden for each friendly model within 3" of it'],
    ofItsAttacks: true,
  },
  {
    name: 'a bonus of its own attacks after it charges (a situation: the attack asked about does not follow a charge)',
    touches: 'option',
    pattern: whole(String.raw`(?:in addition, )?if (?:the first action ${NAME} makes during (?:their|its) activation is a charge|${NAME} made a charge move earlier in the same activation), .+`),
    examples: ['If the first ACTION the model makes during their Activation is a Charge, add +1 DICE to Melee Attacks made by this model for the rest of the Activation'],
    ofItsAttacks: true,
  },
  {
    name: "markers the model may remove from itself for its own attack's injury rolls, and what they add (a choice: the attacker asked about has no markers to remove)",
    touches: 'option',
    pattern: whole(String.raw`(?:before you make any injury rolls for models hit by an? (?:ranged |melee )?attack made with ${NAME}, you may remove \d+ (?:blood |infection )?markers from ${NAME} that took the (?:shoot|fight) action|add [+-]\d+ injury (?:modifier|dice) to the injury rolls for each model hit by this ${NAME} attack)`),
    examples: ['Before you make any Injury Rolls for models hit by a Ranged Attack made with Bile Spray, you may remove 2 INFECTION MARKERS from the Plague Ogre that took the Shoot ACTION', 'add +1 INJURY MODIFIER to the Injury Rolls for each model hit by this Bile Spray attack'],
    ofItsAttacks: true,
  },
  {
    name: 'a cap on its armour while it uses weapons a choice gives it (not used)',
    touches: 'option',
    pattern: whole(String.raw`if they do, the maximum cumulative armour they can have is [+-]?\d+`),
    examples: ['If they do, the maximum cumulative armour they can have is -2'],
  },
  {
    name: 'a bonus of the weapon while the target has not yet activated this turn (a situation: not taken)',
    touches: 'option',
    pattern: whole(String.raw`add an? [+-]\d+ injury modifier to rolls made for this weapon if the target has not yet been activated this turn`),
    examples: ['Add a +2 INJURY MODIFIER to rolls made for this weapon if the target has not yet been Activated this Turn'],
  },
  {
    name: 'a bonus of the weapon while the attacker is behind terrain (a situation: not taken)',
    touches: 'option',
    pattern: whole(String.raw`add [+-]\d+ dice to the roll if the attacker is in contact with a terrain piece that is at least [\d/⁄]+" tall and that lies in between it and the target(?: model)?`),
    examples: ['Add +1 DICE to the roll if the attacker is in contact with a terrain piece that is at least 1/2" tall and that lies in between it and the target model'],
  },
  {
    name: 'another use of the weapon instead of its attack (not taken: the attack is the question)',
    touches: 'option',
    pattern: whole(String.raw`when you take a shoot action with this model, instead of making a ranged attack, you can .+`),
    examples: ['When you take a Shoot ACTION with this model, instead of making a Ranged Attack, you can release a swarm of flies'],
    restIsTheOption: true,
  },
];
