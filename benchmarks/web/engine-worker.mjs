self.addEventListener("message", async (event) => {
  const { seconds, positions, warmup, games, part, review } = event.data;
  try {
    const here = new URL("./", import.meta.url);
    const info = await (await fetch(new URL("build-info.json", here))).json();
    const wheel = await (await fetch(new URL(`wheels/${info.engine_wheel}`, here))).arrayBuffer();
    const source = await (await fetch(new URL("engine_bench.py", here))).text();
    const { loadPyodide } = await import("./pyodide/pyodide.mjs");
    const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", here).href });
    const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
    pyodide.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
    pyodide.FS.writeFile("/home/pyodide/engine_bench.py", source);
    const call = part === "bots"
      ? `engine_bench.bots_part(${Number(positions)}, ` +
        `${JSON.stringify(games || null).replace("null", "None")}, ${Number(review)})`
      : `engine_bench.run(${Number(seconds)}, ${Number(positions)}, ` +
        `${JSON.stringify(games || null).replace("null", "None")}, ${Number(warmup)})`;
    const text = pyodide.runPython(
      `import sys, json\nsys.path.insert(0, "/home/pyodide")\nimport engine_bench\n` +
      `json.dumps(${call})`);
    self.postMessage({ result: JSON.parse(text), python: pyodide.runPython("import sys; sys.version.split()[0]") });
  } catch (error) {
    self.postMessage({ error: String((error && error.message) || error) });
  }
});
