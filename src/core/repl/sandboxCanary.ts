// The host's end of layer 3's probe: a TCP listener on 127.0.0.1 and a Unix socket in the temporary
// folder, one pair per host process, started on first use. A REPL process that can reach either writes
// its start token; the host then knows the network was reachable from that process, whatever the
// process itself reports. Both listeners are unref'd, so they never keep a CLI alive.
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CanaryTargets } from './replProtocol';

export class SandboxCanary {
  private readonly reached = new Set<string>();
  private servers: Server[] = [];
  private targets?: Promise<CanaryTargets>;

  /** Where to probe, and a fresh token for this start. */
  async forStart(): Promise<CanaryTargets & { token: string }> {
    this.targets ??= this.listen();
    return { ...(await this.targets), token: randomBytes(8).toString('hex') };
  }

  /** True when a probe carrying `token` got through. */
  wasReached(token: string): boolean {
    return this.reached.has(token);
  }

  private async listen(): Promise<CanaryTargets> {
    const targets: CanaryTargets = {};
    const tcp = this.server();
    await new Promise<void>((resolve) => {
      tcp.once('error', () => resolve());
      tcp.listen(0, '127.0.0.1', () => {
        const address = tcp.address();
        if (address && typeof address === 'object') targets.tcpPort = address.port;
        resolve();
      });
    });
    if (process.platform !== 'win32') {
      const path = join(tmpdir(), `rlm-canary-${process.pid}-${randomBytes(4).toString('hex')}.sock`);
      const unix = this.server();
      await new Promise<void>((resolve) => {
        unix.once('error', () => resolve());
        unix.listen(path, () => {
          targets.unixPath = path;
          resolve();
        });
      });
      process.once('exit', () => rmSync(path, { force: true }));
    }
    return targets;
  }

  private server(): Server {
    const server = createServer((socket) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (text.length > 64) socket.destroy();
      });
      socket.on('end', () => this.reached.add(text.trim()));
      socket.on('error', () => undefined);
    });
    server.unref();
    this.servers.push(server);
    return server;
  }

  close(): void {
    for (const server of this.servers) server.close();
    this.servers = [];
    this.targets = undefined;
  }
}

let shared: SandboxCanary | undefined;

/** The process-wide canary. */
export function sharedCanary(): SandboxCanary {
  shared ??= new SandboxCanary();
  return shared;
}
