// Drives js/engine-client.js the way app.js does and writes what happened into #out as JSON
// (used by e2e/test_platform.py; served by its fixtures only, never part of dist/).
// dist/ has engine-client.js only inside its bundle, so the fixture serves web/js/ next to
// this page: "../worker.js" in engine-client.js then names the built dist/worker.js.
import { startEngine } from "./engine-client.js";

const out = { progress: [] };
let client = null;
try {
  client = await startEngine((update) => out.progress.push(update));
  out.info = client.info;
  out.games = await client.call("games");
  out.start = await client.call("start", {
    game: "crisps", seed: 1, seats: [{ type: "human" }, { type: "bot", level: "random" }],
  });
  out.illegal = await client.call("act", { action: "no-such-move" });
  out.unknown = await client.call("no_such_method", {});
  out.notJson = await client.call("why", { action: 12 });
  // Requests in flight together each get their own reply.
  const replies = await Promise.all([
    client.call("snapshot"), client.call("why", { action: "no-such-move" }),
    client.call("record"), client.call("games"),
  ]);
  out.together = replies.map((reply) => Object.keys(reply).sort());
  let crashed = null;
  client.onCrash((error) => { crashed = error.message; });
  client.terminate();
  try {
    await client.call("snapshot");
    out.afterTerminate = "resolved";
  } catch (error) {
    out.afterTerminate = error.message;
  }
  out.crashCallbackOnTerminate = crashed;
} catch (error) {
  out.failure = error instanceof Error ? error.message : String(error);
}
document.getElementById("out").textContent = JSON.stringify(out);
document.body.dataset.done = "1";
