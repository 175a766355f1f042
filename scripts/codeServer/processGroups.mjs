// Every long-lived process the tests or `npm start` spawn runs in its own process group, recorded
// here, so that it can be killed with all its children (code-server forks an extension host, a
// file watcher and pty hosts) — on normal stop, on Ctrl-C, on an uncaught error and on exit.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const groups = new Set();
let hooksInstalled = false;

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

function installHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // 'exit' handlers must be synchronous: SIGKILL the whole group, no waiting.
  process.on('exit', () => {
    for (const pid of groups) killGroup(pid, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      for (const pid of groups) killGroup(pid, 'SIGKILL');
      // Re-raise the conventional exit status for the signal once our children are gone.
      process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[signal] ?? 1));
    });
  }
}

/** Records a detached child's process group for cleanup. */
export function trackProcessGroup(pid) {
  installHooks();
  groups.add(pid);
}

export function untrackProcessGroup(pid) {
  groups.delete(pid);
}

/**
 * True while any process of the group is alive. Zombies do not count: in a container, PID 1 may
 * never reap orphans, and a zombie still answers kill(0).
 */
export function groupAlive(pid) {
  if (!killGroup(pid, 0)) return false;
  if (!existsSync('/proc/self/stat')) return true;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Format: pid (comm) state ppid pgrp ...; comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pid && fields[0] !== 'Z') return true;
  }
  return false;
}

/**
 * Stops a process group: SIGTERM, then SIGKILL after `graceMs` if anything is left.
 * Resolves once no process of the group remains.
 */
export async function stopProcessGroup(pid, { graceMs = 3000 } = {}) {
  killGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (groupAlive(pid)) {
    killGroup(pid, 'SIGKILL');
    const hardDeadline = Date.now() + 5000;
    while (groupAlive(pid) && Date.now() < hardDeadline) await new Promise((r) => setTimeout(r, 50));
  }
  untrackProcessGroup(pid);
  if (groupAlive(pid)) throw new Error(`process group ${pid} survived SIGKILL`);
}
