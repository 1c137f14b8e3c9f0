/**
 * Text from the user made safe to print on a terminal. It sits below everything else (errors, presenters,
 * the CLI all use it) and imports nothing.
 */

/**
 * What a terminal acts on instead of showing: C0 controls (ESC starts the sequences that clear the
 * screen or retitle the window; a newline or tab breaks a table), DEL, C1 controls (U+009B is a
 * one-character ESC [), the bidi controls that reorder the text after them ("a\u202Etxt.exe" shows as
 * "aexe.txt"), and the line and paragraph separators some terminals break lines at.
 */
const TERMINAL_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text from the user (names, keywords, paths, labels) made safe to print: every character of
 * TERMINAL_CONTROLS is written as its visible escape, as JSON writes it (\n, \t, \u001b, \u202e),
 * everything else unchanged. Every table cell, heading, message and status line goes through here; a
 * newline is escaped too, so text meant as one line stays one line.
 */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_CONTROLS, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** terminalSafe for text of several lines: its line breaks are kept, everything else is escaped. */
export function terminalSafeLines(text: string): string {
  return text.split('\n').map(terminalSafe).join('\n');
}
