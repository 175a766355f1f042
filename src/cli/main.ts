// The `rlm` command line.
console.log('rlm: usage: rlm ask <path>... -q "<question>"');
