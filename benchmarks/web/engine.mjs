// Runs engine_bench.py in the page's runtime, the way the app runs the engine (Pyodide in a
// module worker, the engine wheel unpacked into site-packages); shows the JSON in #out and
// marks #done. Parameters come from the query: ?seconds=3&positions=3.
const query = new URLSearchParams(location.search);
const worker = new Worker(new URL("./engine-worker.mjs", import.meta.url), { type: "module" });
worker.postMessage({
  seconds: Number(query.get("seconds") || 3),
  positions: Number(query.get("positions") || 3),
});
worker.addEventListener("message", (event) => {
  const status = document.getElementById("status");
  document.getElementById("out").textContent = JSON.stringify(event.data);
  status.textContent = event.data.error ? `failed: ${event.data.error}` : "done";
  status.id = "done";
});
