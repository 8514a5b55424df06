// The client's layout check (docs/web.md, "The toolkit and the file names"): run by tests/web/test_node.py.
//
//   node tools/check_layout.mjs [--src DIR]     (default: web/src beside this script)
//
// Fails (exit 1, one line per finding) when
//   - the modules import each other in a circle (every `import`, type-only imports included: a circle of types
//     is a circle of meaning, and esbuild orders modules by them);
//   - a game folder (one `games.ts` imports a screen class from) misses a kind of file or names one another way:
//     every game has screen.ts, board.ts, model.ts, styles.ts and help.ts; a palette is palette.ts, record sheets
//     sheets.ts, a first-game guide guide.ts, small widgets widgets.ts;
//   - a stylesheet is injected (`createElement("style")`) outside a game's styles.ts;
//   - a module defines its own element builder `el` (the one is shell/dom.ts's).
// Owns these checks only; it reads the sources as text (imports by regular expression), it compiles nothing.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The kinds every game folder has, by file name. */
export const REQUIRED = {
  "screen.ts": "the game screen (GameScreen)",
  "board.ts": "the board drawing (canvas, camera, hit-testing)",
  "model.ts": "the pure model (the view's types, the legal list read for the screen; no DOM)",
  "styles.ts": "the stylesheet (CSS injected once)",
  "help.ts": "the help overlay's section",
};

/** Other names a kind has had (or could be given): a game file so named is misnamed. */
export const MISNAMED = {
  "style.ts": "styles.ts (a stylesheet) or palette.ts (colours)",
  "css.ts": "styles.ts",
  "screenStyle.ts": "styles.ts",
  "stylesheet.ts": "styles.ts",
  "colours.ts": "palette.ts",
  "colors.ts": "palette.ts",
  "map.ts": "board.ts",
  "plane.ts": "board.ts",
  "boardCanvas.ts": "board.ts",
  "canvas.ts": "board.ts",
  "view.ts": "board.ts (drawing) or model.ts (the view's types)",
  "legal.ts": "model.ts",
  "logic.ts": "model.ts",
  "dom.ts": "widgets.ts (the element builder is shell/dom.ts's el)",
  "sheet.ts": "sheets.ts",
  "rules.ts": "help.ts",
};

function tsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith(".ts")) out.push(p);
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"|(?:^|\n)\s*import\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g;

/** The relative imports of every module: module path (relative to src) -> the modules it imports. */
export function importGraph(src) {
  const graph = new Map();
  for (const file of tsFiles(src)) {
    const text = readFileSync(file, "utf8");
    const deps = new Set();
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec || !spec.startsWith(".")) continue;
      const base = normalize(join(dirname(file), spec));
      const target = [`${base}.ts`, join(base, "index.ts"), base].find((p) => existsSync(p) && statSync(p).isFile());
      if (target) deps.add(relative(src, target));
    }
    graph.set(relative(src, file), [...deps].sort());
  }
  return graph;
}

/** Every import circle, each as the modules along it (first = last), found by depth-first search. */
export function circles(graph) {
  const found = [];
  const state = new Map(); // 1 = on the path, 2 = done
  const path = [];
  const visit = (n) => {
    state.set(n, 1);
    path.push(n);
    for (const d of graph.get(n) ?? []) {
      if (state.get(d) === 1) found.push([...path.slice(path.indexOf(d)), d]);
      else if (!state.has(d)) visit(d);
    }
    path.pop();
    state.set(n, 2);
  };
  for (const n of [...graph.keys()].sort()) if (!state.has(n)) visit(n);
  return found;
}

/** The game folders: those `games.ts` imports a screen from. */
export function gameFolders(src) {
  const games = join(src, "games.ts");
  if (!existsSync(games)) return [];
  const text = readFileSync(games, "utf8");
  return [...text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+"\.\/([^/"]+)\/screen"/gm)].map((m) => m[1]).sort();
}

/** All findings for the sources under `src`, as sentences. */
export function check(src) {
  const problems = [];
  const graph = importGraph(src);
  for (const c of circles(graph)) problems.push(`import circle: ${c.join(" -> ")}`);
  for (const game of gameFolders(src)) {
    const dir = join(src, game);
    const names = existsSync(dir) ? readdirSync(dir) : [];
    for (const [file, kind] of Object.entries(REQUIRED)) {
      if (!names.includes(file)) problems.push(`${game}/: no ${file} (${kind})`);
    }
    for (const name of names) {
      if (name in MISNAMED) problems.push(`${game}/${name}: name it ${MISNAMED[name]}`);
    }
  }
  for (const [file] of graph) {
    const text = readFileSync(join(src, file), "utf8");
    const inGame = gameFolders(src).includes(file.split("/")[0] ?? "");
    if (/createElement\(\s*"style"\s*\)/.test(text) && !(inGame && file.endsWith("/styles.ts"))) {
      problems.push(`${file}: injects a stylesheet; a game's stylesheet is its styles.ts`);
    }
    if (file !== join("shell", "dom.ts") && /function\s+el\s*[<(]|(?:const|let|var)\s+el\s*=\s*(?:<|\(|function\b)/.test(text)) {
      problems.push(`${file}: defines its own el; build elements with shell/dom.ts's el`);
    }
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const i = process.argv.indexOf("--src");
  const src = i > 0 ? process.argv[i + 1] : join(dirname(fileURLToPath(import.meta.url)), "..", "src");
  const problems = check(src);
  for (const p of problems) console.log(p);
  if (problems.length) process.exit(1);
  console.log(`layout ok: ${importGraph(src).size} modules, no import circle, game folders ${gameFolders(src).join(", ")}`);
}
