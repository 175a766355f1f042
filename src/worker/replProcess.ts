// Entry of the forked REPL child process.
export {};
