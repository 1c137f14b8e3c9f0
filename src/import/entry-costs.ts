import type { Unmodelled } from '../model/profiles.js';
import type { Draft } from './draft.js';
import type { RosterSelection } from './read-roster.js';

/**
 * A selection's costs and price: its subtree's costs by cost type (negative ones kept as offsets, never
 * a price), the cost and other costs a profile takes from them, and whose price it is. Apart from
 * roster.ts because pricing an entry is one question and walking the roster into profiles another.
 */

/** The costs of one (a selection of N models costs N times one), over its subtree, by cost type. */
interface SubtreeCosts {
  readonly totals: Map<string, number>;
  /** Negative costs met on the way: offsets of the roster's total (NewRecruit's storage), never a price. */
  readonly offsets: Unmodelled[];
}

export function subtreeCosts(s: RosterSelection, stopAt: (s: RosterSelection) => boolean): SubtreeCosts {
  const totals = new Map<string, number>();
  const offsets: Unmodelled[] = [];
  const stack = [s];
  for (let node = stack.pop(); node; node = stack.pop()) {
    for (const c of node.costs) {
      if (c.value < 0) offsets.push({ text: `${node.name}: ${c.name} ${c.value}`, from: 'cost', why: "a negative cost is an offset of the roster's total, not a price", stops: false });
      else totals.set(c.name, (totals.get(c.name) ?? 0) + c.value);
    }
    for (const child of node.selections) if (!stopAt(child)) stack.push(child);
  }
  for (const [name, total] of totals) totals.set(name, total / s.number);
  return { totals, offsets };
}

/**
 * A profile's cost is in the roster's first cost type (Ducats); its price in the others (Glory Points)
 * is kept beside it, and offsets are listed, never dropped. A profile priced only in other types (the
 * real catalogue's mercenaries: 0 Ducats, 4 Glory Points) has no cost, rather than a cost of 0 that a
 * value chart would read as free.
 */
export interface CostParts {
  readonly cost?: number;
  readonly otherCosts?: Record<string, number>;
  /** Negative costs met in the subtree: listed with the profile, never part of its price. */
  readonly offsets: Unmodelled[];
}

export function costParts({ totals, offsets }: SubtreeCosts, costType: string | undefined): CostParts {
  const other = [...totals].filter(([name, value]) => name !== costType && value !== 0);
  // No cost of the type anywhere (a library catalogue's entry, priced only on the links to it): no cost, never 0.
  const cost = costType === undefined ? undefined : totals.get(costType);
  const onlyOther = cost === 0 && other.length > 0;
  return {
    ...(cost === undefined || onlyOther ? {} : { cost }),
    ...(other.length ? { otherCosts: Object.fromEntries(other) } : {}),
    offsets: [...offsets],
  };
}

/** What a draft says of its price and whose it is: its subtree's costs, and the selection's faction and catalogue. */
export function pricing(s: RosterSelection, costs: CostParts | undefined): Pick<Draft, 'cost' | 'otherCosts' | 'priceOf' | 'catalogue' | 'offeredBy'> {
  return {
    ...(costs?.cost === undefined ? {} : { cost: costs.cost }),
    ...(costs?.otherCosts ? { otherCosts: costs.otherCosts } : {}),
    ...(s.priceOf === undefined ? {} : { priceOf: s.priceOf }),
    ...(s.catalogue === undefined ? {} : { catalogue: s.catalogue }),
    ...(s.offeredBy === undefined ? {} : { offeredBy: s.offeredBy }),
  };
}
