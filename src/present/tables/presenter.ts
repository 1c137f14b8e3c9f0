/** Every output format a command may offer, in the order help texts and messages list them. */
export const FORMATS = ['table', 'json', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

/**
 * How one kind of result is printed: one function per format it offers. Each presenter is one object
 * literal of this type, so leaving out a format it declares is a compile error, and the formats a
 * command accepts (its --format help and message) are read from the presenter's keys: a new format is
 * added in one place, and a command that cannot print it refuses it instead of printing a table.
 */
export type Presenter<R, F extends Format = Format> = { readonly [K in F]: (result: R) => string };

/** The formats a presenter offers, in FORMATS order. */
export function formatsOf<R, F extends Format>(presenter: Presenter<R, F>): F[] {
  return FORMATS.filter((f): f is F => Object.hasOwn(presenter, f));
}
