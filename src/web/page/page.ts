/**
 * The web page: a form made from the systems' field declarations (the ones the CLI's flags, --help and
 * the JSON Schema come from), exact answers computed in a Web Worker as the user types, simulations
 * over one Web Worker per core with the CLI's chunks and seeds, and the whole state in the URL hash.
 *
 * Contract (test/browser/web-page.test.ts relies on it):
 *   #s=<URL-encoded scenario JSON>[&seed=S&trials=T]   loads a scenario; seed and trials start a simulation
 *   &file=NAME:DIGEST (one per file)                    a file the link was made with, asked for and checked (files.ts)
 *   &folds=key:open|closed,...                          folds set otherwise than their default ("model:closed,a.weapon.more:open")
 *   tr[data-outcome][data-exact="n/d"]                  each outcome row once the exact answer is in
 *   tr[data-count]                                      each row's count once the simulation is done
 *   #app[data-state]                                    "computing", "ready", "simulating", "done" or "error"
 *   #grid-result[data-state]                            "computing", "ready", "error", or "waiting" (for a link's files)
 *
 * This module only wires the panels together; each owns its state and its part of the page and link:
 *   form.ts        the fields, their groups and folds, the scenario JSON box (&folds=)
 *   answer.ts      the exact answer's worker, table, chart and downloads
 *   simulation.ts  the run's form and workers (&seed=&trials=)
 *   grid.ts        sweep, comparison and matrix (&vary=, &compare=, &matrix=1, &gridTrials=&gridSeed=)
 *   files.ts       the opened files, and the files a link was made with (&file=)
 * and beneath them, shared: state.ts (the scenario, the answer, the link), profiles.ts (what the opened
 * files offer), workers.ts, chart.ts (charts and downloads), format.ts. Panels import only those shared
 * modules, never each other: what one tells another goes through the hooks wired here.
 */
import { toolVersion } from '../engine.js';
import { askExact, clearEstimates, sendFiles, showError, showEstimates, showRun, wireAnswer } from './answer.js';
import { filesFromLink, filesInLink, linkFilesProblem, refreshFilesInLink, showFilesInUse, showLinkFiles, showOpened, wireFiles } from './files.js';
import { clearFieldErrors, errorBesideField, foldsInLink, readFolds, renderForm, showFilled, wireForm } from './form.js';
import { askGrid, filesChangedForGrid, gridFromLink, gridInLink, holdGridForFiles, offerMatrix, scenarioChangedForGrid } from './grid.js';
import { forgetSimulation, runPending, sendFilesToSimulation, simulationFromLink, simulationInLink, wireSimulation } from './simulation.js';
import { linkFilesBy, linkProblem, linkWrittenBy, readScenario, setExact, writeHash } from './state.js';

/**
 * Whether the link's answer may be shown: not while a file it was made with is not open, or differs
 * from the one it was made with (the answer would come from the wrong file). Then the one line saying
 * which stands in the answer's place, and nothing is asked of the workers.
 */
function filesRight(): boolean {
  showLinkFiles();
  const problem = linkFilesProblem();
  if (problem !== undefined) showError(problem, false);
  return problem === undefined;
}

/** The scenario changed: the link, the answer and whatever follows the scenario follow it. */
function changed(): void {
  forgetSimulation();
  writeHash();
  showFilesInUse();
  if (!filesRight()) {
    holdGridForFiles();
    return;
  }
  askExact();
  scenarioChangedForGrid();
}

linkWrittenBy([simulationInLink, gridInLink, foldsInLink]);
linkFilesBy(filesInLink);

wireForm({ changed, badJson: (message) => showError(message, false), matrixOffered: offerMatrix });
wireAnswer({
  opened: (files) => {
    showOpened(files);
    if (linkFilesProblem() === undefined) filesChangedForGrid();
  },
  errorBesideField,
  clearFieldErrors,
  filled: showFilled,
  answered: runPending,
});
wireSimulation({ showEstimates, clearEstimates, showRun });
wireFiles({
  shelfChanged: () => {
    sendFiles();
    sendFilesToSimulation();
    // The link now carries the digests of the files its scenario names (a link made before they were open too).
    refreshFilesInLink();
    // A scenario naming a file that was not open yet may be answered now.
    if (filesRight()) askExact();
  },
  shown: renderForm,
  changed,
});

/** The state a link gives; a link that cannot be read gives one message and the empty form. */
function readHash(): void {
  linkProblem('');
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  readFolds(params.get('folds') ?? '');
  readScenario(params.get('s'));
  filesFromLink(params);
  simulationFromLink(params);
  gridFromLink(params);
  setExact(undefined);
  renderForm();
  showFilesInUse();
  if (!filesRight()) return;
  askExact();
  askGrid();
}

window.addEventListener('hashchange', () => {
  // Our own replaceState fires no hashchange: this is the user pasting or following a link.
  readHash();
});

document.getElementById('version')!.textContent = toolVersion;
readHash();
