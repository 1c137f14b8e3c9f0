import { existsSync } from 'node:fs';
import { showValue } from '../errors.js';
import { refusal } from '../messages.js';
import { scenarioName, type CompareInput } from '../analysis/compare.js';
import { NO_VARIANT, coerceFlagValue, diskScenarioFiles, readScenarioFile, scenarioSystemAndKind } from '../input/scenario.js';
import { RULES } from '../analysis/dimension-core.js';
import { scenarioProfilesOnce } from '../input/read-once.js';
import { sideFromText } from '../input/sides.js';
import { BOTH_SIDES, assignField, isPlainObject, sidePath } from '../analysis/dimension-core.js';

/**
 * What `compare` compares, each given one of three ways: a scenario file; an inline list of fields,
 * 'armour=reinforced,shield=true'; or, with --profiles, --roster or --catalogue, the name of a model (the
 * target) or a weapon of it. The fields given as flags (`shared`) are every scenario's: a file's own are
 * overridden by them, as `exact FILE --flag` does; an inline list or a profile is laid over them, and a
 * field both give is refused (it would be two answers to one question).
 */
export function compareInputs(texts: readonly string[], shared: Readonly<Record<string, unknown>>): CompareInput[] {
  const inputs = texts.map((text, i) => compareInput(text, i, shared));
  // Two of one name (files in different folders, a file and a list): tell them apart by what was given.
  const names = new Set(inputs.map((i) => i.name));
  return names.size < inputs.length ? inputs.map((i) => ({ ...i, name: i.file })) : inputs;
}

const ordinal = (i: number) => `scenario ${i + 1}`;

function compareInput(text: string, i: number, shared: Readonly<Record<string, unknown>>): CompareInput {
  if (text.includes('=')) {
    const { system, kind } = scenarioSystemAndKind(shared);
    const sides = system.kinds.find((k) => k.id === kind)?.sides;
    const fields = system.fields.filter((f) => (f.kinds as readonly string[]).includes(kind));
    // A side's field, "a.policy=optimal" ("sides.armour" for both), converted as its side's field is.
    const sideFields = (sides?.fields ?? []).flatMap((f) => [...(sides?.keys ?? []), BOTH_SIDES].map((key) => ({ ...f, name: `${key}.${f.name}` })));
    const own = sideFromText(text, [...fields, ...sideFields], ordinal(i), coerceFlagValue);
    const given = (k: string) => {
      const path = sidePath(k, sides?.keys ?? []);
      return path ? path.sides.some((side) => isPlainObject(shared[side]) && shared[side][path.field] !== undefined) : k in shared;
    };
    const both = Object.keys(own).filter(given);
    if (both.length) throw refusal(`${ordinal(i)} (${showValue(text)})`, `gives ${both.join(', ')}, which a flag gives every scenario`, 'give it one way');
    const raw = { ...shared };
    for (const [k, v] of Object.entries(own)) assignField(raw, k, v, sides?.keys ?? []);
    return { name: inlineName(text, own), file: text, raw };
  }
  if (existsSync(text) || /\.json$/i.test(text)) {
    const raw = { ...readScenarioFile(text), ...shared };
    return { name: scenarioName(raw, text), file: text, raw };
  }
  const profiles = scenarioProfilesOnce(shared);
  if (profiles) {
    const asModel = profiles.models.has(text);
    const asWeapon = profiles.weapons.has(text);
    if (asModel && asWeapon) throw refusal(ordinal(i), `${showValue(text)} is both a model and a weapon of ${showValue(profiles.file)}`, `allowed: a file, or fields: "target=${text}" or "weapon=${text}"`);
    if (asModel || asWeapon) return { name: text, file: text, raw: { ...shared, [asModel ? 'target' : 'weapon']: text } };
  }
  throw refusal(
    ordinal(i),
    `${showValue(text)} is not a scenario file${profiles ? `, a model or a weapon of ${showValue(profiles.file)}` : ''}, nor fields`,
    `allowed: a scenario file, FIELD=VALUE pairs separated by commas ("armour=reinforced,shield=true")${profiles ? ', or a profile name' : ', or a profile name with --profiles, --roster or --catalogue'}`,
  );
}

/**
 * An inline scenario's name: its text, or for keywords alone what has them ("a weapon with IGNORE
 * ARMOUR"); a variant file by its name, not its path ("Out of Action on 10+", then any other fields).
 */
function inlineName(text: string, own: Readonly<Record<string, unknown>>): string {
  const rules = own[RULES];
  if (typeof rules === 'string' && rules !== NO_VARIANT) {
    const rest = Object.entries(own).filter(([k]) => k !== RULES);
    return [diskScenarioFiles.variant(rules).name, ...rest.map(([k, v]) => `${k}=${String(v)}`)].join(', ');
  }
  const keys = Object.keys(own);
  if (keys.length !== 1 || typeof own[keys[0]!] !== 'string') return text;
  const keywords = String(own[keys[0]!]).trim();
  if (keys[0] === 'weaponKeywords') return `a weapon with ${keywords}`;
  if (keys[0] === 'targetKeywords') return `a target with ${keywords}`;
  return text;
}
