// Layer 3's canary, run by the REPL process's main thread before it starts the worker: it tries to reach
// listeners the host holds (TCP on the host's loopback, a Unix socket in the host's temporary folder).
// Inside a network namespace the TCP attempt fails with ENETUNREACH; where /tmp is hidden, the socket
// path does not exist. A connection that succeeds writes the host's token, so the host sees it too.
import { connect } from 'node:net';
import type { CanaryTargets } from '../core/repl/replProtocol';
import type { SandboxProbe } from '../core/repl/replTypes';

const PROBE_TIMEOUT_MS = 1000;

function tryConnect(name: string, options: { port: number; host: string } | { path: string }, token: string): Promise<SandboxProbe> {
  return new Promise((resolve) => {
    const socket = connect(options);
    const finish = (probe: SandboxProbe): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(probe);
    };
    const timer = setTimeout(() => finish({ name, held: true, detail: `no answer within ${PROBE_TIMEOUT_MS} ms` }), PROBE_TIMEOUT_MS);
    socket.on('connect', () => {
      socket.end(token, () => finish({ name, held: false, detail: 'connected: the host was reachable' }));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => finish({ name, held: true, detail: error.code ?? error.message }));
  });
}

export async function probeNetwork(canary: CanaryTargets): Promise<SandboxProbe[]> {
  const token = canary.token ?? '';
  const attempts: Array<Promise<SandboxProbe>> = [];
  if (canary.tcpPort) attempts.push(tryConnect(`TCP to the host's 127.0.0.1:${canary.tcpPort}`, { port: canary.tcpPort, host: '127.0.0.1' }, token));
  if (canary.unixPath) attempts.push(tryConnect(`Unix socket ${canary.unixPath}`, { path: canary.unixPath }, token));
  return Promise.all(attempts);
}
