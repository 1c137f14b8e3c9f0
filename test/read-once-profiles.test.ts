import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProfilesFileOnce } from '../src/input/read-once.js';

/**
 * A profiles file is read once while it stays as it is, as rosters and catalogues are: a sweep names it
 * in every cell's scenario, and a catalogue export read and checked for each of 742 cells took 2.5 s.
 * Read once means the very same object; changed means read again.
 */
describe('a profiles file, read once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'injury-lab-profiles-once-'));
  const file = join(dir, 'profiles.json');
  const write = (cost: number, when: number) => {
    writeFileSync(file, JSON.stringify({ system: 'trench-crusade', models: { Brute: { armour: 'machine', cost } }, weapons: {} }));
    utimesSync(file, when, when);
  };

  it('gives the very same profiles while the file is as it was, and new ones once it is edited', () => {
    write(40, 1_000_000);
    const first = readProfilesFileOnce(file);
    expect(readProfilesFileOnce(file)).toBe(first);
    write(45, 2_000_000);
    const edited = readProfilesFileOnce(file);
    expect(edited).not.toBe(first);
    expect(edited.models.get('Brute')!.cost).toBe(45);
  });

  it('refuses a bad file each time, in the same words, and reads it once it is mended', () => {
    writeFileSync(file, '{ "system": "trench-crusade", "models": { "Brute": { "armour": "paper" } }, "weapons": {} }');
    utimesSync(file, 3_000_000, 3_000_000);
    const refused = () => {
      try {
        readProfilesFileOnce(file);
      } catch (e) {
        return (e as Error).message;
      }
      return 'read';
    };
    const message = refused();
    expect(message).toMatch(/armour/);
    expect(refused()).toBe(message);
    write(50, 4_000_000);
    expect(readProfilesFileOnce(file).models.get('Brute')!.cost).toBe(50);
  });
});
