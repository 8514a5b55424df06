// Build the browser client into the Python package (default ../src/deltav/web_static), so a wheel carries it
// and a pip user needs no Node.
//
//   node build.mjs                 bundle (app.js: lobby, match, replay; demo.js: the board preview of board.html)
//                                  + static files + the demo board, into ../src/deltav/web_static
//   node build.mjs --out DIR       the same into DIR (the browser tests build into a temporary folder)
//   node build.mjs --tests         bundle test/*.test.ts into .test-build/ for `node --test`
//
// The demo board JSON comes from the engine: tools/export_board.py runs with $PYTHON (default: the repo's
// .venv python, else python3) and PYTHONPATH=../src. The output is deterministic (no timestamps).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};

const KEEP = new Set(["__init__.py", "__pycache__"]); // the committed package marker of web_static
const MARKER = "build-info.json";

function cleanOut(out) {
  if (!existsSync(out)) {
    mkdirSync(out, { recursive: true });
    return;
  }
  const entries = readdirSync(out).filter((e) => !KEEP.has(e));
  const ours = readdirSync(out).some((e) => e === MARKER || e === "__init__.py");
  if (entries.length && !ours) {
    throw new Error(`refusing to clean ${out}: not empty and not a client build (no ${MARKER})`);
  }
  for (const e of entries) rmSync(join(out, e), { recursive: true, force: true });
}

function python() {
  if (process.env.PYTHON) return process.env.PYTHON;
  const venv = join(repo, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}

function exportBoard(scenario) {
  const env = { ...process.env, PYTHONPATH: [join(repo, "src"), process.env.PYTHONPATH].filter(Boolean).join(":") };
  const text = execFileSync(python(), [join(here, "tools", "export_board.py"), scenario], { env, encoding: "utf8" });
  JSON.parse(text); // fail the build on anything but JSON
  return text.trim();
}

/** JSON inside <script type="application/json">: no "</script>" or "<!--" can appear. */
const scriptSafe = (json) => json.replace(/</g, "\\u003c");

async function buildClient(out, scenario) {
  cleanOut(out);
  const result = await esbuild.build({
    entryPoints: { app: join(here, "src", "app.ts"), demo: join(here, "src", "tactical", "demo.ts") },
    outdir: out,
    bundle: true,
    format: "esm",
    target: ["es2022"],
    minify: true,
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "none",
    logLevel: "warning",
    metafile: true,
  });
  cpSync(join(here, "static"), out, { recursive: true });
  const page = join(out, "board.html");
  const html = readFileSync(page, "utf8");
  const slot = "<!--BOARD-->";
  if (!html.includes(slot)) throw new Error(`static/board.html has no ${slot} slot`);
  const board = `<script id="board-data" type="application/json">${scriptSafe(exportBoard(scenario))}</script>`;
  writeFileSync(page, html.replace(slot, board));
  const pkg = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));
  const info = {
    format: "deltav-web-build/1",
    client: pkg.version,
    esbuild: esbuild.version,
    demo_scenario: scenario,
    outputs: Object.keys(result.metafile.outputs).map((p) => relative(out, resolve(p))).sort(),
  };
  writeFileSync(join(out, MARKER), JSON.stringify(info, null, 1) + "\n");
  console.log(`built the client into ${out}`);
}

async function buildTests() {
  const out = join(here, ".test-build");
  rmSync(out, { recursive: true, force: true });
  const tests = readdirSync(join(here, "test")).filter((f) => f.endsWith(".test.ts"));
  await esbuild.build({
    entryPoints: tests.map((f) => join(here, "test", f)),
    outdir: out,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: ["node20"],
    sourcemap: "inline",
    logLevel: "warning",
  });
}

if (args.includes("--tests")) {
  await buildTests();
} else {
  await buildClient(resolve(opt("--out", join(repo, "src", "deltav", "web_static"))), opt("--scenario", "biplanetary"));
}
