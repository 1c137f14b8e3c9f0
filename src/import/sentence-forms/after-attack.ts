import type { SentenceForm } from './form.js';
import { NAME, whole } from './words.js';

/**
 * Forms of sentences about what follows one attack when the models fight on (form.ts `fight`): a marker
 * placed on the attacker after its roll (spent on rolls against it later, never on this one), its
 * activation that ends, an infection marker placed on the target once the injury roll is done (it works
 * as a blood marker on later rolls: the catalogue's "Infection Markers" rule), a redeploy out of reach
 * after a missed attack. One attack's answer is the same with or without them; a duel's or a sequence's
 * is not, so they stop those kinds only (KindSpec.fightsOn).
 */
export const AFTER_ATTACK_FORMS: readonly SentenceForm[] = [
  {
    name: 'a marker placed on the attacker once its roll is made (for rolls against it later)',
    touches: 'fight',
    pattern: whole(
      String.raw`(?:(?:if|when|after) [^,]+?, (?:after resolving the injury roll, )?)?(?:you can )?(?:place|remove) (?:up to )?\d+ (?:extra )?(?:blood|blessing|infection) markers? (?:next to|from) (?:the )?(?:model (?:using (?:this weapon|${NAME})|that made the attack)|attacking ${NAME})(?: if it makes a (?:melee|ranged) attack and the success roll is a success or a critical success| \(until it has a maximum of \d+ markers\)|,? and its activation (?:immediately )?ends(?: immediately)?)?`,
    ),
    examples: [
      'Place 1 BLOOD MARKER next to the model using this Weapon if it makes a Melee Attack and the Success Roll is a Success or a Critical Success',
      'After a Blasting attack has been carried out, place 1 BLOOD MARKER next to the model that made the attack, and its activation immediately ends',
      'If a Gut Mortar hits a target, after resolving the Injury Roll, you can place up to 2 BLOOD MARKERS next to model that made the Attack (until it has a maximum of 5 markers)',
      'If the Injury Roll for an attack made by a Tithe Hammer results in 1 or more BLOOD MARKERS being placed next to the target, place 1 BLESSING MARKER next to the model using the Tithe Hammer',
      'If a Melee Attack made by a Plague Herald causes any INFECTION MARKERS to be placed on the target model, you can remove up to 1 BLOOD MARKER from the attacking Plague Herald',
    ],
  },
  {
    name: 'an infection marker placed on the target once the injury roll has placed blood markers (it acts on later rolls)',
    touches: 'fight',
    pattern: whole(
      String.raw`(?:when an? (?:melee |ranged )?attack made with ${NAME} causes (?:\d+ or more|any) blood markers to be placed (?:next to|on) the target, )?place (?:\d+|an additional|an extra) infection markers? next to the target(?: model)?(?: for each blood marker that you placed on the attacking model| if the risky success roll is a success or (?:a )?critical success)?`,
    ),
    examples: [
      'When a Melee Attack made with a Rot Fang causes 1 or more BLOOD MARKERS to be placed next to the target, place 1 INFECTION MARKER next to the target model',
      'place 1 INFECTION MARKER next to the target for each BLOOD MARKER that you placed on the attacking model',
      'Place an additional INFECTION MARKER next to the target if the Risky Success Roll is a Success or Critical Success',
    ],
  },
  {
    name: 'a marker placed on an enemy as it activates near the model (before its actions, never during an attack)',
    touches: 'fight',
    pattern: whole(String.raw`if an enemy model is activated while it is within \d+" of (?:an? |the )?[\w' -]+?, place \d+ (?:blood|infection) markers? next to the enemy model before it carries out any actions`),
    examples: ['If an enemy model is Activated while it is within 1" of a Plague Hound, place 1 INFECTION MARKER next to the enemy model before it carries out any Actions'],
  },
  {
    name: 'a marker on the model that charges it, from its reaction to the charge (no roll of the attack asked about)',
    touches: 'fight',
    pattern: whole(String.raw`the enemy model charging (?:it|${NAME}) gains \d+ blood markers?`),
    examples: ['the enemy model charging it gains 1 BLOOD MARKER'],
  },
  {
    name: 'a redeploy out of reach once an attack against the model has failed (the attack is already over)',
    touches: 'fight',
    pattern: whole(
      String.raw`if your opponent fails their success roll for an attack targeting ${NAME}, (?!.*\bre-?rolls?\b).+`,
    ),
    examples: ['If your opponent fails their Success Roll for an attack targeting a Mirage Dancer, you can say the Mirage Dancer will fade from sight'],
  },
  {
    name: 'a blessing marker the model gains as its own markers are removed (for its rolls later)',
    touches: 'fight',
    pattern: whole(String.raw`each time you remove a blood marker from ${NAME} because of the regenerate \d+ keyword, place \d+ blessing markers? next to ${NAME}`),
    examples: ['Each time you remove a BLOOD MARKER from a Weeping Saint because of the REGENERATE 1 Keyword, place 1 BLESSING MARKER next to the Weeping Saint'],
  },
  {
    name: "markers once its own melee attack has placed markers (on the target or itself, for later rolls)",
    touches: 'fight',
    pattern: whole(String.raw`(?:whenever|if) a melee attack made by ${NAME} causes any (?:blood |infection )?markers?(?: or (?:blood |infection )?markers)? to be placed on the target(?: model)?, (?:place \d+ extra (?:blood |infection )?markers? next to the target(?: model)?|you can remove up to \d+ (?:blood |infection )?markers?(?: or (?:blood |infection )?markers?)? from the attacking ${NAME})`),
    examples: ['Whenever a Melee Attack made by a Plague Lord causes any BLOOD MARKERS to be placed on the target, place 1 extra INFECTION MARKER next to the target model', 'Whenever a Melee Attack made by a Grave Guard causes any BLOOD MARKERS or INFECTION MARKERS to be placed on the target, you can remove up to 1 BLOOD MARKER or INFECTION MARKER from the attacking Grave Guard'],
  },
];
