// The baseline: the stock Pyodide runtime of the build's version (its whole standard library),
// loaded bare (no engine) in a module worker, as the app's engine worker loads it. Shows #ready when loadPyodide() has resolved.
const worker = new Worker(new URL("./bench-worker.mjs", import.meta.url), { type: "module" });
worker.addEventListener("message", (event) => {
  const status = document.getElementById("status");
  if (event.data.error) {
    status.textContent = `failed: ${event.data.error}`;
    status.id = "failed";
    return;
  }
  status.textContent = `loadPyodide() took ${event.data.ms.toFixed(0)} ms in the worker`;
  status.id = "ready";
});
