// The bare page: starts the worker of bench-worker.mjs and shows #ready once its
// loadPyodide() has resolved. window.__bare holds, by this page's clock (ms since the start
// of its navigation): ready (loadPyodide() resolved, as the page hears of it), lastByte
// (the last byte of the worker's downloads, or of this page's own files) and streamed (the
// runtime's WebAssembly compiled as it streamed in).
const worker = new Worker(new URL("./bench-worker.mjs", import.meta.url), { type: "module" });
worker.addEventListener("message", (event) => {
  const ready = performance.now();
  const status = document.getElementById("status");
  if (event.data.error) {
    status.textContent = `failed: ${event.data.error}`;
    status.id = "failed";
    return;
  }
  const own = performance.getEntriesByType("resource").map((entry) => entry.responseEnd);
  const workerLastByte = event.data.origin + event.data.lastByte - performance.timeOrigin;
  window.__bare = {
    ready, lastByte: Math.max(workerLastByte, ...own), streamed: event.data.streamed,
  };
  status.textContent = `loadPyodide() took ${event.data.ms.toFixed(0)} ms in the worker`;
  status.id = "ready";
});
