import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 48: an entry stops only the questions its unread sentences touch. Each class of the issue has an
 * invented model here (our names and sentences, in the shapes a catalogue writes them), with the answer
 * it must give: as a target, each must answer as the same question asked by flags (a plain target), or
 * stop naming its sentence; in a model's hands, each weapon likewise.
 */

const rosterFile = (selections: string): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'injury-lab-classes-')), 'classes.ros');
  writeFileSync(
    path,
    `<?xml version="1.0" encoding="UTF-8"?><roster name="Invented" gameSystemName="Trench Crusade" xmlns="http://www.battlescribe.net/schema/rosterSchema"><costs><cost name="Ducats" value="0"/></costs><forces><force name="Warband"><selections>${selections}</selections></force></forces></roster>`,
  );
  return path;
};

const ability = (name: string, text: string) =>
  `<profile name="${name}" typeName="Ability" hidden="false"><characteristics><characteristic name="Description">${text}</characteristic></characteristics></profile>`;

const weapon = (name: string, range: string, keywords: string, rulesText: string) =>
  `<selection name="${name}" number="1" type="upgrade"><profiles><profile name="${name}" typeName="Weapon" hidden="false"><characteristics><characteristic name="Range">${range}</characteristic><characteristic name="Keywords">${keywords}</characteristic><characteristic name="Rules">${rulesText}</characteristic></characteristics></profile></profiles><costs><cost name="Ducats" value="10"/></costs></selection>`;

/** A model with an armour of 0 and +0 dice, its abilities, and a Knife of its own; `custom` renames it as a player would. */
const model = (entry: string, abilities: string, custom?: string) =>
  `<selection name="${entry}"${custom ? ` customName="${custom}"` : ''} number="1" type="model"><profiles><profile name="${entry}" typeName="Unit" hidden="false"><characteristics><characteristic name="Ranged">+0 Dice</characteristic><characteristic name="Melee">+0 Dice</characteristic><characteristic name="Armour">0</characteristic></characteristics></profile>${abilities}</profiles><selections><selection name="Knife" number="1" type="upgrade"><profiles><profile name="Knife" typeName="Weapon" hidden="false"><characteristics><characteristic name="Range">Melee</characteristic><characteristic name="Keywords">-</characteristic></characteristics></profile></profiles><costs><cost name="Ducats" value="1"/></costs></selection></selections><costs><cost name="Ducats" value="30"/></costs></selection>`;

