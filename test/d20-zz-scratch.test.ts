import { it } from 'vitest';
import { parseScenario } from '../src/model/scenario.js';
import { d20Warband } from '../src/rules/d20-warband/system.js';
import { compare, toNumber } from '../src/exact/fraction.js';

const attack = d20Warband.kinds.find((k) => k.id === 'attack')!;
const pInc = (raw: Record<string, unknown>) => attack.exact(parseScenario({ system: 'd20-warband', kind: 'attack', ...raw })).outcomes[5]!;
it('grid', () => {
  const bad: string[] = [];
  let n = 0;
  for (const attackType of ['ranged', 'melee'])
  for (const injuryTiming of ['next-attack', 'end-of-action'])
  for (const state of ['none', 'staggered', 'dazed', 'stunned'])
  for (const stunnedDefends of [true, false])
  for (const injury of [-8, -3, 0, 2, 5])
  for (const attacks of [1, 2, 3])
  for (const wounds of [0, 1, 2])
  for (const defence of [5, 10, 15, 19])
  for (const pierce of [-2, 0, 3])
  for (const advantage of [false, true])
  for (const stat of [5, 12]) {
    n++;
    const base = { attackType, injuryTiming, state, stunnedDefends, injury, attacks, wounds, defence, stat, pierce, advantage };
    const p = pInc(base);
    const pp = pInc({ ...base, pierce: pierce + 1 });
    const moreW = pInc({ ...base, wounds: wounds + 1 });
    if (compare(pp, p) < 0) bad.push(`pierce ${JSON.stringify(base)} ${toNumber(p)} -> ${toNumber(pp)}`);
    if (compare(moreW, p) > 0) bad.push(`wounds ${JSON.stringify(base)} ${toNumber(p)} -> ${toNumber(moreW)}`);
  }
  console.log(n, bad.length, bad.slice(0, 12).join('\n'));
}, 600000);
