// What the page fetches once the menu is drawn: the shared chunks the game screens import,
// named by the build in index.html's <meta name="parlour:after-menu"> (tools/build/site.py).
// Preloaded then, they are in hand when a game's module arrives, without competing with the
// menu's own modules for the page's connections.

/** Preload them after the next frame (the menu's first); nothing where the meta is absent. */
export function preloadAfterMenu() {
  const meta = document.querySelector('meta[name="parlour:after-menu"]');
  if (!meta) return;
  requestAnimationFrame(() => setTimeout(() => {
    for (const href of meta.content.split(/\s+/).filter(Boolean)) {
      if (document.querySelector(`link[rel=modulepreload][href="${CSS.escape(href)}"]`)) continue;
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.append(link);
    }
  }, 0));
}
