// Raw DEFLATE streams made with Zopfli (@gfx/zopfli, WebAssembly): a few percent smaller
// than zlib's best, and any inflater reads them. build.py (zopfli()) runs
//   NODE_PATH=<its npm ci of tools/>/node_modules node tools/deflate.cjs DIR
// and this compresses every DIR/<n>.in into DIR/<n>.out.
"use strict";
const fs = require("fs");
const path = require("path");
const { deflateAsync } = require("@gfx/zopfli");

(async () => {
  const dir = process.argv[2];
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".in")).sort()) {
    const packed = await deflateAsync(fs.readFileSync(path.join(dir, name)), { numiterations: 15 });
    fs.writeFileSync(path.join(dir, `${name.slice(0, -3)}.out`), packed);
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
