// Preloaded (node --import) into a CLI run by the Ctrl-C tests: says on stderr the moment the CLI starts
// listening for SIGINT, so a test sends Ctrl-C after that event instead of after a guessed delay.
process.on('newListener', (event) => {
  if (event === 'SIGINT') process.stderr.write('test: listening for SIGINT\n');
});
