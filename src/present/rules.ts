import type { RuleCitation, RuleListing } from '../model/rule-table.js';
import { csvText } from './csv.js';
import type { Presenter } from './presenter.js';
import { jsonText, wordWrap } from './text.js';

function citation(source: RuleCitation): string {
  return 'file' in source ? `${source.file}: "${source.quote}"` : `ruling ${source.ruling} (docs/rules.md): ${source.note}`;
}

function rulesTable(listing: RuleListing): string {
  const lines = [`${listing.system} rules, ${listing.edition.id} edition (${listing.edition.title}, ${listing.edition.source})`, ''];
  const width = Math.max(...listing.entries.map((e) => e.rule.length));
  for (const e of listing.entries) {
    lines.push(`${e.rule.padEnd(width)}  ${String(e.value)}`);
    for (const text of [`${e.description}; allowed: ${e.allowed}`, citation(e.source)]) {
      for (const line of wordWrap(text, 96)) lines.push(`    ${line}`);
    }
  }
  return lines.join('\n') + '\n';
}

function rulesJson(listing: RuleListing) {
  return {
    system: listing.system,
    edition: listing.edition.id,
    rules: listing.table,
    entries: listing.entries,
  };
}

function rulesCsv(listing: RuleListing): string {
  return csvText([
    ['system', 'edition', 'rule', 'value', 'description', 'allowed', 'source_file', 'quote', 'ruling', 'note'],
    ...listing.entries.map((e) => [
      listing.system,
      listing.edition.id,
      e.rule,
      e.value === null ? 'null' : e.value,
      e.description,
      e.allowed,
      ...('file' in e.source ? [e.source.file, e.source.quote, '', ''] : ['', '', e.source.ruling, e.source.note]),
    ]),
  ]);
}

/** An edition's rule table: every number the engines read, what it means, and where it comes from. */
export const rulesPresenter: Presenter<RuleListing> = {
  table: rulesTable,
  json: (listing) => jsonText(rulesJson(listing)),
  csv: rulesCsv,
};
