import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 48, "Totals": `profiles --roster/--catalogue` starts with a summary, and `--stopping` and
 * `--left-out` list each of its groups. An invented roster (our names and sentences, in the shapes a
 * roster writes them) holds one model or weapon for each cause of a stop, so each count below is worked
 * out by hand from it.
 */

const rosterFile = (force: string): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'injury-lab-totals-')), 'totals.ros');
  writeFileSync(
    path,
    `<?xml version="1.0" encoding="UTF-8"?><roster name="Invented" gameSystemName="Trench Crusade" xmlns="http://www.battlescribe.net/schema/rosterSchema"><costs><cost name="Ducats" value="0"/></costs><forces><force name="Warband">${force}</force></forces></roster>`,
  );
  return path;
};

const ability = (name: string, text: string) =>
  `<profile name="${name}" typeName="Ability" hidden="false"><characteristics><characteristic name="Description">${text}</characteristic></characteristics></profile>`;

const weapon = (name: string, keywords = '-', rules = '-') =>
  `<selection name="${name}" number="1" type="upgrade"><profiles><profile name="${name}" typeName="Weapon" hidden="false"><characteristics><characteristic name="Range">Melee</characteristic><characteristic name="Keywords">${keywords}</characteristic><characteristic name="Rules">${rules}</characteristic></characteristics></profile></profiles><costs><cost name="Ducats" value="1"/></costs></selection>`;

const KNIFE = weapon('Knife');

/** A model with its abilities and weapons; its Armour 0 and +0 dice unless `unit` says otherwise. */
const model = (name: string, { abilities = '', weapons = KNIFE, armour = '0', ranged = '+0 Dice' }: { abilities?: string; weapons?: string; armour?: string; ranged?: string } = {}) =>
  `<selection name="${name}" number="1" type="model"><profiles><profile name="${name}" typeName="Unit" hidden="false"><characteristics><characteristic name="Ranged">${ranged}</characteristic><characteristic name="Melee">+0 Dice</characteristic><characteristic name="Armour">${armour}</characteristic></characteristics></profile>${abilities}</profiles><selections>${weapons}</selections><costs><cost name="Ducats" value="30"/></costs></selection>`;

const ROSTER = rosterFile(
  // Left out: a warband rule and an upgrade of the warband (neither a model nor a weapon).
  '<rules><rule name="Vows of Ash" hidden="false"><description>Invented warband rule.</description></rule></rules><selections>' +
    '<selection name="Ash Banner" number="1" type="upgrade">' + `<profiles>${ability('Banner', 'Invented banner text.')}</profiles><costs><cost name="Ducats" value="5"/></costs></selection>` +
    // target-text: stops the model as a target; its Knife in its hands answers.
    model('Old Guard', { abilities: ability('Stubborn', 'The first time the Old Guard suffers an Out of Action result on the Injury Table, it is treated as a Minor Hit result instead.') }) +
    // attacker-text: stops each weapon in its hands (the model, and "Seer with Knife"), not the model as a target.
    model('Seer', { abilities: ability('Foresight', 'You can re-roll failed Success Rolls for a Seer.') }) +
    // unclear-text: stops the model as a target and in its hands, and "Riddler with Knife".
    model('Riddler', { abilities: ability('Riddle', 'The Riddler rolls its injuries twice and keeps the better.') }) +
    // none: an ACTION; nothing stops.
    model('Bell Ringer', { abilities: ability('Toll', 'A Bell Ringer can take a Toll ACTION.') }) +
    // armour: an Armour value that is no armour stops the model as a target.
    model('Mudman', { armour: 'Mud' }) +
    // dice: "Ranged N/A" stops its ranged weapons in its hands; its Knife is melee, so "Stump with Knife" answers.
    model('Stump', { ranged: 'N/A' }) +
    // keyword: a token the rule table does not know stops the Bell Hammer and "Bellman with Bell Hammer".
    model('Bellman', { weapons: weapon('Bell Hammer', 'Quake 2') }) +
    // weapon-text: a sentence of the weapon's own attack stops the Goad and "Drover with Goad".
    model('Drover', { weapons: weapon('Goad', '-', 'Add a +1 INJURY MODIFIER to rolls made for this weapon if the target is standing on a bridge.') }) +
    '</selections>',
);

