// QR codes of links, for a phone's camera in the same room: drawn as SVG from the module
// matrix that qrcode-generator (Kazuhiko Arase, MIT licence: web/licenses/qrcode-generator.txt)
// computes. js/vendor/qrcode-generator.mjs is that npm package's ES module as published, its
// version pinned in tools/package.json and tools/package-lock.json (tests/test_qr.py checks
// the copy against the pinned package, and our matrices against another encoder).
//
// Nothing imports this module statically: share.js (beside it) loads it when a screen first
// shows a link to scan, so in a bundled build it and the library are a chunk of their own that
// the first paint never waits for (and the service worker precaches it like every chunk).
import qrcode from "../../vendor/qrcode-generator.mjs";

/** Error correction "M" (about 15% of the code may be lost): an invitation link of ~160
 * characters is then a version 9 code (53 modules a side), which a phone reads from a screen
 * at arm's length; "Q" or "H" would need versions 11-13 and smaller modules for no real gain
 * on a lit screen. */
export const LEVEL = "M";
/** The quiet zone around the code, in modules (the standard asks for four). */
export const QUIET = 4;
/** Screen pixels per module at full size: whole pixels keep the modules sharp on a laptop. */
const PIXELS = 4;

const SVG = "http://www.w3.org/2000/svg";

/** The code's modules, row by row (true: dark), without the quiet zone. The text goes in
 * byte mode as UTF-8 (the library takes one character per byte). */
export function qrMatrix(text) {
  const bytes = new TextEncoder().encode(text);
  const code = qrcode(0, LEVEL);
  code.addData(Array.from(bytes, (b) => String.fromCharCode(b)).join(""), "Byte");
  code.make();
  const size = code.getModuleCount();
  return Array.from({ length: size }, (_, row) => Array.from({ length: size }, (_, col) => code.isDark(row, col)));
}

/** The code of `text` as an <svg> image named `label`: black modules on a white square with its
 * quiet zone, whatever the page's theme. Each run of dark modules in a row is one rectangle of
 * the path ("M<col> <row>h<length>v1h-<length>z", in modules, quiet zone included). */
export function qrSvg(text, label) {
  const rows = qrMatrix(text);
  const side = rows.length + 2 * QUIET;
  let path = "";
  rows.forEach((row, r) => {
    for (let c = 0; c < row.length; c += 1) {
      if (!row[c]) continue;
      let end = c;
      while (end + 1 < row.length && row[end + 1]) end += 1;
      const run = end - c + 1;
      path += `M${c + QUIET} ${r + QUIET}h${run}v1h-${run}z`;
      c = end;
    }
  });
  const svg = document.createElementNS(SVG, "svg");
  const set = (el, attrs) => { for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v)); return el; };
  set(svg, {
    viewBox: `0 0 ${side} ${side}`, width: side * PIXELS, height: side * PIXELS, role: "img", "aria-label": label,
    class: "qr-code", "shape-rendering": "crispEdges", "data-modules": rows.length, "data-quiet": QUIET,
  });
  svg.append(
    set(document.createElementNS(SVG, "rect"), { width: side, height: side, fill: "#fff" }),
    set(document.createElementNS(SVG, "path"), { d: path, fill: "#000" }));
  return svg;
}
