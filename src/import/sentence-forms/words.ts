/**
 * Pieces the forms are written with. A form is a whole sentence in plain text (rules-text.ts plainText),
 * matched without regard to case; these name the parts that vary from entry to entry.
 */

/** A model named as the text names it: "the Lantern Warden", "a Bell Ringer", "Yüzbaşı", "the Disciple of St. Ash". */
export const NAME = String.raw`(?:(?:the|a|an|this|that) )?[\p{L}\p{N}'.-]+(?: [\p{L}\p{N}'.-]+){0,5}?`;

/** NAME as the sentence's subject (form.ts): the group the classifier checks against the entry's names. */
export const SUBJECT = `(?<subject>${NAME})`;

/** "a model", "an Artificial model", "the CLOCKWORK model". */
export const A_MODEL = String.raw`(?:(?:an?|the|any) )?(?:[\p{L}-]+ ){0,3}?models?`;

/** A form's pattern: the whole sentence, without regard to case, letters of every script. */
export const whole = (source: string): RegExp => new RegExp(`^(?:${source})$`, 'iu');
