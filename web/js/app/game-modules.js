// The games' table modules, web/js/games/<id>.js, loaded when a game's table is first needed:
// each is named here one by one (a template import() makes esbuild ship its lookup helper as
// a chunk of its own, one more file before the menu), and a game without one is drawn by the
// plain table of games/generic.js.
const GAME_MODULES = {
  roundup: () => import("../games/roundup.js"),
  progression: () => import("../games/progression.js"),
  mhing: () => import("../games/mhing.js"),
  crisps: () => import("../games/crisps.js"),
  spite: () => import("../games/spite.js"),
};

/** The game's own module (a promise; it rejects for a game without one). */
export const gameModule = (gameId) => (GAME_MODULES[gameId] ? GAME_MODULES[gameId]() : Promise.reject(new Error(`no module for ${gameId}`)));

/** The game's module, or the generic table's when it has none (or it could not be loaded). */
export async function rendererFor(gameId) {
  try {
    return await gameModule(gameId);
  } catch {
    return import("../games/generic.js");
  }
}
