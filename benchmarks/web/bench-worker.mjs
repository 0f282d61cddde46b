// The baseline: the stock Pyodide runtime of the build's version (its whole standard library),
// loaded bare (no engine) in a module worker, as the app's engine worker loads it: a plain
// loadPyodide(), no options (Pyodide finds its files beside pyodide.mjs, as it does for
// anyone). Posts {ms, origin, lastByte, streamed}: loadPyodide()'s time here, this worker's
// time origin, when the last byte of its downloads arrived (ms from that origin), for the
// benchmark's split of the bare time into the line's part and the rest, and whether the
// runtime's WebAssembly was compiled as it streamed in (Pyodide hands its fetch to
// WebAssembly.instantiateStreaming, which a wrong MIME type or encoding would refuse): the
// call is only noted here, passed on unchanged.
const started = performance.now();
let streamed = false;
const instantiateStreaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async (...args) => {
  const result = await instantiateStreaming.apply(WebAssembly, args);
  streamed = true;
  return result;
};
try {
  const { loadPyodide } = await import("./stock-pyodide/pyodide.mjs");
  await loadPyodide();
  const ms = performance.now() - started;
  const ends = performance.getEntriesByType("resource").map((entry) => entry.responseEnd);
  self.postMessage({ ms, origin: performance.timeOrigin, lastByte: Math.max(0, ...ends), streamed });
} catch (error) {
  self.postMessage({ error: String(error && error.message || error) });
}
