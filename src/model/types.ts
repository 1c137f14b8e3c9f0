import type { Fraction } from '../exact/fraction.js';
import type { ResultTable, RuleSpec } from './rule-table.js';

/** A value a scenario field can hold (files and flags both end up as these). */
export type FieldValue = string | number | boolean;

/** A rule table as plain values (each system types its own from its rule spec, e.g. TrenchCrusadeRules). */
export interface RuleTable {
  readonly [key: string]: RuleTableValue;
}
export type RuleTableValue = number | boolean | string | null | RuleTable;

/**
 * A validated scenario: every field of its kind present, defaults filled, and `rules`, the table of
 * rule values both engines read (its edition's, or a variant of it).
 */
export interface Scenario {
  readonly system: string;
  readonly edition: string;
  readonly kind: string;
  readonly rules: RuleTable;
  /** The name of the variant the rules come from, when they are not the edition's own. */
  readonly variant?: string;
  /** The weapon and target model profiles the fields came from, by name. */
  readonly weapon?: string;
  readonly target?: string;
  readonly [field: string]: FieldValue | RuleTable | KindReading | undefined;
}

/**
 * What a kind's scenario reads into when parsed, beyond its fields (a battle's warbands, read from its
 * profiles into plain data a worker can play): its own type, which the kind names (BattleScenario).
 */
export interface KindReading {
  readonly system: string;
  readonly edition: string;
}

/** JSON-Schema fragment for one field; the published schema and validation are built from these. */
export type FieldSchema =
  | { type: 'integer'; minimum: number; maximum: number }
  | { type: 'number'; minimum: number; maximum: number }
  | { type: 'boolean' }
  | { type: 'string'; enum: readonly string[] }
  /** An integer in a range, or one of a few words (the d20 stat "-"). */
  | { type: 'integer-or'; minimum: number; maximum: number; words: readonly string[] }
  /** Free text of at most `maxLength` characters, read by its kind (a battle side's warband: "Trench Pilgrim with Rifle x6, ..."). */
  | { type: 'text'; maxLength: number; example: string };

/**
 * One scenario field, declared once per system (src/model/fields.ts builds them): the published schema,
 * validation, flags, --help and messages all come from it. The type parameters carry the field's name,
 * value type and kinds into the system's scenario type (ScenarioOf), so engines read typed values.
 */
/** The fields a scenario gives (its own and its profiles'), as written: what a default may read. */
export type GivenFields = Readonly<Record<string, unknown>>;

export interface FieldSpec<N extends string = string, V extends FieldValue = FieldValue, K extends string = string> {
  /** camelCase in files; the CLI flag is its kebab-case form. */
  readonly name: N;
  readonly description: string;
  readonly schema: FieldSchema;
  /**
   * Default as a player would assume; may depend on the rules (e.g. the modifier cap's reading in the
   * edition's table) and on the fields given (an AUTOMATIC weapon's attacks per action). The function
   * takes its own system's rule table (see fieldDefault).
   */
  readonly default: V | ((rules: never, given: GivenFields) => V);
  /** Kinds that read this field. */
  readonly kinds: readonly K[];
  /** Which named profile may give it: a weapon (the attacker's side) or a model (the target's side). */
  readonly profile?: ProfileRole;
  /** Two keywords giving it add up (+1 DICE twice is +2); otherwise the later keyword's value wins. */
  readonly stacks?: boolean;
  /**
   * One of the few fields a balance designer sets most (dice, modifiers, armour, the duel's rounds): the
   * page shows these first and folds the rest away, so the answer stays in sight while they are edited.
   * A presentation hint only: validation, flags and the published schema ignore it.
   */
  readonly common?: true;
  /**
   * Kinds that take the field but do not model what it does there (INFECTION MARKERS where the models
   * fight on: the growth at each activation): a value other than its default stops the question, naming
   * `why`, unless unmodelled rules are allowed; then the answer is without it, and says so.
   */
  readonly notModelledIn?: { readonly kinds: readonly string[]; readonly why: string };
  /**
   * The answer changes only where the value crosses a whole threshold (a fall's height: +1 injury dice
   * per full 3 inches), so a chart draws it as steps that hold until the next one, never as a slope
   * between two measured heights. A presentation hint, like `common`.
   */
  readonly steps?: true;
  /**
   * A choice a side makes in play (how it spends blood markers, its plan), not what it is: a sweep over
   * it asks which serves the side best, and says so (src/analysis/side-best.ts).
   */
  readonly played?: true;
}

/** The two sides a profiles file names: weapons (what attacks) and models (what is attacked). */
export type ProfileRole = 'weapon' | 'model';

/** The value type a field declaration holds. */
export type ValueOf<F> = F extends FieldSpec<string, infer V, string> ? V : never;

