/**
 * `injury-lab battle`'s reading from disk: a battle file, and the profiles, roster or catalogues its
 * warbands name (./battle-core.ts reads the rest, no file itself).
 */
import { dirname, isAbsolute, join } from 'node:path';
import { showValue } from '../errors.js';
import { notOneOf, refusal } from '../messages.js';
import { readJsonInput } from '../json-input.js';
import { BATTLE_SETTING_FIELDS, BATTLE_TEXT_SETTINGS, resolveBattleWith, type AttacksRead, type BattleAsked, type BattleSettings, type SwapVariant } from './battle-core.js';
import { profilesOfSource } from './profile-source.js';
import { resolveInputs, validateFields } from './scenario.js';

export * from './battle-core.js';

/**
 * A battle file's settings (`injury-lab battle FILE`): one JSON object of the settings above and the
 * fields', its files read relative to it; a key that is no setting is refused in one line naming it.
 */
export function readBattleFile(path: string): Record<string, unknown> {
  const label = `battle file ${showValue(path)}`;
  const parsed = readJsonInput(path, { label, what: 'a battle file', missing: 'no such file' }).value;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw refusal(label, `must hold one JSON object of settings, got ${Array.isArray(parsed) ? 'an array' : showValue(parsed)}`);
  const names = [...BATTLE_TEXT_SETTINGS.map((t) => t.name), ...BATTLE_SETTING_FIELDS.map(([name]) => name)];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (key === '$schema') continue;
    if (!names.includes(key)) throw notOneOf(`${label}: key`, key, 'a setting of a battle', names);
    const text = BATTLE_TEXT_SETTINGS.find((t) => t.name === key);
    const relative = (v: unknown) => (typeof v === 'string' && !isAbsolute(v) ? join(dirname(path), v) : v);
    out[key] = text?.file ? (Array.isArray(value) ? value.map(relative) : relative(value)) : value;
  }
  return out;
}

/** Both warbands read from the files their settings name, every attack resolved and checked (resolveBattleWith). */
export function resolveBattle(settings: BattleSettings, nameOf: (name: string) => string = (n) => `--${n}`, variant: SwapVariant = 'asked', attacksRead: AttacksRead = new Map()): BattleAsked {
  return resolveBattleWith(settings, profilesOfSource(settings), (raw, origin) => validateFields(resolveInputs(raw, origin), origin), nameOf, attacksRead, variant);
}
