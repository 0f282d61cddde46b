// The baseline: the stock Pyodide runtime of the build's version (its whole standard library),
// loaded bare (no engine) in a module worker, as the app's engine worker loads it. Posts
// {ms, origin, lastByte}: loadPyodide()'s time here, this worker's time origin, and when the
// last byte of its downloads arrived (ms from that origin), for the benchmark's split of the
// bare time into the line's part and the rest.
const started = performance.now();
try {
  const { loadPyodide } = await import("./stock-pyodide/pyodide.mjs");
  const indexURL = new URL("./stock-pyodide/", import.meta.url).href;
  await loadPyodide({ indexURL });
  const ms = performance.now() - started;
  const ends = performance.getEntriesByType("resource").map((entry) => entry.responseEnd);
  self.postMessage({ ms, origin: performance.timeOrigin, lastByte: Math.max(0, ...ends) });
} catch (error) {
  self.postMessage({ error: String(error && error.message || error) });
}
