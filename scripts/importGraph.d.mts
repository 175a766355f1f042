// Types of importGraph.mjs, for the tests that import it.
/** Every file of src/ and webview/ (repository-relative, POSIX) with the repository files it imports. */
export declare function importGraph(root?: string): Map<string, string[]>;
/** Folder -> the other folders it imports, at the top level (src/<folder> or webview). */
export declare function folderArrows(graph: Map<string, string[]>): Map<string, string[]>;
/** The circles among files: each a sorted list of the files that import one another. */
export declare function fileCircles(graph: Map<string, string[]>): string[][];
