/**
 * What a scenario asks, in a few words: the fields it gives that differ from their defaults ("armour
 * reinforced, shield, injuryDice 1"), each side's for a kind with sides, and the profiles it names. Charts
 * made from one command line title themselves with it, so a figure says what it shows.
 */
import { changedFields } from '../model/fields.js';
import type { FieldSpec, Scenario } from '../model/types.js';
import { resolveKind } from '../rules/registry.js';

/**
 * The scenario's own choices, in order: the weapon and target it names, its changed fields, and for a
 * kind with sides each side's ("a: armour standard, tough"). Empty when it changes nothing.
 */
export function askedFields(s: Scenario, leaveOut: readonly string[] = []): string[] {
  const { system, kind } = resolveKind(s);
  const values = s as unknown as Readonly<Record<string, unknown>>;
  const named = (['weapon', 'target'] as const).filter((k) => typeof values[k] === 'string' && !leaveOut.includes(k)).map((k) => `${k} ${String(values[k])}`);
  const top = changedFields(
    system.fields.filter((f) => (f.kinds as readonly string[]).includes(s.kind) && !leaveOut.includes(f.name)),
    values,
    s.rules,
  );
  const sides = (kind.sides?.keys ?? []).filter((key) => !leaveOut.includes(key)).map((key) => sideAsked(s, key, kind.sides!.fields));
  return [...named, ...top, ...sides];
}

/**
 * One side of a kind with sides, as the fields it changes, its model and weapon names first when
 * profiles gave them: "a: Warded with Maul: injuryDice 1, policy injury", "b: as by default".
 */
function sideAsked(s: Scenario, key: string, fields: readonly FieldSpec[]): string {
  const side = ((s as unknown as Readonly<Record<string, unknown>>)[key] ?? {}) as Readonly<Record<string, unknown>>;
  const model = typeof side.model === 'string' ? side.model : undefined;
  const weapon = typeof side.weapon === 'string' ? side.weapon : undefined;
  // A roster's "MODEL with WEAPON" already names its model.
  const names = weapon !== undefined && model !== undefined && weapon.startsWith(`${model} with `) ? [weapon] : [model, weapon].filter((n): n is string => n !== undefined);
  const changed = changedFields(fields, side, s.rules);
  const label = names.length ? `${names.join(' with ')}${changed.length ? ': ' : ''}` : '';
  return `${key}: ${label}${changed.join(', ') || (names.length ? '' : 'as by default')}`;
}

/**
 * One line saying what was asked, for a chart's subtitle: "trench-crusade (core edition), attack: armour
 * reinforced, injuryDice 1", leaving out what a grid varies (the edition too, when it is varied).
 */
export function askedLine(s: Scenario, leaveOut: readonly string[] = []): string {
  return lineOf(s, askedFields(s, leaveOut), !leaveOut.includes('edition'));
}

function lineOf(s: Scenario, asked: readonly string[], withEdition: boolean): string {
  return `${s.system}${withEdition ? ` (${s.edition} edition)` : ''}, ${s.kind}${asked.length ? `: ${asked.join(', ')}` : ''}`;
}

/**
 * What every cell of a grid was asked alike, in one line: the choices all its scenarios share (so what
 * the grid varies drops out, with the fields a varied keyword sets), and the edition when it is one.
 */
export function askedLineOfGrid(scenarios: readonly Scenario[]): string {
  const first = scenarios[0]!;
  const lists = scenarios.map((s) => askedFields(s));
  const shared = lists[0]!.filter((a) => lists.every((l) => l.includes(a)));
  return lineOf(first, shared, scenarios.every((s) => s.edition === first.edition));
}

/** What compared scenarios were asked, for a chart's subtitle: what they all share, then who is compared ("...; A against B"). */
export function askedLineOfComparison(scenarios: readonly Scenario[], names: readonly string[]): string {
  return `${askedLineOfGrid(scenarios)}; ${names.join(' against ')}`;
}

/**
 * The line a table prints under its heading: "  Given: armour reinforced, shield, ignoreArmour" (fields
 * that differ from their defaults, keywords read into theirs), or none when nothing does. A kind with
 * sides always says who fought, whatever the command (exact, simulate, check): "  Given: rounds 3;
 * a: armour standard, tough; b: as by default".
 */
export function givenLines(s: Scenario): string[] {
  const { kind, system } = resolveKind(s);
  if (kind.sides) {
    const top = changedFields(system.fields.filter((f) => (f.kinds as readonly string[]).includes(s.kind)), s as unknown as Readonly<Record<string, unknown>>, s.rules);
    return [`  Given: ${[...(top.length ? [top.join(', ')] : []), ...kind.sides.keys.map((key) => sideAsked(s, key, kind.sides!.fields))].join('; ')}`];
  }
  const asked = askedFields(s, ['weapon', 'target']);
  return asked.length ? [`  Given: ${asked.join(', ')}`] : [];
}
