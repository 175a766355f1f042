// Types of importGraph.mjs, for the tests that import it.
/** Every file of src/ and webview/ (repository-relative, POSIX) with the repository files it imports. */
export declare function importGraph(root?: string): Map<string, string[]>;
/** Folder -> the other folders it imports, at the top level (src/<folder> or webview). */
export declare function folderArrows(graph: Map<string, string[]>): Map<string, string[]>;
/** The circles among files: each a sorted list of the files that import one another. */
export declare function fileCircles(graph: Map<string, string[]>): string[][];
/** The folder that holds a file: src/vscode/run for src/vscode/run/runLauncher.ts. */
export declare function folderOf(file: string): string;
/** Folder -> the folders its files import, as a graph of folders. */
export declare function folderGraph(graph: Map<string, string[]>): Map<string, string[]>;
/** Folder -> the other folders of the same top folder it imports. */
export declare function innerFolderArrows(graph: Map<string, string[]>): Map<string, string[]>;
/** The circles among folders, each a sorted list of folders. */
export declare function folderCircles(graph: Map<string, string[]>): string[][];
