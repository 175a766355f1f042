// Where a spawned command's CPU goes, measured from outside: every thread of its process tree is
// sampled from /proc while it runs (Linux only). The REPL process cannot be profiled from inside
// (its environment is emptied and its flags are fixed), and `time` gives one sum; this gives the split.
// A thread's last sample before it exits is what is kept, so each figure may miss up to one interval.
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadCpu {
  pid: number;
  tid: number;
  /** Every command line the process had (unshare, then sh, then node: one pid across its execs). */
  commands: string[];
  /** user + system seconds. */
  cpuS: number;
}

interface TreeCpuWatch {
  /** Stops sampling and returns each thread seen, with its last figure. */
  stop(): ThreadCpu[];
}

const TICKS_PER_SECOND = 100;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function list(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

/** Samples `root` and its descendants every `everyMs` until stop(). */
export function watchTreeCpu(root: number, everyMs = 5): TreeCpuWatch {
  const threads = new Map<string, ThreadCpu>();
  const commands = new Map<number, string[]>();
  const sample = (): void => {
    const pids = [root];
    for (let i = 0; i < pids.length; i++) {
      const pid = pids[i]!;
      const command = read(`/proc/${pid}/cmdline`)?.split('\0').filter(Boolean).join(' ');
      const seen = commands.get(pid) ?? [];
      if (command && seen[seen.length - 1] !== command) seen.push(command);
      commands.set(pid, seen);
      for (const tid of list(`/proc/${pid}/task`)) {
        const stat = read(`/proc/${pid}/task/${tid}/stat`);
        if (stat) {
          // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          const cpuS = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
          threads.set(`${pid}/${tid}`, { pid, tid: Number(tid), commands: seen, cpuS });
        }
        for (const child of (read(`/proc/${pid}/task/${tid}/children`) ?? '').split(' ').filter(Boolean)) pids.push(Number(child));
      }
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return [...threads.values()];
    },
  };
}