/** The fields a kind reads, by name, with their value types. */
export type FieldsOfKind<Fields extends readonly FieldSpec[], K extends string> = {
  readonly [F in Fields[number] as K extends F['kinds'][number] ? F['name'] : never]: ValueOf<F>;
};

/** Every field of a list by name, whatever kinds read it (a duel side's fields). */
export type FieldsOf<Fields extends readonly FieldSpec[]> = {
  readonly [F in Fields[number] as F['name']]: ValueOf<F>;
};

/**
 * The validated scenario of one kind of a system, as its field declarations say: parseScenario fills
 * every field the kind reads (defaults included) and no other.
 */
export type ScenarioOf<System extends string, Edition extends string, Fields extends readonly FieldSpec[], K extends string, Rules extends RuleTable> = {
  readonly system: System;
  readonly edition: Edition;
  readonly kind: K;
  readonly rules: Rules;
  readonly variant?: string;
  readonly weapon?: string;
  readonly target?: string;
} & FieldsOfKind<Fields, K>;

/**
 * A per-trial quantity whose mean is reported, e.g. blood markers placed. It is a whole number from 0
 * on every trial (a count, or 1/0 for a chance): a queue's submitter checks workers' tallies by that
 * (src/queue/shards.ts readShardResult).
 */
export interface MeanSpec {
  readonly id: string;
  /** Key in the JSON output, e.g. "expectedBloodMarkers". */
  readonly jsonKey: string;
  readonly label: string;
  /**
   * Whom more of it is good for: the attacker (the weapon's buyer: blood markers placed) or the target
   * (the model's buyer: attacks it takes to put it Out of Action). A value chart prices a mean only by
   * the dimension whose buyer it favours, so "under-priced" always means more for that buyer's money;
   * left out for a mean good for neither (activations, markers the attacker spent).
   */
  readonly favours?: 'attacker' | 'target';
}

/** A per-trial integer quantity whose whole distribution is reported, e.g. wounds lost 0..n. */
export interface HistogramSpec {
  readonly id: string;
  readonly label: string;
  /** Names of the bins, in order; a trial falls in exactly one bin. */
  readonly bins: readonly string[];
  /**
   * For "when did it happen" histograms (bins 1..N, then "never"): the running sums are reported too,
   * as `jsonKey: [{ [indexKey]: n, probability, ... }]`, e.g. outOfActionWithin by attacks.
   */
  readonly cumulative?: { readonly jsonKey: string; readonly indexKey: string };
}

/**
 * What a scenario kind reports. The exact engine and the simulator both fill this layout, which is what
 * lets `check` compare them generically: outcomes (one per trial), means, histograms.
 */
export interface ReportLayout {
  readonly outcomes: readonly string[];
  /** The outcomes are not ranked mildest to most severe (a duel's a-wins, b-wins): no "this or worse" is shown. */
  readonly unranked?: true;
  /** What one trial is, as charts name it ("Share of duels"); a roll where not given. */
  readonly trial?: string;
  readonly means: readonly MeanSpec[];
  readonly histograms: readonly HistogramSpec[];
}

/** The exact answer for a scenario, aligned with its ReportLayout. */
export interface ExactAnswer {
  /** One fraction per outcome of the layout, in order; they sum to exactly 1. */
  readonly outcomes: readonly Fraction[];
  readonly means: readonly Fraction[];
  /** Per histogram, one fraction per bin. */
  readonly histograms: readonly (readonly Fraction[])[];
  /** Extra fields a kind adds to its JSON output (already JSON-ready). */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** Extra lines a kind adds under its table (e.g. a printed policy). */
  readonly notes?: readonly string[];
}

/**
 * What a simulator rolls with: fair dice, one at a time. The seeded generator of src/sim/rng.ts is the
 * one there is; the vocabulary names only what kernels call, so it depends on no engine.
 */
export interface Dice {
  d6(): number;
  d20(): number;
  /** A fair die of any number of sides. */
  die(sides: number): number;
  /**
   * True with chance `threshold` / 2^32, from one draw: a scenario's chance that is no die of the game's
   * (a battle's shot into cover, ruling B43), without a die's division.
   */
  below(threshold: number): boolean;
}

/** Trials played and their tally, laid out as src/model/tally.ts says: what the statistics read of a run. */
export interface TalliedTrials {
  readonly layout: ReportLayout;
  readonly trials: number;
  readonly tally: Float64Array;
}

/**
 * A compiled simulator for one scenario, run inside a worker. `run` plays `trials` trials with `rng`,
 * rolling dice one by one, and adds into `tally`, laid out as src/model/tally.ts says (its
 * tallyOffsets is where a kernel finds each part). It must not allocate per trial.
 */
export interface SimKernel {
  run(rng: Dice, trials: number, tally: Float64Array): void;
}

/**
 * A kind's id and layout, declared once per system (its kinds.ts). Simulation workers add the simulator
 * (KindSimulation), exact workers the exact engine (KindExact); neither loads the other's.
 */
