import type { RuleCitation, RuleListing } from '../../model/rule-table.js';
import { csvText } from './csv.js';
import type { Presenter } from './presenter.js';
import { jsonText, terminalSafe, terminalSafeLines, wordWrap } from '../../text.js';

function citation(source: RuleCitation): string {
  return 'file' in source ? `${source.file}: "${source.quote}"` : `ruling ${source.ruling} (docs/rules.md): ${source.note}`;
}

/** A rule value as text: a keyword's effects as their JSON. */
function shown(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function rulesTable(listing: RuleListing): string {
  const variant = listing.variant === undefined ? '' : `, variant "${listing.variant}" (changed rules marked *)`;
  const lines = [terminalSafe(`${listing.system} rules, ${listing.edition.id} edition (${listing.edition.title}, ${listing.edition.source})${variant}`), ''];
  // A variant's keywords are named, described and cited by the user; widths are measured on what is printed.
  const rules = listing.entries.map((e) => terminalSafe(e.rule));
  const width = Math.max(...rules.map((r) => r.length));
  listing.entries.forEach((e, i) => {
    const changed = e.editionValue !== undefined;
    const was = e.editionValue === null && typeof e.value === 'object' && e.value !== null ? 'not a keyword' : shown(e.editionValue);
    lines.push(`${rules[i]!.padEnd(width)}  ${terminalSafe(`${shown(e.value)}${changed ? `  * (${listing.edition.id}: ${was})` : ''}`)}`);
    const source = changed ? `${listing.edition.id} source: ${citation(e.source)}` : citation(e.source);
    for (const text of [`${e.description}; allowed: ${e.allowed}`, source]) {
      for (const line of wordWrap(terminalSafe(text), 96)) lines.push(`    ${line}`);
    }
  });
  return lines.join('\n') + '\n';
}

function rulesJson(listing: RuleListing) {
  return {
    system: listing.system,
    edition: listing.edition.id,
    ...(listing.variant === undefined ? {} : { variant: listing.variant }),
    rules: listing.table,
    entries: listing.entries,
  };
}

function rulesCsv(listing: RuleListing): string {
  return csvText([
    ['system', 'edition', 'variant', 'rule', 'value', 'edition_value', 'description', 'allowed', 'source_file', 'quote', 'ruling', 'note'],
    ...listing.entries.map((e) => [
      listing.system,
      listing.edition.id,
      listing.variant ?? '',
      e.rule,
      e.value === null || typeof e.value === 'object' ? shown(e.value) : e.value,
      e.editionValue === undefined ? '' : e.editionValue === null || typeof e.editionValue === 'object' ? shown(e.editionValue) : e.editionValue,
      e.description,
      e.allowed,
      ...('file' in e.source ? [e.source.file, e.source.quote, '', ''] : ['', '', e.source.ruling, e.source.note]),
    ]),
  ]);
}

/** An edition's rule table: every number the engines read, what it means, and where it comes from. */
export const rulesPresenter: Presenter<RuleListing> = {
  table: (listing) => terminalSafeLines(rulesTable(listing)),
  json: (listing) => jsonText(rulesJson(listing)),
  csv: rulesCsv,
};
