// Entry of the Pyodide worker thread.
export {};
