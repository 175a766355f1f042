// What `npm start` tells a person while it works: numbered steps, each saying what it waits for and
// how long that usually takes on a first run, a line now and then while a long step runs (so a quiet
// terminal never looks stuck), and how long each step took. Tools' own output (vsce's list of every
// packaged file, npm's build logs) is kept back and shown only when a step fails.
//
// Clock, timers and output are injected, so tests drive it without waiting.

/** "42 s", "3 min 5 s". */
export function formatDuration(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
}

/**
 * @param {{ total: number, write?: (text: string) => void, now?: () => number, every?: (fn: () => void, ms: number) => { stop(): void }, heartbeatMs?: number }} options
 */
export function createProgress({ total, write = (text) => process.stdout.write(text), now = () => Date.now(), every = defaultEvery, heartbeatMs = 20_000 }) {
  const started = now();
  let index = 0;
  return {
    /**
     * Runs one step. `title`: what it does ("Preparing code-server"); `expect`: how long it usually
     * takes, said before it starts ("one time, usually 4-6 min"); `waiting`: what a heartbeat line
     * says it still waits for (a function is asked at each line, for a step whose current part
     * changes). Returns what `work` returns; a failure is re-thrown after the line that
     * says which step failed and after how long.
     */
    async step(title, work, { expect, waiting } = {}) {
      index += 1;
      const at = now();
      write(`[${index}/${total}] ${title}${expect ? ` (${expect})` : ''}...\n`);
      const what = () => (typeof waiting === 'function' ? waiting() : waiting) ?? title.charAt(0).toLowerCase() + title.slice(1);
      const heartbeat = every(() => write(`      still ${what()}: ${formatDuration(now() - at)} so far\n`), heartbeatMs);
      try {
        const result = await work();
        heartbeat.stop();
        const note = result && typeof result === 'object' && typeof result.note === 'string' ? `: ${result.note}` : '';
        write(`      done in ${formatDuration(now() - at)}${note}\n`);
        return result;
      } catch (error) {
        heartbeat.stop();
        write(`      failed after ${formatDuration(now() - at)}\n`);
        throw error;
      }
    },
    /** A step that needs no work this time ("already prepared"). */
    skip(title, why) {
      index += 1;
      write(`[${index}/${total}] ${title}: ${why}\n`);
    },
    elapsed() {
      return formatDuration(now() - started);
    },
  };
}

function defaultEvery(fn, ms) {
  const timer = setInterval(fn, ms);
  // A heartbeat never keeps the process alive by itself.
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}

/**
 * The last lines of a tool's kept-back output, for the failure message: enough to see the error,
 * without the hundreds of lines before it.
 */
export function tailLines(output, count = 30) {
  const lines = output.replace(/\s+$/, '').split('\n');
  return lines.length > count ? [`(${lines.length - count} earlier lines left out)`, ...lines.slice(-count)].join('\n') : lines.join('\n');
}