/*
 * By hand: models 8 (Old Guard, Seer, Riddler, Bell Ringer, Mudman, Stump, Bellman, Drover); weapons 3
 * (Knife, one profile for six identical ones, Bell Hammer, Goad); "MODEL with WEAPON" 8 (six with Knife,
 * Bellman with Bell Hammer, Drover with Goad): 19 entries.
 * Stopping 11: Old Guard, Seer, Seer with Knife, Riddler, Riddler with Knife, Mudman, Stump, Bell Hammer,
 * Bellman with Bell Hammer, Goad, Drover with Goad. Read whole: 19 - 11 = 8.
 * As a target 3 (Old Guard, Riddler, Mudman); in its hands 3 (Seer, Riddler, Stump); the weapon 6 (Seer
 * with Knife, Riddler with Knife, Bell Hammer, Bellman with Bell Hammer, Goad, Drover with Goad).
 * Causes: target-text 1, attacker-text 2, weapon-text 2, unclear-text 2, keyword 2, armour 1, dice 1.
 * Left out 2: one warband rule, one selection.
 */

describe('the summary profiles --roster starts with', () => {
  it('counts entries read whole, stopping by cause and question, and left out by kind, each with the command that lists it', async () => {
    const r = await cliInProcess('profiles', '--roster', ROSTER);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Summary: 8 models, 3 weapons, 8 "MODEL with WEAPON" (an entry that stops for two causes is counted under each)');
    const row = (label: string) => lines.find((l) => l.trimStart().startsWith(label))?.replace(/\s+/g, ' ').trim();
    expect(row('read whole')).toBe('read whole (nothing stops a question) 8');
    expect(row('stop some question')).toBe('stop some question 11 --stopping (as a target 3, in its hands 3, the weapon 6)');
    expect(row('a sentence about rolls against')).toMatch(/ 1 --stopping target-text$/);
    expect(row("a sentence about the model's own")).toMatch(/ 2 --stopping attacker-text$/);
    expect(row("a sentence about the weapon's own")).toMatch(/ 2 --stopping weapon-text$/);
    expect(row('a sentence no form classes')).toMatch(/ 2 --stopping unclear-text$/);
    expect(row('a keyword token')).toMatch(/ 2 --stopping keyword$/);
    expect(row('an Armour value')).toMatch(/ 1 --stopping armour$/);
    expect(row('a Melee or Ranged value')).toMatch(/ 1 --stopping dice$/);
    // A cause no entry has is no row.
    expect(row("a value out of its field's range")).toBeUndefined();
    expect(row('left out')).toBe('left out (read into no profile) 2 --left-out');
    expect(row('warband rules')).toBe('warband rules 1 --left-out warband-rule');
    expect(row('selections neither')).toBe('selections neither a model nor a weapon 1 --left-out selection');
    // Then the profiles table, as before.
    expect(r.stdout).toContain(`${ROSTER}: trench-crusade profiles read from a roster`);
  });

  it('gives the exact command line of each group, and each lists as many entries as its count', async () => {
    const r = await cliInProcess('profiles', '--roster', ROSTER);
    const commands = r.stdout.split('\n').filter((l) => l.startsWith('  injury-lab profiles '));
    expect(commands).toContain(`  injury-lab profiles --roster ${ROSTER} --stopping keyword`);
    const counts: Record<string, number> = { '--stopping': 11, '--stopping target-text': 1, '--stopping attacker-text': 2, '--stopping weapon-text': 2, '--stopping unclear-text': 2, '--stopping keyword': 2, '--stopping armour': 1, '--stopping dice': 1, '--left-out': 2, '--left-out selection': 1, '--left-out warband-rule': 1 };
    expect(commands.map((c) => c.slice(`  injury-lab profiles --roster ${ROSTER} `.length))).toEqual(Object.keys(counts));
    for (const [flags, count] of Object.entries(counts)) {
      const listed = await cliInProcess('profiles', '--roster', ROSTER, ...flags.split(' '), '--format', 'json');
      expect([listed.code, listed.stderr]).toEqual([0, '']);
      const doc = JSON.parse(listed.stdout) as { stopping?: unknown[]; leftOut?: unknown[] };
      expect([flags, (doc.stopping ?? doc.leftOut)!.length]).toEqual([flags, count]);
    }
  });

  it('--format json stays a profiles file: no summary key; --explain --format json carries it', async () => {
    const plain = JSON.parse((await cliInProcess('profiles', '--roster', ROSTER, '--format', 'json')).stdout) as Record<string, unknown>;
    expect(Object.keys(plain).sort()).toEqual(['description', 'models', 'system', 'weapons']);
    const explained = JSON.parse((await cliInProcess('profiles', '--roster', ROSTER, '--explain', '--format', 'json')).stdout) as { summary: Record<string, unknown> };
    expect(explained.summary).toMatchObject({ models: 8, weapons: 3, modelsWithWeapons: 8, readWhole: 8, stopping: 11, stoppingByQuestion: { target: 3, inHands: 3, weapon: 6 }, leftOut: 2 });
  });

  it('a catalogue set counts what it leaves out by kind (no .gst: links to a file not given)', async () => {
    // bell-wardens.cat alone links the Thornpike of the .gst not given (one item) and has no .gst (a second).
    const r = await cliInProcess('profiles', '--catalogue', 'test/fixtures/rosters/bell-wardens.cat');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').find((l) => l.includes('links to a file not given'))?.replace(/\s+/g, ' ').trim()).toBe('links to a file not given 2 --left-out file-not-given');
  });
});

