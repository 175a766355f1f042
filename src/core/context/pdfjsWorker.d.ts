// pdf.js's parsing side ships no types of its own: imported only to be handed to pdf.js (pdfWorkerMain.ts).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
