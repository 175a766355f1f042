// Trajectory view webview entry: connects to the host, builds the app, then says "ready" so the host
// sends the state (the handshake comes last, once every listener is in place).
import { HostBridge } from './hostBridge';
import { TrajectoryApp } from './app';

function start(): void {
  const root = document.getElementById('app');
  if (!root) throw new Error('trajectory view: the page has no #app element');
  const bridge = HostBridge.acquire();
  new TrajectoryApp(root, bridge);
  bridge.ready();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
