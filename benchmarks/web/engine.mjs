// Runs engine_bench.py in the page's runtime, the way the app runs the engine (Pyodide in a
// module worker, the engine wheel unpacked into site-packages); shows the JSON in #out and
// marks #done. Parameters come from the query: ?seconds=3&positions=3&warmup=6&games=a,b.
// Each game's steps are measured in a fresh worker of its own (a runtime's speed depends on
// what it ran before, see engine_bench.steps), then the bots in one more worker.
const query = new URLSearchParams(location.search);
const seconds = Number(query.get("seconds") || 3);
const positions = Number(query.get("positions") || 3);
const warmup = Number(query.get("warmup") || 6);
const games = (query.get("games") || "").split(",").filter(Boolean);
// ?part=bots: engine_bench.bots_part (positions per table, review=N moves) in one worker.
const part = query.get("part") || "";
const review = Number(query.get("review") || 65);

function inWorker(message) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./engine-worker.mjs", import.meta.url), { type: "module" });
    worker.addEventListener("message", (event) => {
      worker.terminate();
      if (event.data.error) reject(new Error(event.data.error));
      else resolve(event.data);
    });
    worker.postMessage(message);
  });
}

async function main() {
  if (part === "bots") return inWorker({ part, positions, review, games: games.length ? games : null });
  const result = { steps: {}, bots: {}, search: {} };
  let python = "";
  for (const game of games) {
    const data = await inWorker({ seconds, positions: 0, warmup, games: [game] });
    Object.assign(result.steps, data.result.steps);
    python = data.python;
  }
  if (positions > 0) {
    const data = await inWorker({ seconds: 0, positions, warmup, games: null });
    Object.assign(result, { bots: data.result.bots, search: data.result.search });
    python = data.python;
  }
  return { result, python };
}

const status = document.getElementById("status");
main().then(
  (data) => { document.getElementById("out").textContent = JSON.stringify(data); status.textContent = "done"; },
  (error) => { document.getElementById("out").textContent = JSON.stringify({ error: String(error.message || error) }); status.textContent = "failed"; },
).finally(() => { status.id = "done"; });
