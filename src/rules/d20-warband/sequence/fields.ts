import { choiceField, integerField } from '../../../model/fields.js';
import { DEFAULT_TURNS, MAX_TURNS, MIN_TURNS, TARGET_TURNS } from './rules.js';

export const TURNS_KIND = 'turns';

/** Fields only the `turns` kind reads; it also reads every `attack` field (see ../fields.ts). */
export const turnsFields = [
  integerField('turns', {
    common: true,
    description: 'Turns (T) in which the attacker makes one attack action on the target; they stop once it is Incapacitated',
    minimum: MIN_TURNS,
    maximum: MAX_TURNS,
    default: DEFAULT_TURNS,
    kinds: [TURNS_KIND],
  }),
  choiceField('targetTurn', {
    description: "Where the attack falls in the target's turn: shared (Upkeep, the attack, end of turn: the target is attacked while Staggered) or separate (the target's whole turn between two attacks)",
    values: TARGET_TURNS,
    default: 'shared',
    kinds: [TURNS_KIND],
  }),
] as const;
