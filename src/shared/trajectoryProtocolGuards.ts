// Checks what a trajectory webview posts before the host acts on it. A webview is our own code, but
// its messages arrive as `unknown`; a malformed one gets a typed error naming what was wrong.
import type { TextRef, WebviewToHost } from './trajectoryProtocol';

export class InvalidViewMessageError extends Error {
  constructor(
    readonly reason: string,
    readonly received: unknown,
  ) {
    super(`Invalid trajectory view message: ${reason}`);
    this.name = 'InvalidViewMessageError';
  }
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function need(cond: boolean, reason: string, raw: unknown): void {
  if (!cond) throw new InvalidViewMessageError(reason, raw);
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function checkRef(ref: unknown, raw: unknown): TextRef {
  need(isObj(ref), '`ref` must be an object', raw);
  const r = ref as Obj;
  need(isStr(r.runId), '`ref.runId` must be a string', raw);
  switch (r.kind) {
    case 'question':
    case 'answer':
      break;
    case 'reasoning':
      need(isCount(r.turnIndex), '`ref.turnIndex` must be a non-negative integer', raw);
      break;
    case 'code':
    case 'stdout':
    case 'stderr':
    case 'traceback':
      need(isStr(r.cellId), '`ref.cellId` must be a string', raw);
      break;
    case 'prompt':
    case 'response':
      need(isStr(r.callId), '`ref.callId` must be a string', raw);
      break;
    default:
      need(false, `unknown text kind ${JSON.stringify(r.kind)}`, raw);
  }
  return r as unknown as TextRef;
}

/** Returns the message typed, or throws InvalidViewMessageError saying which field is wrong. */
/** Longest cell the user can send from the view (a paste of a whole file is not a cell). */
const USER_CELL_MAX_CHARS = 200_000;

export function parseWebviewMessage(raw: unknown): WebviewToHost {
  need(isObj(raw), 'a message must be an object', raw);
  const m = raw as Obj;
  switch (m.type) {
    case 'ready':
      need(typeof m.protocolVersion === 'number', '`protocolVersion` must be a number', raw);
      need(m.embedded === undefined || isCount(m.embedded), '`embedded` must be a non-negative integer when given', raw);
      break;
    case 'requestTurns':
    case 'requestOutline': {
      const max = m.type === 'requestTurns' ? 200 : 5000;
      need(isCount(m.requestId), '`requestId` must be a non-negative integer', raw);
      need(isStr(m.runId), '`runId` must be a string', raw);
      need(isCount(m.from), '`from` must be a non-negative integer', raw);
      need(isCount(m.count) && (m.count as number) <= max, `\`count\` must be an integer from 0 to ${max}`, raw);
      break;
    }
    case 'requestCell':
      need(isCount(m.requestId), '`requestId` must be a non-negative integer', raw);
      need(isStr(m.runId), '`runId` must be a string', raw);
      need(isStr(m.cellId), '`cellId` must be a string', raw);
      break;
    case 'requestRun':
      need(isCount(m.requestId), '`requestId` must be a non-negative integer', raw);
      need(isStr(m.runId), '`runId` must be a string', raw);
      break;
    case 'requestText':
      need(isCount(m.requestId), '`requestId` must be a non-negative integer', raw);
      checkRef(m.ref, raw);
      need(isCount(m.offset), '`offset` must be a non-negative integer', raw);
      need(isCount(m.length) && (m.length as number) > 0, '`length` must be a positive integer', raw);
      break;
    case 'search': {
      need(isCount(m.requestId), '`requestId` must be a non-negative integer', raw);
      need(isStr(m.query), '`query` must be a string', raw);
      need(isObj(m.filters), '`filters` must be an object', raw);
      const f = m.filters as Obj;
      need(typeof f.errorsOnly === 'boolean', '`filters.errorsOnly` must be a boolean', raw);
      need(f.model === undefined || isStr(f.model), '`filters.model` must be a string when given', raw);
      need(f.depth === undefined || isCount(f.depth), '`filters.depth` must be a non-negative integer when given', raw);
      break;
    }
    case 'stop':
      break;
    case 'export':
      need(m.format === 'ipynb' || m.format === 'markdown', '`format` must be "ipynb" or "markdown"', raw);
      break;
    case 'copy':
      checkRef(m.ref, raw);
      break;
    case 'askAgain':
    case 'openParent':
      break;
    case 'setPrice':
      need(m.model === undefined || isStr(m.model), '`model` must be a string when given', raw);
      break;
    case 'openSetting':
      need(isStr(m.setting) && /^rlm\.[A-Za-z.]+$/.test(m.setting), '`setting` must name an rlm.* setting', raw);
      break;
    case 'continueRun':
      need(typeof m.fork === 'boolean', '`fork` must be true or false', raw);
      break;
    case 'runUserCell':
      need(isStr(m.code) && m.code.length <= USER_CELL_MAX_CHARS, `\`code\` must be a string of at most ${USER_CELL_MAX_CHARS} characters`, raw);
      break;
    case 'stopUserCell':
      break;
    case 'openReference':
      need(isStr(m.runId), '`runId` must be a string', raw);
      need(isCount(m.index), '`index` must be a non-negative integer', raw);
      break;
    default:
      need(false, `unknown message type ${JSON.stringify(m.type)}`, raw);
  }
  return m as unknown as WebviewToHost;
}
