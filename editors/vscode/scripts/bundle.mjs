// Bundles src/extension.ts and its dependencies (vscode-languageclient and what it uses) into
// out/extension.js, so the .vsix carries no node_modules; `vscode` is the editor's own at run time.
// The licences of the bundled packages go to out/THIRD_PARTY_NOTICES.txt.
import { build } from "esbuild";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

rmSync("out", { recursive: true, force: true }); // nothing stale reaches the .vsix
const result = await build({
  entryPoints: ["src/extension.ts"],
  outfile: "out/extension.js",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node18", // VS Code 1.82's extension host
  external: ["vscode"],
  minify: true,
  sourcemap: false,
  metafile: true,
  logLevel: "warning",
});

// node_modules/<name>/… or node_modules/@scope/<name>/…, after the last node_modules in the path.
const packages = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const at = input.lastIndexOf("node_modules/");
  if (at === -1) continue;
  const rest = input.slice(at + "node_modules/".length).split("/");
  const name = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  packages.add(input.slice(0, at) + "node_modules/" + name);
}
const notices = [...packages].sort().map((dir) => {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const licence = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
  if (licence === undefined) throw new Error(`${pkg.name}: no licence file in ${dir}`);
  return `${pkg.name} ${pkg.version} (${pkg.license})\n\n${readFileSync(join(dir, licence), "utf8").trim()}\n`;
});
if (notices.length === 0 || !existsSync("out/extension.js")) throw new Error("bundle: nothing was bundled");
writeFileSync(
  "out/THIRD_PARTY_NOTICES.txt",
  `out/extension.js bundles these packages:\n\n${notices.join(`\n${"-".repeat(72)}\n\n`)}`,
);
