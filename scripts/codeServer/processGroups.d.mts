// Types for processGroups.mjs.
export declare function trackProcessGroup(pid: number): void;
export declare function untrackProcessGroup(pid: number): void;
export declare function groupAlive(pid: number): boolean;
export declare function stopProcessGroup(pid: number, options?: { graceMs?: number }): Promise<void>;