export interface KindLayout<S extends Scenario = Scenario> {
  readonly id: S['kind'];
  /** Layout for a validated scenario (some kinds have scenario-dependent histograms, e.g. N attacks). */
  layout(scenario: S): ReportLayout;
}

/** What a simulation worker needs of a kind: its layout and its simulator, never its exact engine (a system's simulation.ts). */
export interface KindSimulation<S extends Scenario = Scenario> extends KindLayout<S> {
  /** Builds the simulator. Must not call the exact engine. */
  simulator(scenario: S): SimKernel;
}

/** What an exact worker needs of a kind: its layout and its exact engine, never its simulator (a system's exact-kinds.ts). */
export interface KindExact<S extends Scenario = Scenario> extends KindLayout<S> {
  exact(scenario: S): ExactAnswer;
}

/**
 * One kind of scenario of a system, typed by the scenario it reads (a system's ScenarioOf for that
 * kind). The registry holds kinds as KindSpec<Scenario>; parseScenario is what guarantees a kind only
 * ever receives its own, validated, scenario.
 */
export interface KindSpec<S extends Scenario = Scenario> extends KindSimulation<S>, Partial<Pick<KindExact<S>, 'exact'>> {
  readonly description: string;
  /**
   * What a scenario of the kind reads from a profiles file, roster or catalogue, where it cannot be
   * answered without one (a battle's warbands): a page without its warband builder leaves the kind out.
   */
  readonly needsProfiles?: string;
  /** A kind of two sides or more (a duel): their keys and the fields each side's object takes. */
  readonly sides?: KindSides;
  /**
   * The models fight on after an attack (a sequence, a duel): what follows one attack (a marker placed on
   * the attacker, an activation that ends) can change the answer, so rules text about it stops the kind
   * (an imported sentence that touches `fight`). Absent: one roll or one attack.
   */
  readonly fightsOn?: true;
}

/**
 * The sides of a kind that has them: each is an object in the scenario (`"a": {...}`), filled from its
 * own fields and from the model and weapon profiles it names, as the input layer's sides list says.
 */
export interface KindSides {
  readonly keys: readonly string[];
  readonly fields: readonly FieldSpec[];
  /** A side as a flag writes it, for --help: "armour=machine,tough=true,policy=injury". */
  readonly example: string;
  /**
   * The side names no model or weapon of its own (`profile`, `model`, `weapon` and their keywords): its
   * fields say what it is (a battle side's warband). Absent: a side is one model with its weapon (a duel's).
   */
  readonly unprofiled?: true;
  /** What one side is, for the JSON Schema's description. */
  readonly what?: string;
}

export interface EditionSpec {
  readonly id: string;
  readonly title: string;
  /** The rule file it comes from, relative to shared/rules. */
  readonly source: string;
}

/**
 * A rule system, typed by its scenario (the union of its kinds' scenarios). The registry holds every
 * system as SystemSpec<Scenario>; validation is what ties a scenario to its system.
 */
export interface SystemSpec<S extends Scenario = Scenario> {
  readonly id: S['system'];
  readonly title: string;
  readonly editions: readonly EditionSpec[];
  readonly defaultEdition: string;
  readonly kinds: readonly KindSpec<S>[];
  readonly fields: readonly FieldSpec[];
  /** Every number of its rules, declared once (per edition: value and source); both engines read the table built from it. */
  readonly rules: SystemRules;
  /** The common situations `diff` compares two rule sets over: every kind a designer asks about. */
  readonly diffGrid: readonly DiffGridPart[];
  /**
   * Rule combinations the field schema cannot express (machine armour with a shield, a fall in an
   * edition without falling rules). Returns one user-facing line naming the field, or undefined. A
   * sweep leaves a cell so refused out as "not allowed" (forbiddenByRules in src/messages.ts).
   */
  checkCombination(scenario: S): string | undefined;
  /**
   * A scenario the rules allow but this tool will not compute, too big for its budget (an optimal
   * duel's search past its states). Returns one user-facing line naming the field, or undefined. Checked
   * after checkCombination; unlike it, a sweep refuses such a cell and stops: it asks for less.
   */
  checkSize?(scenario: S): string | undefined;
}

/**
 * A grid of situations as a report writes one: a base scenario (system and kind) and what to vary. The
 * `diff` command's standard grid is a list of these per system.
 */
export interface DiffGridPart {
  readonly scenario: Readonly<Record<string, unknown>>;
  readonly vary: readonly unknown[];
}

/** A system's rule spec, and the groups of rules that must rise strictly in order (a table's bands). */
export interface SystemRules {
  readonly spec: RuleSpec;
  /** Every result table's rules (resultTableRules), and any other rules that must rise in order. */
  readonly increasing: readonly (readonly string[])[];
  /** The tables of results read from the lowest total up, so outputs can word a change as the table does. */
  readonly resultTables: readonly ResultTable[];
}

