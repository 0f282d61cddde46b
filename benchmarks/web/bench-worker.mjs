const started = performance.now();
try {
  const { loadPyodide } = await import("./stock-pyodide/pyodide.mjs");
  const indexURL = new URL("./stock-pyodide/", import.meta.url).href;
  await loadPyodide({ indexURL });
  self.postMessage({ ms: performance.now() - started });
} catch (error) {
  self.postMessage({ error: String(error && error.message || error) });
}
