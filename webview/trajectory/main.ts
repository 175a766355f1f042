// Trajectory view webview entry.
export {};
