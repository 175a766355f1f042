// Types for deadExports.mjs, so that its unit test can import it.
export interface DeadExport {
  path: string;
  line: number;
  name: string;
  kind: 'value' | 'type';
}
export interface EntryPoint {
  file: RegExp;
  names: string[];
  why: string;
}
export declare const ENTRY_POINTS: EntryPoint[];
export declare function findDeadExports(options: { root: string; tsconfig?: string; entryPoints?: EntryPoint[] }): DeadExport[];
export declare function compareWithKnown(dead: DeadExport[], known: Record<string, string[]>): { fresh: DeadExport[]; known: DeadExport[]; stale: string[] };
