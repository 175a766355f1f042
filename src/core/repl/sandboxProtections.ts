// The SandboxProtections a session reports: assembled from what the launch plan asked for and what the
// REPL process found in force, so the UI and CLI never claim a protection that is not active.
import type { ReadyInfo } from './replProtocol';
import type { SandboxProtections } from './replTypes';

export function emptyProtections(): SandboxProtections {
  return {
    separateProcess: false, emptyEnvironment: false, codeGenerationFromStringsDisallowed: false, permissionModel: false,
    jsGlobalsRestricted: false, pyodideJsUnregistered: false, networkApisRemoved: false, notes: ['the REPL has not started'],
  };
}

export function protectionsFrom(ready: ReadyInfo, planNotes: string[], env: Record<string, string>): SandboxProtections {
  const notes = [...planNotes, ...ready.notes];
  if (Object.keys(env).length > 0) notes.push(`the child environment holds only ${Object.keys(env).join(', ')} (needed to run Electron as Node)`);
  if (!ready.codeGenerationFromStringsDisallowed) notes.push('code generation from strings is still allowed in the REPL process');
  return {
    separateProcess: true,
    emptyEnvironment: true,
    codeGenerationFromStringsDisallowed: ready.codeGenerationFromStringsDisallowed,
    permissionModel: ready.permissionModel,
    jsGlobalsRestricted: ready.jsGlobalsRestricted,
    pyodideJsUnregistered: ready.pyodideJsUnregistered,
    networkApisRemoved: ready.networkApisRemoved,
    notes,
  };
}
