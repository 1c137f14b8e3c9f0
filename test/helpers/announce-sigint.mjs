// Preloaded (node --import) into a CLI run by the Ctrl-C tests: says on stderr when the CLI starts
// listening for SIGINT, so a test sends Ctrl-C (or SIGTERM) after that event instead of after a guessed
// delay. "newListener" fires before the listener is added: the line is written once the code that adds
// it (and its SIGTERM listener beside it) has run, or a fast test could signal a process not yet listening.
process.on('newListener', (event) => {
  if (event === 'SIGINT') setImmediate(() => process.stderr.write('test: listening for SIGINT\n'));
});
