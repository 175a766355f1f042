// Sidebar chat webview entry.
export {};
