import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProfilesFile } from '../src/input/read-files.js';
import { fieldFromProfiles } from '../src/pricing/field.js';

/**
 * A catalogue's export holds both a shared weapon ("Feeble Flailing", bare) and a model's own reading
 * of it ("Ecclesiastic Prisoner with Feeble Flailing": the model's dice and rules folded in, priced as
 * the whole model). The real Trench Pilgrims export did, and the field paired the model with the bare
 * weapon too, under the same name: the whole field was refused as "named twice".
 */
describe('a model with its own reading of a weapon', () => {
  const dir = mkdtempSync(join(tmpdir(), 'field-'));
  const file = join(dir, 'profiles.json');
  writeFileSync(
    file,
    JSON.stringify({
      system: 'trench-crusade',
      models: { Prisoner: { armour: 'none', cost: 20 }, Guard: { armour: 'standard', cost: 40 } },
      weapons: {
        Flail: { attackType: 'melee', cost: 5 },
        'Prisoner with Flail': { attackType: 'melee', attackDice: -1, cost: 20 },
      },
    }),
  );

  it('is the one entry for that pair; other models take the bare weapon', () => {
    const field = fieldFromProfiles(readProfilesFile(file));
    // Guard with the bare Flail (40 + 5); the Prisoner only with its own reading, at its own price
    // (a "MODEL with WEAPON" weapon is priced as the whole model: 20), never with the bare one as well.
    expect(field.map((e) => [e.name, e.side, e.price])).toEqual([
      ['Prisoner with Flail', { model: 'Prisoner', weapon: 'Prisoner with Flail' }, 20],
      ['Guard with Flail', { model: 'Guard', weapon: 'Flail' }, 45],
    ]);
  });
});