describe('a file name with an escape sequence', () => {
  it('is shown escaped in the summary, its commands and the listings (one ESC would recolour the terminal)', async () => {
    // A folder whose name holds ESC: the summary's commands and the listings' titles print the path.
    const folder = join(mkdtempSync(join(tmpdir(), 'injury-lab-totals-')), 'red\u001b[31m');
    mkdirSync(folder);
    const roster = join(folder, 'totals.ros');
    copyFileSync(ROSTER, roster);
    for (const args of [[], ['--stopping'], ['--left-out']]) {
      const r = await cliInProcess('profiles', '--roster', roster, ...args);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain('\u001b');
      expect(r.stdout).toContain('red\\u001b[31m');
    }
  });
});

describe('--stopping', () => {
  it('lists each entry that stops with the questions it stops and its first item', async () => {
    const r = await cliInProcess('profiles', '--roster', ROSTER, '--stopping', '--format', 'json');
    const doc = JSON.parse(r.stdout) as { stopping: { name: string; kind: string; stops: string[]; first: { text: string; cause: string } }[] };
    const byName = Object.fromEntries(doc.stopping.map((e) => [e.name, [e.kind, e.stops.join('+'), e.first.cause]]));
    expect(byName).toEqual({
      'Old Guard': ['model', 'target', 'target-text'],
      Seer: ['model', 'inHands', 'attacker-text'],
      Riddler: ['model', 'target+inHands', 'unclear-text'],
      Mudman: ['model', 'target', 'armour'],
      Stump: ['model', 'inHands', 'dice'],
      'Bell Hammer': ['weapon', 'weapon', 'keyword'],
      Goad: ['weapon', 'weapon', 'weapon-text'],
      'Seer with Knife': ['model with weapon', 'weapon', 'attacker-text'],
      'Riddler with Knife': ['model with weapon', 'weapon', 'unclear-text'],
      'Bellman with Bell Hammer': ['model with weapon', 'weapon', 'keyword'],
      'Drover with Goad': ['model with weapon', 'weapon', 'weapon-text'],
    });
    expect(doc.stopping.find((e) => e.name === 'Bell Hammer')!.first.text).toBe('Quake 2');
  });

  it('the table names the entry, what it stops, the cause and the item', async () => {
    const r = await cliInProcess('profiles', '--roster', ROSTER, '--stopping', 'armour');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(': 1 entry that stop some question, by an Armour value that is no armour');
    expect(r.stdout).toMatch(/^model "Mudman"\s+as a target\s+armour\s+"Armour Mud" \(armour: /m);
  });

  it.each([
    [['examples/profiles.json', '--stopping'], '--stopping: lists what a roster or catalogue files hold (a profiles file has nothing that stops or is left out); give it with --roster FILE or --catalogue FILE...'],
    [['examples/profiles.json', '--left-out'], '--left-out: lists what a roster or catalogue files hold (a profiles file has nothing that stops or is left out); give it with --roster FILE or --catalogue FILE...'],
    [['--roster', ROSTER, '--stopping', 'keywords'], '--stopping: "keywords" is not a cause of a stop (did you mean "keyword"?); allowed: (nothing: all of them), target-text, attacker-text, weapon-text, fight-text, unclear-text, keyword, armour, dice, other'],
    [['--roster', ROSTER, '--stopping', '--allow-unmodelled'], '--stopping: lists what stops a command without --allow-unmodelled; leave out --allow-unmodelled'],
    [['--roster', ROSTER, '--stopping', '--left-out'], '--left-out: cannot be given with --stopping (each is a listing of its own); give one of --explain, --stopping and --left-out'],
  ])('refuses %j in one line, exit 2', async (args, message) => {
    const r = await cliInProcess('profiles', ...args);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `injury-lab: ${message}\n`]);
  });
});
