// Help texts of the `rlm` command line.
import { BATCH_HELP } from './batchArgs';

export const MAIN_HELP = `rlm — ask questions about files far larger than a model's context window

Usage:
  rlm ask <path>... -q "<question>" [options]   answer a question about files or folders
  rlm continue <file.rlm.jsonl> -q "<follow-up>" continue a recorded run (or --from-turn N: fork it)
  rlm show <file.rlm.jsonl>                     summarise a recorded run
  rlm export <file.rlm.jsonl> --to ipynb|md     export a recorded run
  rlm eval ...                                  long-context benchmarks (rlm eval --help)
  rlm cache info|clear                          the sub-call cache of this folder
  rlm mcp [--root DIR] [--model NAME ...]       serve rlm_ask to agents over MCP (stdio)
  rlm <command> --help                          options of one command

The input is loaded into a sandboxed Python REPL; the model explores it with code and sub-calls,
and never receives it whole.`;

export const ASK_HELP = `Usage: rlm ask <path>... -q "<question>" [options]

Prints the answer on stdout. A folder is read recursively, honouring .gitignore and skipping binary
and very large files (--verbose lists what was skipped).

Models:
  --provider openai|anthropic   root model's API (default openai; openai also covers Ollama, LM Studio,
                                vLLM and OpenRouter through --base-url)
  --base-url URL                endpoint (default: the provider's official one)
  -m, --model NAME              root model (required)
  --api-key-env NAME            environment variable holding the key (default OPENAI_API_KEY or
                                ANTHROPIC_API_KEY). Keys are never accepted as flag values.
                                A local base URL (localhost, 127.0.0.1) needs no key.
  --context-window TOKENS       root model's window, used to size sub-call prompts
  --sub-provider, --sub-base-url, --sub-model, --sub-api-key-env, --sub-context-window
                                the same for sub-calls (each defaults to the root's)
  --stall-timeout SECONDS       fail a model call when its server sends no bytes for this long (default
                                60; a plain, unstreamed call counts only once its response has begun)
  --max-response-mb MB          fail a model call when its response grows past this size (default 64)
  --response-timeout SECONDS    fail a model call whose response is not complete this long after the
                                request, however it trickles (default 600)

Limits:
  --max-iterations N            root turns (default 30); then the root is asked for its best answer
  --max-depth N                 rlm_query recursion depth (default 1)
  --max-sub-calls N             sub-calls in the whole run (default 500)
  --max-tokens N                total tokens in the whole run
  --max-cost USD                total cost in the whole run
  --timeout SECONDS             wall time of the whole run
  --cell-timeout SECONDS        time per code cell (default 60)

Input:
  --context-limit-mb MB         largest folder read whole into the REPL (default 256); a larger one is
                                bound lazily (files read when used, search on the host)
  --workspace-limit-gb GB       largest folder that may be listed (default 16); a larger one is refused
  --repl-memory-mb MB           memory cap of the Python REPL (default 2048, 64 to 4096): a cell past it
                                gets a MemoryError and the run goes on
  --max-file-kb KB              largest file read from a folder (default 8192); larger ones are skipped
  Only regular files and folders are read: a device, FIFO or socket is refused (exit 2). Symlinks inside
  a folder are not followed; a link out of it, or a loop, is skipped and said.

Sandbox:
  --allow-weaker-sandbox        run model-written code even where fewer than two independent sandbox
                                layers hold for host files or the network (without it such a run
                                refuses, naming what is missing); the run's record says so

Sub-call cache (an identical llm_query in the same folder is answered from disk: no request, no cost):
  --no-cache                    this run neither reads nor stores cached answers
  --refresh-cache               send every sub-call again and store the fresh answers
  --cache-dir DIR               cache root (default: RLM_CACHE_DIR, else ~/.cache/rlm; one subfolder per
                                working directory, never shared between two)
  --cache-max-mb MB             size cap of this folder's entries, least recently used go first (default 256)
  "rlm cache info" shows where it is and its size; "rlm cache clear" empties it.

Provider batches (half price; results in minutes, at most 24 h):
${BATCH_HELP}

Output:
  --trajectory FILE             where to record the run (default ./.rlm/runs/<time>-<id>.rlm.jsonl)
  --json                        print {answer, status, forced, references, unresolvedReferences, usage,
                                subCalls, iterations, trajectory}
  --quiet                       no progress or notes on stderr
  -v, --verbose                 progress even when stderr is not a terminal, skipped files, notices

Ctrl-C cancels the run (the trajectory is closed as cancelled); a second Ctrl-C exits at once.
Exit codes: 0 answered, 1 error, 2 usage, 3 a limit ended the run, 130 cancelled.`;


export const CONTINUE_HELP = `Usage: rlm continue <file.rlm.jsonl> -q "<follow-up>" [options]
       rlm continue <file.rlm.jsonl> --from-turn N [-q "<question>"] [options]

Re-binds the recorded input, replays the recorded cells in order in a fresh REPL (every llm_query and
rlm_query is answered from the record: nothing is sent or billed), then asks the follow-up in that
session, with the earlier question and answer as the conversation so far. The new trajectory names
its parent.

  --from-turn N                 a fork: replay turns 1..N-1 only, and let the root take over at turn N
                                (with the recorded question, or -q to ask another)
  --context PATH                the input to bind instead of the paths the record names (repeatable);
                                needed when a recorded path lies outside this folder (exit 2 otherwise)
  --allow-divergence            go on when a replayed cell's output differs from the record (for example
                                because the file changed); without it the run stops there (exit 1)

A run interrupted while it waited for a provider batch (--batch) continues without -q or --from-turn:
it is taken up at that turn, and its batch is polled on the endpoint you configure now, never sent again.

A recorded file is treated as untrusted: the models, endpoints, keys and limits are yours, given as for
"rlm ask" (--model is required; --provider, --base-url, --sub-model, --max-iterations, --trajectory,
--json, --quiet, --verbose, ...), never the record's, which are only shown. The recorded input is read
again only when every path, symlinks resolved, lies inside the working folder; cells are replayed in
the sandbox.
--json adds {parent: {trajectory, runId, mode, fromTurn}}.`;


export const MCP_HELP = `Usage: rlm mcp [--root DIR] [model, limit, input and cache options of rlm ask]

Serves one MCP tool, rlm_ask {question, paths}, on stdin/stdout, for agents (Claude Code, Cline,
Cursor, VS Code): it answers a question about files, folders or globs under the served folder with an
RLM run, and returns the answer, its path:line references, the run's figures and its trajectory file.

  --root DIR                    the folder served (default: the working folder). Every path a call names
                                must lie inside it: "..", absolute paths outside and symlinks out are refused
  --trajectory-dir DIR          where runs are recorded (default <root>/.rlm/runs)
  -m, --model NAME, --provider, --base-url, --api-key-env, --sub-model, ...
                                the models, as for rlm ask. Without --model, a client that offers MCP
                                sampling lends its own model; other clients get an error saying what to add
  --max-cost USD                per run; default 0.50 for an agent's run (rlm ask has none)
  --timeout SECONDS             per run; default 300
  --max-iterations N            per run; default 20
  --max-sub-calls N             per run; default 200
  --max-depth, --max-tokens, --cell-timeout, --context-limit-mb, --max-file-kb, --no-cache, ...
                                as for rlm ask

Progress notifications are sent when the client asks for them; a cancelled call stops its run.`;
