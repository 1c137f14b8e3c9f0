import type { CarryOnForm, SentenceForm } from './form.js';
import { A_MODEL, NAME, whole } from './words.js';

/**
 * Forms of sentences that touch no roll of a single attack (form.ts): a model's own ACTIONs and what they
 * do, activations that end, moves, mines and markers of the battlefield, morale and the campaign, other
 * models (a bodyguard, a summoned model), attacks by friends, and flavour. Each says why in its name.
 */
export const NO_ROLL_FORMS: readonly SentenceForm[] = [
  {
    name: 'an activation that ends on a failed roll (an ACTION\'s, not an attack\'s)',
    touches: 'none',
    pattern: whole(String.raw`if the roll is a failure, (?:nothing happens,? (?:and )?)?(?:the mine detonates anyway and )?(?:the |this )?${NAME}(?:'s?)? activation (?:immediately )?ends(?: immediately)?(?:, if it was a risky success roll, and nothing happens if it was a normal success roll)?`),
    examples: ["If the roll is a Failure, the Lantern Warden's Activation ends", 'If the roll is a Failure, nothing happens and the Bell Ringer\'s Activation ends immediately', "If the roll is a Failure, the mine detonates anyway and this model's Activation ends"],
  },
  {
    name: 'a failed ACTION that does nothing',
    touches: 'none',
    pattern: whole(String.raw`if the roll is a failure, nothing happens(?: \(you can take this action again[^)]*\))?`),
    examples: ['If the roll is a Failure, nothing happens', 'If the roll is a Failure, nothing happens (you can take this ACTION again for the model in a later Activation)'],
  },
  {
    name: 'an ACTION the model may take: a choice of its activation, not a roll of an attack (never a Fight, Shoot or attack ACTION)',
    touches: 'none',
    pattern: whole(String.raw`(?:at any point during its activation, )?(?:${NAME} )?(?:that has [\w ]+ )?(?:can|may) (?:take|use|make) (?:an? |the )?(?:risky )?(?:(?!(?:attack|fight|shoot|melee|ranged)\b)[\w'-]+ ){0,5}action(?: with [+-]\d+ dice)?(?: when it takes an enemy model out of action in melee)?`),
    examples: ['A Lantern Warden can take a Vigil ACTION', 'At any point during its Activation, a Bell Ringer may take a RISKY ACTION with +1 DICE', 'A Gloom Hound can take The Feast ACTION when it takes an enemy model Out of Action in Melee'],
    restIsAChoice: true,
  },
  {
    name: 'an ACTION the model may take when it is near something',
    touches: 'none',
    pattern: whole(String.raw`whenever ${NAME} is within \d+" of .+, it may take an? [\w' -]{1,30} action`),
    examples: ['Whenever a Leech Doctor is within 1" of a model with at least one BLOOD MARKER on it, it may take a Bleed ACTION'],
  },
  {
    name: 'an ACTION that needs no roll',
    touches: 'none',
    pattern: whole(String.raw`as an action that does not require a roll, ${NAME} can .+`),
    examples: ['As an action that does not require a roll, the Abbess can say the Vespers, lasting until the end of the turn'],
    restIsAChoice: true,
  },
  {
    name: 'an ACTION that commands other models',
    touches: 'none',
    pattern: whole(String.raw`as an? (?:risky )?action, ${NAME} can command (?:any )?(?:other )?friendly [\w ]+ models? within \d+" to do one of the following:?`),
    examples: ['As a RISKY ACTION, the Overseer can command any other friendly CLOCKWORK model within 12" to do one of the following:'],
    listIsAnotherModels: true,
  },
  {
    name: "an ACTION's own roll (a Success Roll for the model, not for an attack)",
    touches: 'none',
    pattern: whole(String.raw`(?:if the model is (?:friendly|an enemy), )?take a (?:risky )?success roll for (?:the model|${NAME})(?: (?:and add|with) [+-]\d+ dice(?: to the roll)?)?`),
    examples: ['take a Success Roll for the model', 'take a Risky Success Roll for the model and add +1 DICE to the roll', 'take a Success Roll for the Bell Ringer with +3 DICE'],
  },
  {
    name: "an ACTION's effect on markers of other models (within a distance of it)",
    touches: 'none',
    pattern: whole(String.raw`(?:you may choose a friendly unit within \d+" of ${NAME} and remove \d+ (?:blood|infection)(?: or (?:blood|infection))? markers? from the targeted model|if the enemy model has the [a-z ,]+ keywords?, place \d+ blood markers next to it instead of \d+|the targeted model is instantly downed.*|(?:pick 1 (?:enemy|friendly) model within \d+" of ${NAME}(?: \(no line of sight is required\))?(?: and in (?:their|its) line of sight)? and )?(?:you can |you may )?(?:place|remove) (?:up to )?(?:\d+|an?|any number of) (?:extra )?(?:blood|blessing|infection)(?: or (?:blood|infection))? markers?(?:(?: next to| from)? (?:them|an? (?:enemy|friendly) model within \d+" of ${NAME}(?: and in (?:their|its) line of sight)?|the model or a friendly model within \d+" of the model|${NAME} or a friendly model within \d+" of ${NAME}|any models \(friend or foe\) within \d+" of ${NAME})(?: instead(?: of only \d+)?)?| instead(?: of only \d+)?))`),
    examples: ['you may choose a friendly unit within 3" of the Healer and remove 1 BLOOD or INFECTION MARKER from the targeted model', 'If the enemy model has the UNDEAD Keyword, place 2 BLOOD MARKERS next to it instead of 1', 'place 1 BLOOD MARKER next to an enemy model within 18" of the Hexer and in their Line of Sight', 'remove 2 BLOOD MARKERS from a friendly model within 6" of the Abbess instead of only 1', 'remove up to 2 BLOOD OR INFECTION MARKER instead', 'you can place 1 BLESSING MARKER next to the Abbess or a friendly model within 6" of the Abbess'],
  },
  {
    name: 'a roll of a move, a climb, a jump, a fall or a dash (no attack)',
    touches: 'none',
    pattern: whole(String.raw`(?:add [+-]\d+ dice to rolls for ${NAME} when (?:they|it) (?:climbs?|jumps?|falls?|takes? a dash action)(?:,? (?:climbs?|jumps?|falls?|or take a dash action|or falls?))*|you do not have to take a risky success roll for ${NAME} when (?:they|it) climbs?(?: or jumps?)?, or an injury roll if (?:they|it) falls?)`),
    examples: ['Add +1 DICE to rolls for a Marsh Hound when they Climb, Jump, Fall or take a Dash ACTION', 'You do not have to take a Risky Success Roll for a Kite Witch when they Climb or Jump, or an Injury Roll if they Fall'],
  },
  {
    name: 'a move (of the model, its friends, or a model it drags)',
    touches: 'none',
    pattern: whole(String.raw`(?:(?:you can )?move (?:the model|all friendly models within \d+" of ${NAME}) (?:up to )?(?:\d+|d\d)"?|you can (?:immediately )?pick up ${NAME} and (?:re)?deploy (?:them|it) .+|the move must be in a straight line.*|if the model wasn't taken down or out of action, it can then continue its move|change the movement characteristic of .+|${NAME} can also drag .+|${NAME} can redeploy .+|(?:all friendly models that are down and within \d+" of ${NAME} may immediately stand up|stand up a friendly model that is down and within \d+" of the model).*|when you move ${NAME} that starts the move in contact with .+ it can drag .+)`),
    examples: ['Stand up a friendly model that is Down and within 2" of the model', 'the Hexer can redeploy even if they are down', 'You can move the model D3"', 'you can move all friendly models within 6" of the Abbess up to 2"', 'The move must be in a straight line, in any direction', 'Change the Movement Characteristic of a model that has the Kite Wings to 10"/Flying'],
  },
  {
    name: "a move after the attack (the target pushed, blown or staggering; the attacker retreating or redeploying)",
    touches: 'none',
    pattern: whole(String.raw`(?:if a model that has been hit by ${NAME} is not taken out of action by the injury roll, it (?:staggers|is blown(?: away)?|is pushed) .+|if ${NAME} hits a target, after resolving the injury roll, you can move the target model \d+"|if the target is taken down or out of action by a melee attack made with ${NAME}, you can immediately move the model up to \d+"|if a ranged attack made with this weapon causes any blood markers to be placed on the target model, you can immediately redeploy the attacking model .+|if ${NAME} causes at least one blood marker to be placed next to the target model, ${NAME} can use a dash action to retreat in the same activation|roll separately for each model to see how far it (?:is blown away|staggers).*)`),
    examples: ['If a model that has been hit by a Thunder Charge is not taken Out of Action by the Injury Roll, it is blown D3" away', 'If a Hook Grenade hits a target, after resolving the Injury Roll, you can move the target model 2"', 'Roll separately for each model to see how far it staggers'],
  },
  {
    name: 'other models the attack goes on to (after the target\'s own rolls)',
    touches: 'none',
    pattern: whole(String.raw`(?:all other models caught in ${NAME} blast radius(?:, or that are in ${NAME} blast radius)? if it did not hit the target model or scatter onto a model's base, are taken down.*|(?:in addition, )?an injury roll is made for all models that are within \d+" of the target point when ${NAME} explodes.*|if an injury roll for a ranged attack made with ${NAME} does not take an enemy model out of action, .+ within \d+" of the attacking model can immediately .+|if the target of an attack made with ${NAME} is within \d+" of a friendly model, you do not have to roll a d6 to see if the friendly model is hit by the attack|when a target is hit with ${NAME}, the mindless hunger of .+|make (?:another )?an? injury roll for the closest (?:enemy )?model .+|injury rolls for other models caught in ${NAME} blast are made normally)`),
    examples: ['Injury Rolls for other models caught in the Ember Pot\'s BLAST are made normally', 'make an Injury Roll for the closest enemy model within 3" of the target', 'In addition, an Injury Roll is made for all models that are within 2" of the target point when the Ember Pot explodes, even if terrain is in the way', "All other models caught in the Ember Pot's blast radius if it did not hit the target model or scatter onto a model's base, are taken Down (do not make an Injury Roll for them)"],
  },
  {
    name: 'whom an attack without a Success Roll hits: every model a line touches (its target as any other)',
    touches: 'none',
    pattern: whole(String.raw`(?:instead, measure a straight line \d+mm wide and up to \d+" long from the attacking model to a point on the ground or a model's base|make an injury roll for every model(?: \(friend or foe\))? (?:that is )?touched by the line(?:, apart from the attacking model itself)?)`),
    examples: ['Instead, measure a straight line 1mm wide and up to 10" long from the attacking model to a point on the ground or a model\'s base', 'Make an Injury Roll for every model touched by the line'],
  },
  {
    name: 'where a mine lands',
    touches: 'none',
    pattern: whole(String.raw`when you roll to attack with ${NAME}, note the location the mine lands with a marker or token`),
    examples: ['When you roll to attack with a Tripwire Mine, note the location the mine lands with a marker or token'],
  },
  {
    name: 'mines and the battlefield (a terrain piece, a marker that is no model)',
    touches: 'none',
    pattern: whole(String.raw`(?:the terrain piece (?:becomes mined|gains the mined keyword)|the mine does not detonate and .+|the marker cannot be attacked.*|the first time in the game an enemy model moves into contact with the mined .+|when you move ${NAME} into contact with a marker or terrain piece with the mined keyword, .+|make an injury roll with the [a-z]+ keyword for the model that detonated the mine|${NAME} has the cover keyword until (?:they|it) moves? away from (?:their|its) current position)`),
    examples: ['the terrain piece becomes Mined', 'the mine does not detonate and the terrain piece is no longer Mined', 'Make an Injury Roll with the SHRAPNEL Keyword for the model that detonated the mine', 'the Trench Digger has the COVER Keyword until they move away from their current position'],
  },
  {
    name: 'morale and the campaign (after the battle, the roster)',
    touches: 'none',
    pattern: whole(String.raw`(?:(?:while it is in ${NAME} )?(?:${NAME} )?(?:in a dormant state )?(?:it )?is (?:treated|considered) (?:as|to be) (?:out of action|down) for the purposes of morale(?: checks)?(?:, and in the trauma step of the campaign phase if it is dormant at the end of a battle)?|if ${NAME} is taken out of action during (?:the )?battle, and is deemed to have been killed in the post-battle sequence, .+|it is taken out of action and crossed off its warband roster|${A_MODEL} taken out of action this way may reroll its injury dice at the end of the battle.*|the next time your warband makes a morale roll, .+|each time ${NAME} takes a friendly model out of action with a melee attack, set a die aside .+|for the rest of the turn, your warband adds [+-]\d+ dice to risky success rolls? when taking a dash action.*)`),
    examples: ['A Wraith Knight in a dormant state is treated as Out of Action for the purposes of Morale', 'If the Familiar is taken Out of Action during battle, and is deemed to have been killed in the post-battle sequence, you keep it', 'The next time your warband makes a Morale roll, add +1 DICE'],
  },
  {
    name: 'a bodyguard: it takes the hit for another model (its own injury roll is as ever)',
    touches: 'none',
    pattern: whole(String.raw`(?:if a friendly [\w' ]+ within \d+" of (?:a |an |the )?${NAME} is hit by a (?:ranged attack or melee attack|melee attack or ranged attack|ranged or melee attack), you can say that ${NAME} will take the hit|make an injury roll for ${NAME} instead of (?:the original target|${NAME})|(?:if the ranged attack had the blast keyword, )?make the injury roll for ${NAME} before any other models hit by the blast)`),
    examples: ['make the Injury Roll for the Lantern Witch before any other models hit by the blast', 'If a friendly PILGRIM model within 1" of a Shield Bearer is hit by a Ranged Attack or Melee Attack, you can say that the Shield Bearer will take the hit', 'make an Injury Roll for the Shield Bearer instead of the original target'],
  },
  {
    name: 'flavour: what the model is good at, in words that set no number',
    touches: 'none',
    pattern: whole(String.raw`due (?:to )?their knowledge of [\w ]+, ${NAME} are experts at [\w ,]+`),
    examples: ['Due to their knowledge of the old texts, the Scribes are experts at finding lost pages'],
  },
  {
    name: 'another model made, kept or freed (a summoned, devoured or captured model)',
    touches: 'none',
    pattern: whole(String.raw`(?:the [a-z]+ model immediately (?:suffers|takes) .+|when ${NAME} detonates, make an injury roll for all models within \d+" of .+|create a new friendly .+|deploy the devoured model .+|if ${NAME} is taken out of action, before removing (?:them|it) from the battlefield, deploy the devoured model .+|as soon as a devoured model has \d+ blood markers, .+|each time ${NAME} is activated, place \d+ blood markers? next to the devoured model|if a devoured model is still inside ${NAME} when the game ends, .+|the model you picked is devoured, .+|pick 1 model \(friend or foe\).+|it captures the model|the model remains captured until .+|if an attack made by ${NAME} takes an enemy model with the [a-z]+ keyword out of action, ${NAME} gains its freedom .+|once per turn, whenever a model \(friend or foe\) is taken out of action, ${NAME} may choose to .+|when ${NAME} is taken out of action, place \d+ blessing markers? next to .+|if two or more eligible models are equally close to ${NAME}, you can choose which receives the blessing marker)`),
    examples: ['The CLOCKWORK model immediately takes itself Out of Action', 'When the Bomb Bearer\'s Device detonates, make an Injury Roll for all models within 3" of the Bomb Bearer', 'create a new friendly Ghoul armed with a trench club', 'Each time the Gorger is Activated, place 1 BLOOD MARKER next to the devoured model', 'When a Penitent is taken Out of Action, place 1 BLESSING MARKER next to the nearest friendly model'],
  },
  {
    name: 'whom the model must charge or target, and standing up at its activation',
    touches: 'none',
    pattern: whole(String.raw`(?:if it begins its activation down(?: and the above conditions are true)?,? it must (?:attempt to )?stand.*|if ${NAME} was down at the start of the activation, it will stand up .+|when ${NAME} is activated, if there is an enemy model .+ it must make a charge .+|when ${NAME} makes a melee attack, it can target a friendly model .+|if two (?:or|more) more models are exactly the same distance and visible to ${NAME}, use a dice roll to randomly determine which model ${NAME} targets|when you roll the charge bonus for ${NAME}, roll \d+ extra d6 .+)`),
    examples: ['If it begins its Activation Down, it must stand', 'When you roll the Charge Bonus for a Lancer, roll 1 extra D6 and use the single highest die', 'When a Rage Hound is Activated, if there is an enemy model within 12" that it can see, it must make a Charge against the closest enemy model'],
  },
  {
    name: 'attacks by friends, never by the enemy the question asks about',
    touches: 'none',
    pattern: whole(String.raw`(?:attacks or effects from friendly sources .+|if an allied ${NAME} directly targets, then hits ${NAME} with .+|once per turn when an other friendly unit would suffer an injury result, .+)`),
    examples: ['Attacks or effects from friendly sources with the FIRE keyword suffer a -1 DICE penalty to injure the model', 'Once per Turn when an other friendly unit would suffer an injury result, you may set one of the Injury Dice to a 1'],
  },
  {
    name: 'whether an attack is made at all (who may be chosen or hit), not its rolls',
    touches: 'none',
    pattern: whole(String.raw`(?:enemy models cannot choose ${NAME} as the target for .+|${NAME} can be hit if (?:they are|it is) within the blast radius of a weapon with the blast keyword)`),
    examples: ['enemy models cannot choose the Scout as the target for a Ranged Attack until the Scout moves', 'The Scout can be hit if they are within the blast radius of a Weapon with the BLAST Keyword'],
  },
  {
    name: 'a limit on what a roster may give it (campaign advancement), and its base and size',
    touches: 'none',
    pattern: whole(String.raw`(?:${NAME} cannot have the [a-z]+ keyword|(?:if )?${NAME} is wearing [\w ]+ armour, (?:they|it) gains? the keyword strong and (?:their|its) base size changes to \d+mm)`),
    examples: ['A Hermit cannot have the TOUGH Keyword', 'If the Golem is wearing Machine Armour, it gains the keyword STRONG and its base size changes to 50mm'],
  },
  {
    name: "another attack the model may make without a weapon: not the weapon asked about",
    touches: 'none',
    pattern: whole(String.raw`(?:${NAME} can make a melee attack with the .+ keywords? even though (?:it|she|he|they) does not have a melee weapon|a [\w ]+ melee attack does not use a melee weapon and has the .+ keywords?)`),
    examples: ['A Rat Swarm can make a Melee Attack with the CLEAVE 1 Keyword even though it does not have a Melee Weapon', 'A Stomp Melee Attack does not use a Melee Weapon and has the IGNORE ARMOUR Keyword'],
  },
  {
    name: 'a dormant state instead of Out of Action: the model leaves the fight as Out of Action does (ruling T29)',
    touches: 'none',
    pattern: whole(String.raw`(?:once per turn, )?when ${NAME} would be taken out of action, it instead goes dormant|remove all (?:blood |infection )?markers from ${NAME} and replace its model with .+ to represent its dormant state|if a friendly [\w ]+ model finishes a move within \d+" of this marker, .+|${NAME} set up in this way is down.*`),
    examples: ['Once per Turn, when a Carrion Wyrm would be taken Out of Action, it instead goes dormant', 'Remove all INFECTION MARKERS from the Carrion Wyrm and replace its model with a 50mm piece of Impassable terrain to represent its dormant state', 'If a friendly Ghoul model finishes a move within 1" of this Marker, remove the Marker and the Ghoul model', 'A Carrion Wyrm set up in this way is Down, but can be Activated this Turn'],
  },
  {
    name: 'commands to other models, paid for with markers removed (the commanded model acts, not this one)',
    touches: 'none',
    pattern: whole(String.raw`for each (?:blood |infection )?marker you remove, you can then carry out one of the following commands with ${NAME} that is within \d+" of ${NAME}:?`),
    examples: ['For each INFECTION MARKER you remove, you can then carry out one of the following Commands with a Ghoul that is within 8" of the Crone'],
    listIsAnotherModels: true,
  },
  {
    name: 'the rules of a devoured model (another model, inside this one)',
    touches: 'none',
    pattern: whole(String.raw`the model you picked is devoured, and the following rules apply to it:?`),
    examples: ['the model you picked is devoured, and the following rules apply to it:'],
    listIsAnotherModels: true,
  },
  {
    name: "an ACTION's result: a sample or marker the model gains (its activation's, not an attack's)",
    touches: 'none',
    pattern: whole(String.raw`${NAME} extracts a sample from .+, gaining an? blessing marker .+`),
    examples: ['the Alchemist extracts a sample from the wounded model, gaining a Blessing Marker to represent its new insight'],
  },
  {
    name: "a device's own injury rolls when it detonates (no attack on the model)",
    touches: 'none',
    pattern: whole(String.raw`make the injury roll for ${NAME} by rolling \dd6 and adding all \d dice together, and add [+-]\d+ injury dice to the injury rolls for other models that are within \d+" of .+`),
    examples: ['Make the Injury Roll for the Bomb Bearer by rolling 4D6 and adding all 4 dice together, and add +1 INJURY DICE to the Injury Rolls for other models that are within 1" of the Bomb Bearer'],
  },
  {
    name: 'a redeploy that takes an enemy model along (a move, after an ACTION)',
    touches: 'none',
    pattern: whole(String.raw`(?:if the roll is a success or (?:a )?critical success and ${NAME} is within \d+" of any enemy models? [^,]+, then ${NAME} can take \d+ of the enemy models? with (?:them|it|him|her)|you must deploy ${NAME} first and then deploy the enemy model within \d+" of ${NAME})`),
    examples: ['if the roll is a Success or Critical Success and the Hexer is within 1" of any enemy models mounted on a 32mm base or smaller, then the Hexer can take 1 of the enemy models with them', 'you must deploy the Hexer first and then deploy the enemy model within 1" of the Hexer'],
  },
  {
    name: "a move after the attack that the attack's result forbids or allows (the attack itself as ever)",
    touches: 'none',
    pattern: whole(String.raw`(?:it cannot make the \d+" move if the second attack takes the target down or out of action|if the attack takes the target out of action, no blood markers are placed and this ability cannot be used)`),
    examples: ['it cannot make the 2" move if the second attack takes the target Down or Out of Action', 'if the attack takes the target Out of Action, no BLOOD MARKERS are placed and this ability cannot be used'],
  },
  {
    name: "a campaign skill of another model's that the weapon's attacks do not feel (the campaign, not a roll here)",
    touches: 'none',
    pattern: whole(String.raw`(?:in addition, )?attacks made with ${NAME} are not affected by the [\w' -]+ patron skill`),
    examples: ['In addition, attacks made with a Wyrm Cleaver are not affected by the Beastslayer Patron Skill'],
  },
  {
    name: 'an aura on friends near it (other models)',
    touches: 'none',
    pattern: whole(String.raw`any friendly models with the [a-z ]+ keyword within \d+" (?:and in (?:its|their) line of sight )?of ${NAME} gain .+`),
    examples: ['any friendly models with the CULTIST keyword within 4" and in its Line of Sight of the Veiled One gain -1 INJURY DICE to all Injury rolls made against them'],
  },
];

/** Openings that carry on the sentence before them (form.ts CarryOnForm). */
export const CARRY_ON_FORMS: readonly CarryOnForm[] = [
  { name: 'an example of the rule before: it adds none', opening: /^for example,\s*/i, illustrates: true, examples: ['For example, if you roll a 9 the bells ring'] },
  { name: 'the result of the roll before', opening: /^if (?:the roll|it) is a (?:success(?: or (?:a )?critical success)?|critical success)(?: or (?:a )?critical success)?,\s*/i, examples: ['If the roll is a Success or a Critical Success, the sky darkens'] },
  { name: 'what follows the choice before', opening: /^if (?:it|they|you) (?:does|do)(?: so)?(?:,\s*|\s+and\s+)/i, examples: ['If they do so, the bells ring'] },
  { name: 'what follows the choice before', opening: /^if successful,\s*/i, examples: ['If successful, the bells ring'] },
  { name: 'more of the sentence before', opening: /^(?:in addition|additionally|instead|however|then|note that),?\s+/i, examples: ['In addition, the bells ring', 'Then the bells ring'] },
];
