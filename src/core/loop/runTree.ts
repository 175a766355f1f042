// What a root run and all its child runs share: one event stream (one seq counter), one budget,
// the models and the REPL factory.
import type { BatchRuntime } from './batchOptions';
import type { ModelClient } from '../models/modelTypes';
import type { EventRecord, RunEvent } from '../trajectory/events';
import type { SharedBudget } from './budget';
import type { RunLimits, SubCallCacheUse } from './loopTypes';
import type { ReplFactory } from '../repl/replFactory';

export class EventStamp {
  constructor(
    private readonly now: () => number,
    private readonly sink: (record: EventRecord) => void,
    /** The last seq already in the stream: a user's cell appends to a finished run's records. */
    private seq = 0,
  ) {}

  emit(event: RunEvent): void {
    this.seq += 1;
    this.sink({ ...event, seq: this.seq, ts: this.now() } as EventRecord);
  }
}

export interface RunTree {
  events: EventStamp;
  budget: SharedBudget;
  limits: RunLimits;
  root: ModelClient;
  sub: ModelClient;
  repl: ReplFactory;
  /** Where identical sub-calls are answered without a request; absent: every call is sent. */
  subCallCache?: SubCallCacheUse;
  /** How llm_query_batched uses provider batch APIs; absent: never. */
  batch?: BatchRuntime;
  now: () => number;
  newId: (prefix: string) => string;
}