const ROSTER = rosterFile(
  // 1. Text about its own attacks: the target answers; its weapon stops.
  model('Seer', ability('Foresight', 'You can re-roll failed Success Rolls for a Seer.')) +
    // 1. An attack of its own without a weapon: another attack, touching neither question.
    model('Rat Swarm', ability('Gnaw', 'A Rat Swarm can make a Melee Attack with the CLEAVE 1 Keyword even though it does not have a Melee Weapon.')) +
    // 2. An ACTION that ends the activation on a failure, with its result: no roll of one attack.
    model(
      'Bell Ringer',
      ability('Toll', 'A Bell Ringer can take a Toll ACTION. If they do so, take a Success Roll for the model. If the roll is a Success or Critical Success, you can move all friendly models within 6&quot; of the Bell Ringer up to 2&quot;. If the roll is a Failure, the Bell Ringer\u2019s Activation ends.'),
    ) +
    // 2. A bodyguard, the campaign, flavour.
    model(
      'Shield Bearer',
      ability('Guard', 'If a friendly PILGRIM model within 1&quot; of a Shield Bearer is hit by a Ranged Attack or Melee Attack, you can say that the Shield Bearer will take the hit. If you do so, make an Injury Roll for the Shield Bearer instead of the original target.') +
        ability('Lore', 'Due to their knowledge of old wounds, the Bearers are experts at inflicting lasting injuries.'),
    ) +
    // 2. An ACTION whose result adds dice to its own attacks: a choice its player may make; both answer, without it, and say so.
    model('Bowman', ability('Aim', 'A Bowman can take an Aim ACTION. If the roll is a Success or Critical Success, for the rest of the Activation, add +2 DICE to the Success Rolls for Ranged Attacks that are made by the Bowman.')) +
    // A target's own rule: it stops as a target; its weapon answers.
    model('Old Guard', ability('Stubborn', 'The first time the Old Guard suffers an Out of Action result on the Injury Table, it is treated as a Minor Hit result instead.')) +
    // No form: unclear, both stop.
    model('Riddler', ability('Riddle', 'The Riddler rolls its injuries twice and keeps the better.')) +
    // 4. A renamed model keeps its rules: the roster calls the Iron Bull "Old Horns".
    model('Iron Bull', ability('Hide', 'Add -1 INJURY DICE to Injury Rolls for an Iron Bull.'), 'Old Horns') +
    // 5. What the engines have: immunities in brackets, a weapon without a Success Roll.
    model('Masked Monk', ability('Veil', 'A veil is sewn over the face of the Monk. This counts as a Hood and a Gas Mask (Immune to SHRAPNEL, GAS, and FEAR).')) +
    model('Field Surgeon', ability('Steady', 'The Field Surgeon is immune to FEAR.')) +
    weapon('Fire Hose', '10&quot;', 'FIRE', 'When a Fire Hose is used to make a Ranged Attack, do not make a Success Roll for the attack. Instead, measure a straight line 1mm wide and up to 10&quot; long from the attacking model to a point on the ground or a model\'s base. Make an Injury Roll for every model touched by the line.') +
    // 6. A weapon's rules against a Down target.
    weapon('Mercy Pick', 'Melee', '-', 'Coup: The weapon has the IGNORE ARMOUR Keyword if the target is Downed.') +
    weapon('Boar Spear', 'Melee', '-', 'This weapon adds an extra +2 INJURY DICE against a target that is Down.') +
    // Its first Out of Action is a No Effect.
    model('Last Knight', ability('Not Today', 'The first time the Last Knight suffers an Out of Action result on the Injury Table, it is treated as a No Effect result.')) +
    // Injury dice against it only from an attack with a keyword.
    model('Mist Walker', ability('Vapours', 'Add -1 INJURY DICE to rolls for a Mist Walker that has been hit by an attack with the GAS Keyword.')) +
    // A weapon's own markers after every roll.
    weapon('Thorn Knife', 'Melee', '-', 'Injury Rolls made with this weapon cause 2 additional BLOOD MARKERS to the target, regardless of the result of the roll.') +
    weapon('Mallet', 'Melee', '-', 'After making the Injury Roll for a Mallet, place 1 extra BLOOD MARKER next to the target.') +
    // A line broken in the middle of a sentence is one sentence: the condition stays with its effect.
    model('Split Wraith', ability('Wane', 'Add -1 INJURY DICE to Injury Rolls for a Split Wraith\nunless the attack has the HALLOWED Keyword.')) +
    // What follows one attack when the models fight on: a marker on the attacker once its roll is made,
    // a redeploy once an attack on it has failed. One attack answers; a duel stops.
    weapon('Siege Maul', 'Melee', '-', 'Place 1 BLOOD MARKER next to the model using this Weapon if it makes a Melee Attack and the Success Roll is a Success or a Critical Success.') +
    model('Mirage Dancer', ability('Fade', 'If your opponent fails their Success Roll for an attack targeting a Mirage Dancer, you can say the Mirage Dancer will fade from sight. If you do so, you can redeploy it anywhere within 6&quot; of its original location.')) +
    // Another model's list: what follows the lead-in's colon is the commanded model's.
    model('Overseer', ability('Command', 'As a RISKY ACTION, the Overseer can command any other friendly CLOCKWORK model within 12&quot; to do one of the following:\n* The CLOCKWORK model immediately DOWNS itself and any enemy model it is in melee with.\n* Neither take any BLOOD MARKER for becoming DOWN.')) +
    // An item's rule for "a model that has" it, against attacks with a keyword: read, not stopped on its subject.
    model('Bog Sapper', '<profile name="Bog Plate" typeName="Armour" hidden="false"><characteristics><characteristic name="Rules">Add -1 INJURY DICE to Injury Rolls for a model that has Bog Plate that has been hit by an attack with the SHRAPNEL Keyword.</characteristic></characteristics></profile>') +
    // Rules that hold until its first Out of Action, under a lead-in: rolls against it, not its attacks.
    model('Iron Saint', ability('Penance', 'This is represented by the following special rules, which apply to the Iron Saint until it suffers an Out of Action result on the Injury Table:\n* It treats Down results as Minor Hit results.\n* The first time the Iron Saint suffers an Out of Action result on the Injury Table, it is treated as a No Effect result.')) +
    // A weapon's bonus against a target's keywords (ruling T35).
    weapon('Blessed Flask', '8&quot;', '-', 'Add +1 INJURY DICE to rolls against models that have the BLACK GRAIL or DEMONIC Keyword.') +
    weapon('Saint Fork', 'Melee', '-', 'Attacks made against model with the keywords DEMONIC, HERETIC, and BLACK GRAIL add +1 INJURY DICE.') +
    weapon('Judge Mallet', 'Melee', '-', 'After making the Injury Roll for a Judge Mallet, place 1 extra BLOOD MARKER next to the target model. If the target has the HERETIC or DEMONIC Keyword, place 2 BLOOD MARKERS next to it instead of 1.') +
    // Fields the engines have, read from an item's or a weapon's sentences (rulings T31-T34).
    model('Rune Guard', '<profile name="Rune Plate" typeName="Armour" hidden="false"><characteristics><characteristic name="Rules">If an attack would normally ignore armour, Rune Plate still grants a -1 INJURY MODIFIER.</characteristic></characteristics></profile>') +
    model('Dune Scout', '<profile name="Sand Cloak" typeName="Equipment" hidden="false"><characteristics><characteristic name="Rules">The Ranged Attack Modifier for a target being in Cover is -2 DICE instead of -1 DICE if the target has a Sand Cloak.</characteristic></characteristics></profile>') +
    weapon('Serpent Rifle', '24&quot;', '-', 'Add +1 DICE to roll for attacks made with this weapon if the Cover or Long Range modifiers apply to the attack, instead of adding -1 DICE. Note that this means you add +2 DICE to the roll if both modifiers apply to the attack.') +
    weapon('Tower Cleaver', 'Melee', '-', 'When you make an Injury Roll for an attack made with a Tower Cleaver, determine if the target has an Armour Characteristic that is -1 or greater, or if it is wearing Armour or carrying a Shield. If it does, before rolling the dice for the Injury Roll, put one dice aside and turn it so that it shows a &quot;6&quot;. Roll the rest of the dice, then return the dice you put to one side; it counts as having rolled a 6.') +
    weapon('Half Cleaver', 'Melee', '-', 'If it does, before rolling the dice for the Injury Roll, put one dice aside and turn it so that it shows a &quot;6&quot;.') +
    weapon('Hook Chain', '8&quot;', '-', 'Minor Injuries caused by the Hook Chain are treated as Down results instead.') +
    // A choice or situation the question does not take: answered without it, and said.
    model('Wheel Saint', ability('Chained', 'At the start of each game, before deployment, you can say that one Acolyte will be chained to the Wheel Saint. This is represented by the following special rules, which apply to the Wheel Saint until it suffers an Out of Action result on the Injury Table:\n* It treats Down results as Minor Hit results.')) +
    model('Veiled One', ability('Shroud', 'As long as there are at least a total of 2 Blood Markers on friendly models within 3&quot; of a Veiled One, every Out of Action injury result against it is treated as Downed instead.')) +
    model('Moon Caster', ability('Moonward', 'You can cast this spell before an Injury Roll is made for the spellcaster. If you do so, add a -1 INJURY MODIFIER to the roll for every 2 BLOOD MARKERS that were paid to cast the spell.')) +
    weapon('Dusk Axe', 'Melee', '-', 'Add a +2 INJURY MODIFIER to rolls made for this weapon if the target has not yet been Activated this Turn.') +
    weapon('Quiet Pistol', '12&quot;', '-', 'Add +1 DICE to the roll if the attacker is in contact with a terrain piece that is at least 1/2&quot; tall and that lies in between it and the target model.') +
    weapon('Fume Pot', '8&quot;', '-', 'When you take a Shoot ACTION with this model, instead of making a Ranged Attack, you can release a cloud of spores. If you do so, do not make a Success Roll.') +
    weapon('Hex Grenade', '8&quot;', '-', 'Double the number of BLOOD MARKERS placed next to a model by an Injury Roll for an attack made with a Hex Grenade. In addition, an Injury Roll is made for all models that are within 3&quot; of the target point when the Hex Grenade explodes, even if interposing terrain blocks the line of sight.') +
    weapon('Cleaver Lug', 'Melee', '-', 'Friendly models within 3&quot; of a model with a Cleaver Lug achieve a Critical Success on an 11+ for their Melee Attacks.') +
    // A blast's direct hit made Deadly, injury dice in cover, and markers after it.
    weapon('Ember Pot', '12&quot;', 'BLAST 3', 'Duck: Add -1 INJURY DICE to the roll for a model that is hit by an Ember Pot if it is in contact with a terrain piece that is at least 1/2&quot; tall and that lies in between it and the target point. If the Success Roll for a Ranged Attack with an Ember Pot that targets an enemy model is a Success or a Critical Success, or if the attack is a Failure and the target point scatters onto a model&apos;s base, apply the effect of the DEADLY Keyword to the Injury Roll for that model. Injury Rolls for other models caught in the Ember Pot&apos;s BLAST are made normally.') +
    weapon('Glow Pot', '12&quot;', 'BLAST 3', 'If a model was the target for a Glow Pot and hit by it, or if a Glow Pot scatters and the target point lands on a model&apos;s base, when you make the Injury Roll for that model, roll 3D6 and add all 3 dice together. Any +INJURY DICE or -INJURY DICE that applied to the Injury Roll will apply normally, except that you pick the 3 highest or lowest dice in the roll instead of the 2 highest or lowest. Additionally, it applies an additional +1 BLOOD MARKER to that model.') +
    weapon('Half Glow', '12&quot;', '-', 'Additionally, it applies an additional +1 BLOOD MARKER to that model.') +
    // An aura on enemies near it: melee attacks on it are within it; a ranged one is taken from farther, and said.
    model('Hymn Singer', ability('Dirge', 'All enemy models within 8&quot; of the Hymn Singer suffer an additional -1 DICE for all ACTIONS they attempt.')) +
    // What an ACTION does to an attack holds only when it is taken: its own attack (a Trample), a charge's
    // bonus, dice for friends near it. A sentence under it that no form classes still stops (the Stone Guard's).
    model('Stone Ox', ability('Trample', 'A Stone Ox can take a Trample ACTION. If it does so, it can make a Melee Attack that must target an enemy model that is Down.')) +
    model('Stone Guard', ability('Brace', 'A Stone Guard can take a Brace ACTION. If it does so, add -1 INJURY DICE to Injury Rolls for a Stone Guard.')) +
    model('Lancer', ability('Couched', 'If the first ACTION the model makes during their Activation is a Charge, add +1 DICE to Melee Attacks made by this model for the rest of the Activation.')) +
    model('Pack Rat', ability('Swarm', 'Add +1 DICE to the Success Roll for a Melee Attack made by a Pack Rat for each other friendly model within 3&quot; of the attacking model.')) +
    // A dormant state is Out of Action for every question (ruling T29).
    model('Carrion Wyrm', ability('Slumber', 'Once per Turn, when a Carrion Wyrm would be taken Out of Action, it instead goes dormant. Remove all INFECTION MARKERS from the Carrion Wyrm and replace its model with a 50mm piece of Impassable terrain to represent its dormant state.')),
);

