// What every renderer needs, passed down explicitly instead of through module state.
import type { RunHeaderView, TurnView } from '../../src/shared/trajectoryProtocol';
import type { HostBridge } from './hostBridge';

export interface RenderContext {
  bridge: HostBridge;
  /** The root run's header (for time scales and the observation limit). */
  rootHeader(): RunHeaderView;
  /** Renders a turn of any run: used for child runs nested under rlm_query calls. */
  renderTurn(turn: TurnView): HTMLElement;
  notify(level: 'info' | 'error', message: string): void;
}