interface ExactJson {
  outcomes: { exact: string }[];
}

async function exactJson(...args: string[]): Promise<ExactJson> {
  const r = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', ...args);
  expect([r.code, r.stderr]).toEqual([0, '']);
  return JSON.parse(r.stdout) as ExactJson;
}

const answers = (r: ExactJson) => r.outcomes.map((o) => o.exact);

async function stopsSaying(args: readonly string[], message: string): Promise<void> {
  const r = await cliInProcess('exact', '--kind', 'attack', ...args);
  expect([r.code, r.stdout]).toEqual([2, '']);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain(message);
}

describe('an entry stops only the questions its unread sentences touch', () => {
  it('text about its own attacks: the model answers as a target, its weapon stops naming the sentence', async () => {
    expect(answers(await exactJson('--roster', ROSTER, '--target', 'Seer'))).toEqual(answers(await exactJson('--armour', 'none')));
    await stopsSaying(['--roster', ROSTER, '--weapon', 'Seer with Knife'], '"You can re-roll failed Success Rolls for a Seer" is not modelled');
  });

  it('an attack of its own without a weapon touches neither the model as a target nor its weapon', async () => {
    expect(answers(await exactJson('--roster', ROSTER, '--target', 'Rat Swarm'))).toEqual(answers(await exactJson('--armour', 'none')));
    expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Rat Swarm with Knife'))).toEqual(answers(await exactJson('--attack-type', 'melee')));
  });

  it('an ACTION, its roll, its move and its failed activation touch no roll: both questions answer', async () => {
    for (const name of ['Bell Ringer', 'Shield Bearer']) {
      expect(answers(await exactJson('--roster', ROSTER, '--target', name))).toEqual(answers(await exactJson('--armour', 'none')));
      expect(answers(await exactJson('--roster', ROSTER, '--weapon', `${name} with Knife`))).toEqual(answers(await exactJson('--attack-type', 'melee')));
    }
  });

  it("an ACTION's result that adds dice to its own attacks is a choice not taken: both questions answer, the weapon's saying so", async () => {
    expect(answers(await exactJson('--roster', ROSTER, '--target', 'Bowman'))).toEqual(answers(await exactJson('--armour', 'none')));
    const r = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', '--roster', ROSTER, '--weapon', 'Bowman with Knife');
    expect(r.code).toBe(0);
    expect(answers(JSON.parse(r.stdout) as ExactJson)).toEqual(answers(await exactJson('--attack-type', 'melee')));
    expect(r.stderr).toBe('injury-lab: warning: weapon "Bowman with Knife": answered without what these give (a choice or situation not taken): Bowman\'s text of ability Aim ("If the roll is a Success or Critical Success, for the rest of the Activation, add +2 DICE to the Success Rolls for Ranged Attacks that are made by the Bowman")\n');
  });

  it("a rule of rolls against it stops the model as a target, and not its weapon", async () => {
    await stopsSaying(['--roster', ROSTER, '--target', 'Old Guard'], '"The first time the Old Guard suffers an Out of Action result on the Injury Table, it is treated as a Minor Hit result instead" is not modelled (touches rolls against the model');
    expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Old Guard with Knife'))).toEqual(answers(await exactJson('--attack-type', 'melee')));
  });

  it('a sentence no form classes is unclear: it stops both questions', async () => {
    await stopsSaying(['--roster', ROSTER, '--target', 'Riddler'], '"The Riddler rolls its injuries twice and keeps the better" is not modelled (a sentence about the odds that injury-lab does not read whole)');
    await stopsSaying(['--roster', ROSTER, '--weapon', 'Riddler with Knife'], '"The Riddler rolls its injuries twice and keeps the better" is not modelled');
  });

  it('--explain says the class of every sentence not read', async () => {
    const r = await cliInProcess('profiles', '--roster', ROSTER, '--explain', '--format', 'json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { profiles: { name: string; notRead: { text: string; touches?: string }[] }[] };
    const touches = (name: string) => Object.fromEntries(doc.profiles.find((p) => p.name === name)!.notRead.filter((n) => n.touches).map((n) => [n.text, n.touches]));
    expect(touches('Bell Ringer')).toEqual({
      'A Bell Ringer can take a Toll ACTION': 'none',
      'If they do so, take a Success Roll for the model': 'none',
      'If the roll is a Success or Critical Success, you can move all friendly models within 6" of the Bell Ringer up to 2"': 'none',
      "If the roll is a Failure, the Bell Ringer's Activation ends": 'none',
    });
    expect(touches('Seer')).toEqual({ 'You can re-roll failed Success Rolls for a Seer': 'attacker' });
    expect(touches('Old Guard')).toEqual({ 'The first time the Old Guard suffers an Out of Action result on the Injury Table, it is treated as a Minor Hit result instead': 'target' });
    expect(touches('Riddler')).toEqual({ 'The Riddler rolls its injuries twice and keeps the better': 'unclear' });
  });
});

describe('what follows one attack stops a fight, never the attack', () => {
  const duel = (...args: string[]) => cliInProcess('exact', '--kind', 'duel', '--roster', ROSTER, '--format', 'json', ...args);

  it('a marker the weapon places on its attacker: the attack answers as a plain melee attack; a duel with it stops naming the sentence', async () => {
    expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Siege Maul'))).toEqual(answers(await exactJson('--attack-type', 'melee')));
    const r = await duel('--a', 'model=Seer,weapon=Siege Maul', '--b', 'model=Rat Swarm,weapon=Knife');
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain('"Place 1 BLOOD MARKER next to the model using this Weapon if it makes a Melee Attack and the Success Roll is a Success or a Critical Success" is not modelled (touches what follows the attack');
  });

  it('a redeploy once an attack on it has failed: the model answers as a target; a duel with it stops', async () => {
    expect(answers(await exactJson('--roster', ROSTER, '--target', 'Mirage Dancer'))).toEqual(answers(await exactJson('--armour', 'none')));
    const r = await duel('--a', 'model=Mirage Dancer,weapon=Knife', '--b', 'model=Rat Swarm,weapon=Knife');
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain('"If your opponent fails their Success Roll for an attack targeting a Mirage Dancer, you can say the Mirage Dancer will fade from sight" is not modelled');
    // The same duel without the Dancer answers: the stop is the sentence's, nothing else's.
    expect((await duel('--a', 'model=Rat Swarm,weapon=Knife', '--b', 'model=Rat Swarm,weapon=Knife')).code).toBe(0);
  });

  it("what follows another model's lead-in is that model's: the Overseer answers as a target and in its hands", async () => {
    expect(answers(await exactJson('--roster', ROSTER, '--target', 'Overseer'))).toEqual(answers(await exactJson('--armour', 'none')));
    expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Overseer with Knife'))).toEqual(answers(await exactJson('--attack-type', 'melee')));
    const r = await cliInProcess('profiles', '--roster', ROSTER, '--explain', '--format', 'json');
    const doc = JSON.parse(r.stdout) as { profiles: { name: string; notRead: { text: string; touches?: string; why: string }[] }[] };
    const neither = doc.profiles.find((p) => p.name === 'Overseer')!.notRead.find((n) => n.text === 'Neither take any BLOOD MARKER for becoming DOWN')!;
    expect(neither.touches).toBe('none');
    expect(neither.why).toContain("another model's");
  });

  it('a dormant state instead of Out of Action changes no answer (ruling T29): the Wyrm answers as a plain target, in an attack and a duel', async () => {
    expect(answers(await exactJson('--roster', ROSTER, '--target', 'Carrion Wyrm'))).toEqual(answers(await exactJson('--armour', 'none')));
    const wyrm = await duel('--a', 'model=Carrion Wyrm,weapon=Knife', '--b', 'model=Rat Swarm,weapon=Knife');
    const plain = await duel('--a', 'model=Rat Swarm,weapon=Knife', '--b', 'model=Rat Swarm,weapon=Knife');
    expect(wyrm.code).toBe(0);
    const outcomes = (out: string) => (JSON.parse(out) as ExactJson).outcomes.map((o) => o.exact);
    expect(outcomes(wyrm.stdout)).toEqual(outcomes(plain.stdout));
  });
});

describe('a choice or situation the question does not take', () => {
  it('an option chosen before the game, a situation of friends near it, a spell its player may cast: answered without them, and said', async () => {
    const plain = await exactJson('--armour', 'none');
    for (const [name, first] of [
      ['Wheel Saint', 'text of ability Chained ("At the start of each game, before deployment, you can say that one Acolyte will be chained to the Wheel Saint" and 2 more sentences)'],
      ['Veiled One', 'text of ability Shroud ("As long as there are at least a total of 2 Blood Markers on friendly models within 3\\" of a Veiled One, every Out of Action injury result against it is treated as Downed instead")'],
      ['Moon Caster', 'text of ability Moonward ("You can cast this spell before an Injury Roll is made for the spellcaster" and 1 more sentence)'],
    ] as const) {
      const r = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', '--roster', ROSTER, '--target', name);
      expect(r.code).toBe(0);
      expect(answers(JSON.parse(r.stdout) as ExactJson)).toEqual(answers(plain));
      expect(r.stderr).toBe(`injury-lab: warning: model "${name}": answered without what these give (a choice or situation not taken): ${first}\n`);
      // The JSON answer carries it too, with what was left out.
      expect(JSON.stringify((JSON.parse(r.stdout) as { scenario: unknown }).scenario)).toContain('(not taken)');
    }
  });

  it("a weapon's bonus in a situation (a target not yet activated, an attacker behind terrain) and another use of it: the attack answers as plain, and says so", async () => {
    for (const [name, type] of [['Dusk Axe', 'melee'], ['Quiet Pistol', 'ranged'], ['Fume Pot', 'ranged']] as const) {
      const r = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', '--roster', ROSTER, '--weapon', name);
      expect(r.code).toBe(0);
      expect(answers(JSON.parse(r.stdout) as ExactJson)).toEqual(answers(await exactJson('--attack-type', type)));
      expect(r.stderr).toMatch(new RegExp(`^injury-lab: warning: weapon "${name}": answered without what these give \\(a choice or situation not taken\\): rules text \\("`));
    }
  });

  it("what an ACTION does to an attack (its own Trample), a charge's bonus and friends near it: answered without, and said in its hands", async () => {
    const target = await exactJson('--armour', 'none');
    const melee = await exactJson('--attack-type', 'melee');
    for (const name of ['Stone Ox', 'Lancer', 'Pack Rat']) {
      const asTarget = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', '--roster', ROSTER, '--target', name);
      const inHand = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', '--roster', ROSTER, '--weapon', `${name} with Knife`);
      for (const r of [asTarget, inHand]) expect([name, r.code, r.stderr]).toEqual([name, 0, expect.any(String)]);
      expect(answers(JSON.parse(asTarget.stdout) as ExactJson)).toEqual(answers(target));
      expect(answers(JSON.parse(inHand.stdout) as ExactJson)).toEqual(answers(melee));
      expect(inHand.stderr).toMatch(new RegExp(`^injury-lab: warning: weapon "${name} with Knife": answered without what these give \\(a choice or situation not taken\\): ${name}'s text of ability`));
      // Not said when it is the target: its own attacks are not the question.
      expect(asTarget.stderr).toBe('');
    }
    // "If it does so, add -1 INJURY DICE ..." is read by no form: under an ACTION it still stops.
    await stopsSaying(['--roster', ROSTER, '--target', 'Stone Guard'], '"If it does so, add -1 INJURY DICE to Injury Rolls for a Stone Guard" is not modelled');
  });

  it('IGNORE RANGE is IGNORE LONG RANGE: a shot at long range with it is the shot in range', async () => {
    expect(answers(await exactJson('--attack-type', 'ranged', '--long-range', '--weapon-keywords', 'IGNORE RANGE'))).toEqual(answers(await exactJson('--attack-type', 'ranged')));
    expect(answers(await exactJson('--attack-type', 'ranged', '--long-range'))).not.toEqual(answers(await exactJson('--attack-type', 'ranged')));
  });

  it('an aura of -1 DICE on enemies within 8": melee attacks on it get it; a ranged attack is taken from farther, and the answer says so (ruling T40)', async () => {
    const melee = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', '--roster', ROSTER, '--target', 'Hymn Singer', '--attack-type', 'melee');
    expect(melee.code).toBe(0);
    expect(answers(JSON.parse(melee.stdout) as ExactJson)).toEqual(answers(await exactJson('--armour', 'none', '--attack-type', 'melee', '--target-attack-dice', '-1')));
    expect(melee.stderr).toBe('injury-lab: warning: model "Hymn Singer": answered without what these give (a choice or situation not taken): text of ability Dirge ("All enemy models within 8\\" of the Hymn Singer suffer an additional -1 DICE for all ACTIONS they attempt"), read but for: a ranged attacker is taken to be more than 8" away (no -1 DICE on its attacks)\n');
    const ranged = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', '--roster', ROSTER, '--target', 'Hymn Singer', '--attack-type', 'ranged');
    expect(answers(JSON.parse(ranged.stdout) as ExactJson)).toEqual(answers(await exactJson('--armour', 'none', '--attack-type', 'ranged')));
  });

  it('--explain classes every sentence under the option as the option, a read one too (never applied)', async () => {
    const r = await cliInProcess('profiles', '--roster', ROSTER, '--explain', '--format', 'json');
    const doc = JSON.parse(r.stdout) as { profiles: { name: string; notRead: { text: string; touches?: string }[] }[] };
    const saint = doc.profiles.find((p) => p.name === 'Wheel Saint')!.notRead.filter((n) => n.touches);
    expect(saint.map((n) => n.touches)).toEqual(['option', 'option', 'option']);
    expect(saint.at(-1)!.text).toBe('It treats Down results as Minor Hit results');
  });
});

describe('the entry, not the name', () => {
  it("a model the roster renames keeps its entry's rule: \"Old Horns\" is an Iron Bull, -1 INJURY DICE and all", async () => {
    const renamed = await exactJson('--roster', ROSTER, '--target', 'Old Horns');
    expect(answers(renamed)).toEqual(answers(await exactJson('--armour', 'none', '--target-injury-dice', '-1')));
    expect(answers(renamed)).not.toEqual(answers(await exactJson('--armour', 'none')));
  });
});

describe('what the engines already have, read from its sentence', () => {
  it('"counts as ... (Immune to SHRAPNEL, GAS, and FEAR)" is NEGATE SHRAPNEL, NEGATE GAS and NEGATE FEAR: a GAS and SHRAPNEL attack places no markers for them', async () => {
    const r = await cliInProcess('profiles', '--roster', ROSTER, '--format', 'json');
    const monk = (JSON.parse(r.stdout) as { models: Record<string, { keywords?: string[] }> }).models['Masked Monk']!;
    expect(monk.keywords).toEqual(expect.arrayContaining(['NEGATE SHRAPNEL', 'NEGATE GAS', 'NEGATE FEAR']));
    const viaRoster = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', '--roster', ROSTER, '--target', 'Masked Monk', '--weapon-keywords=GAS, SHRAPNEL');
    const viaFlags = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', '--armour', 'none', '--weapon-keywords=GAS, SHRAPNEL', '--target-keywords=NEGATE GAS, NEGATE SHRAPNEL');
    const markers = (out: string) => (JSON.parse(out) as { expectedBloodMarkers: unknown }).expectedBloodMarkers;
    expect(markers(viaRoster.stdout)).toEqual(markers(viaFlags.stdout));
    const unprotected = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', '--armour', 'none', '--weapon-keywords=GAS, SHRAPNEL');
    expect(markers(viaRoster.stdout)).not.toEqual(markers(unprotected.stdout));
  });

  it('"X is immune to FEAR" is NEGATE FEAR: its weapon attacks a FEAR target unhindered', async () => {
    const surgeon = await exactJson('--roster', ROSTER, '--weapon', 'Field Surgeon with Knife', '--target-keywords=FEAR');
    expect(answers(surgeon)).toEqual(answers(await exactJson('--attack-type', 'melee', '--target-keywords=FEAR', '--attacker-fear')));
    expect(answers(surgeon)).not.toEqual(answers(await exactJson('--attack-type', 'melee', '--target-keywords=FEAR')));
  });

  it('"do not make a Success Roll for the attack" is autoHit; the line it draws hits the target as any other model', async () => {
    const hose = await exactJson('--roster', ROSTER, '--weapon', 'Fire Hose');
    expect(answers(hose)).toEqual(answers(await exactJson('--attack-type', 'ranged', '--weapon-keywords=FIRE', '--auto-hit')));
    expect(answers(hose)[0]).toBe('0');
  });

  it("a weapon's rules against a Down target are its fields: the answers of --ignore-armour-if-down and --injury-dice-if-down, Down or not", async () => {
    for (const down of [[], ['--target-down']]) {
      expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Mercy Pick', '--armour', 'reinforced', ...down))).toEqual(answers(await exactJson('--attack-type', 'melee', '--ignore-armour-if-down', '--armour', 'reinforced', ...down)));
      expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Boar Spear', ...down))).toEqual(answers(await exactJson('--attack-type', 'melee', '--injury-dice-if-down', '2', ...down)));
    }
  });

  it("a weapon's own blood markers after every roll are extraBloodMarkers: the markers of --extra-blood-markers", async () => {
    const markers = async (...args: string[]) => {
      const r = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', ...args);
      expect([r.code, r.stderr]).toEqual([0, '']);
      return (JSON.parse(r.stdout) as { expectedBloodMarkers: { exact: string } }).expectedBloodMarkers.exact;
    };
    expect(await markers('--roster', ROSTER, '--weapon', 'Thorn Knife')).toBe(await markers('--attack-type', 'melee', '--extra-blood-markers', '2'));
    expect(await markers('--roster', ROSTER, '--weapon', 'Mallet')).toBe(await markers('--attack-type', 'melee', '--extra-blood-markers', '1'));
    expect(await markers('--roster', ROSTER, '--weapon', 'Mallet')).not.toBe(await markers('--attack-type', 'melee'));
  });

  it('"-1 INJURY DICE to rolls for X that has been hit by an attack with the GAS Keyword" holds against GAS attacks only (-1 INJURY DICE IF GAS)', async () => {
    const gas = await exactJson('--roster', ROSTER, '--target', 'Mist Walker', '--weapon-keywords=GAS');
    expect(answers(gas)).toEqual(answers(await exactJson('--armour', 'none', '--weapon-keywords=GAS', '--target-injury-dice', '-1')));
    expect(answers(gas)).toEqual(answers(await exactJson('--armour', 'none', '--weapon-keywords=GAS', '--target-keywords=-1 INJURY DICE IF GAS')));
    const plain = await exactJson('--roster', ROSTER, '--target', 'Mist Walker');
    expect(answers(plain)).toEqual(answers(await exactJson('--armour', 'none')));
    expect(answers(plain)).toEqual(answers(await exactJson('--armour', 'none', '--target-keywords=-1 INJURY DICE IF GAS')));
    // The export holds it as data and reads back to the same answers.
    const exported = await cliInProcess('profiles', '--roster', ROSTER, '--format', 'json');
    const doc = JSON.parse(exported.stdout) as { models: Record<string, { injuryDiceUnless?: unknown }> };
    expect(doc.models['Mist Walker']!.injuryDiceUnless).toEqual([{ dice: -1, unless: [], onlyIf: ['GAS'] }]);
    const file = join(mkdtempSync(join(tmpdir(), 'injury-lab-onlyif-')), 'walkers.json');
    writeFileSync(file, exported.stdout);
    expect(answers(await exactJson('--profiles', file, '--target', 'Mist Walker', '--weapon-keywords=GAS'))).toEqual(answers(gas));
  });

  it('"the first time X suffers an Out of Action result ..., it is treated as a No Effect result" is firstOutOfActionNoEffect', async () => {
    const knight = await exactJson('--roster', ROSTER, '--target', 'Last Knight');
    expect(answers(knight)).toEqual(answers(await exactJson('--armour', 'none', '--first-out-of-action-no-effect')));
    expect(answers(knight).at(-1)).toBe('0');
  });

  it('"for a model that has ITEM that has been hit by an attack with the SHRAPNEL Keyword" on the item is -1 INJURY DICE IF SHRAPNEL, its subject the item\'s bearer', async () => {
    const shrapnel = await exactJson('--roster', ROSTER, '--target', 'Bog Sapper', '--weapon-keywords=SHRAPNEL');
    expect(answers(shrapnel)).toEqual(answers(await exactJson('--armour', 'none', '--weapon-keywords=SHRAPNEL', '--target-keywords=-1 INJURY DICE IF SHRAPNEL')));
    expect(answers(shrapnel)).not.toEqual(answers(await exactJson('--armour', 'none', '--weapon-keywords=SHRAPNEL')));
    expect(answers(await exactJson('--roster', ROSTER, '--target', 'Bog Sapper'))).toEqual(answers(await exactJson('--armour', 'none')));
  });

  it('rules under a lead-in of rolls against the model ("... which apply to X until it suffers an Out of Action result:") stop it as a target, never the weapons in its hands', async () => {
    await stopsSaying(['--roster', ROSTER, '--target', 'Iron Saint'], 'is not modelled (touches rolls against the model');
    expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Iron Saint with Knife'))).toEqual(answers(await exactJson('--attack-type', 'melee')));
  });

  it("a weapon's bonus against a target's keywords holds against a target with one of them, and not against one without (ruling T35)", async () => {
    const grail = ['--target-keywords', 'BLACK GRAIL'];
    expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Blessed Flask', ...grail))).toEqual(answers(await exactJson('--attack-type', 'ranged', '--injury-dice', '1', ...grail)));
    expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Saint Fork', '--target-keywords', 'HERETIC'))).toEqual(answers(await exactJson('--attack-type', 'melee', '--injury-dice', '1')));
    expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Saint Fork', '--target', 'Old Horns'))).toEqual(answers(await exactJson('--attack-type', 'melee', '--armour', 'none', '--target-injury-dice', '-1')));
    // The Mallet's markers: 1 extra on anyone, 2 on a HERETIC (two attacks: the second's odds read the first's markers).
    const sequence = async (...args: string[]) => {
      const r = await cliInProcess('exact', '--kind', 'sequence', '--attacks', '2', '--policy', 'all', '--format', 'json', ...args);
      expect([r.code, r.stderr]).toEqual([0, '']);
      return answers(JSON.parse(r.stdout) as ExactJson);
    };
    const heretic = await sequence('--roster', ROSTER, '--weapon', 'Judge Mallet', '--target-keywords', 'HERETIC');
    expect(heretic).toEqual(await sequence('--attack-type', 'melee', '--extra-blood-markers', '2', '--target-keywords', 'HERETIC'));
    expect(heretic).not.toEqual(await sequence('--attack-type', 'melee', '--extra-blood-markers', '1'));
    expect(await sequence('--roster', ROSTER, '--weapon', 'Judge Mallet', '--target', 'Old Horns')).toEqual(await sequence('--attack-type', 'melee', '--extra-blood-markers', '1', '--target-injury-dice', '-1'));
  });

  it("an item's armour that still counts when ignored, and a cloak's Cover modifier, are the model's armourWhenIgnored and coverDice", async () => {
    const plain = await cliInProcess('profiles', '--roster', ROSTER, '--format', 'json');
    const doc = JSON.parse(plain.stdout) as { models: Record<string, Record<string, unknown>>; weapons: Record<string, Record<string, unknown>> };
    expect(doc.models['Rune Guard']).toMatchObject({ armourWhenIgnored: -1 });
    expect(doc.models['Dune Scout']).toMatchObject({ coverDice: -2 });
    const shot = ['--attack-type', 'ranged', '--target-in-cover'];
    expect(answers(await exactJson('--roster', ROSTER, '--target', 'Dune Scout', ...shot))).toEqual(answers(await exactJson('--armour', 'none', '--cover-dice', '-2', ...shot)));
    expect(answers(await exactJson('--roster', ROSTER, '--target', 'Dune Scout', ...shot))).not.toEqual(answers(await exactJson('--armour', 'none', ...shot)));
    expect(answers(await exactJson('--roster', ROSTER, '--target', 'Rune Guard', '--ignore-armour'))).toEqual(answers(await exactJson('--armour', 'none', '--armour-when-ignored', '-1', '--ignore-armour')));
  });

  it("a weapon's dice where Cover or Long Range apply, its Minor Hits as Downs, and a 6 put aside against armour, each read from its sentences", async () => {
    const doc = JSON.parse((await cliInProcess('profiles', '--roster', ROSTER, '--format', 'json')).stdout) as { weapons: Record<string, Record<string, unknown>> };
    expect(doc.weapons['Serpent Rifle']).toMatchObject({ coverAndLongRangeDice: 1 });
    expect(doc.weapons['Tower Cleaver']).toMatchObject({ sixAgainstArmoured: true });
    expect(doc.weapons['Hook Chain']).toMatchObject({ minorAsDown: true });
    const far = ['--target-in-cover', '--long-range'];
    expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Serpent Rifle', ...far))).toEqual(answers(await exactJson('--attack-type', 'ranged', '--cover-and-long-range-dice', '1', ...far)));
    expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Tower Cleaver', '--armour', 'standard'))).toEqual(answers(await exactJson('--attack-type', 'melee', '--six-against-armoured', '--armour', 'standard')));
    expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Hook Chain'))).toEqual(answers(await exactJson('--attack-type', 'ranged', '--minor-as-down')));
    // The rule's second sentence without the first that it acts on is not read: it stops.
    await stopsSaying(['--roster', ROSTER, '--weapon', 'Half Cleaver'], 'put one dice aside and turn it so that it shows a \\"6\\"" is not modelled');
  });

  it("a weapon's markers doubled and its critical on 11+ are bloodMarkersMultiplier 2 and criticalThreshold 11 (rulings T36, T39)", async () => {
    const markers = async (...args: string[]) => {
      const r = await cliInProcess('exact', '--kind', 'sequence', '--attacks', '2', '--policy', 'all', '--format', 'json', ...args);
      expect([r.code, r.stderr]).toEqual([0, '']);
      return answers(JSON.parse(r.stdout) as ExactJson);
    };
    const doubled = await markers('--roster', ROSTER, '--weapon', 'Hex Grenade');
    expect(doubled).toEqual(await markers('--attack-type', 'ranged', '--blood-markers-multiplier', '2'));
    expect(doubled).not.toEqual(await markers('--attack-type', 'ranged'));
    const lug = answers(await exactJson('--roster', ROSTER, '--weapon', 'Cleaver Lug'));
    expect(lug).toEqual(answers(await exactJson('--attack-type', 'melee', '--critical-threshold', '11')));
    expect(lug).not.toEqual(answers(await exactJson('--attack-type', 'melee')));
  });

  it("a blast's direct hit made Deadly, with injury dice against a target in cover and a marker after it, read from its sentences", async () => {
    const shot = ['--attack-type', 'ranged', '--deadly'];
    expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Ember Pot', '--target-in-cover'))).toEqual(answers(await exactJson(...shot, '--target-in-cover', '--injury-dice-in-cover', '-1')));
    expect(answers(await exactJson('--roster', ROSTER, '--weapon', 'Ember Pot'))).toEqual(answers(await exactJson(...shot)));
    const doc = JSON.parse((await cliInProcess('profiles', '--roster', ROSTER, '--format', 'json')).stdout) as { weapons: Record<string, { keywords?: string[] } & Record<string, unknown>> };
    expect(doc.weapons['Glow Pot']).toMatchObject({ keywords: ['BLAST 3', 'DEADLY'], extraBloodMarkers: 1 });
    // Its marker sentence alone, with nothing before it to say which model: not read, it stops.
    await stopsSaying(['--roster', ROSTER, '--weapon', 'Half Glow'], '"Additionally, it applies an additional +1 BLOOD MARKER to that model" is not modelled');
  });

  it('a line broken in the middle of a sentence keeps its condition: the unknown keyword after the break stops, never a -1 on every attack', async () => {
    await stopsSaying(['--roster', ROSTER, '--target', 'Split Wraith'], '"HALLOWED Keyword" is not keywords of the rule table');
  });
});
