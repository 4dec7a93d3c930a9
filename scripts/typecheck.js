/**
 * `npm run typecheck`: the type check of the whole project, which also writes each file's declarations
 * under build/types/ (tsconfig.types.json), kept whole and current for `npm run build`, which rolls
 * dist/'s declarations up from them:
 * 1. `tsc -p tsconfig.types.json`, incremental: build/types/tsconfig.tsbuildinfo holds a hash of the
 *    text of every file of the program (node_modules' declarations too), so a file is checked again
 *    when its text changed, whatever its modification time; nothing is written on a type error.
 * 2. The declarations whose source is gone are deleted (tsc never deletes an output): a file moved
 *    from `lib/x.ts` to `lib/x/index.ts` would leave `x.d.ts`, which `./x` resolves to first.
 * 3. Every lib/ source must have its declaration: one deleted by hand is not written again by an
 *    incremental check that finds nothing changed, so then the build info goes and the check runs once
 *    more in full.
 * Exit status: tsc's, or 1 when build/types/ is still incomplete.
 */
const fs = require('node:fs');
const path = require('node:path');
const process = require('node:process');
const { spawnSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..');

/** `<root>/build/types`, where tsconfig.types.json writes. */
const typesOf = (root) => path.join(root, 'build', 'types');

/** The .ts files under `dir` (declarations excluded), recursively. */
function sources(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? sources(path.join(dir, e.name))
        : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')
          ? [path.join(dir, e.name)]
          : [],
    );
}

/** Deletes each declaration under `<root>/build/types` whose source is gone, and emptied folders; returns them. */
function pruneDeclarations(root) {
  const out = typesOf(root);
  const deleted = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(file);
        if (fs.readdirSync(file).length === 0) fs.rmdirSync(file);
      } else if (entry.name.endsWith('.d.ts')) {
        const source = path.join(root, path.relative(out, file)).replace(/\.d\.ts$/, '.ts');
        if (!fs.existsSync(source)) {
          fs.rmSync(file);
          deleted.push(path.relative(out, file));
        }
      }
    }
  };
  if (fs.existsSync(out)) walk(out);
  return deleted;
}

/** The lib/ sources of `root` whose declaration is not under build/types (relative to the root). */
function missingDeclarations(root) {
  return sources(path.join(root, 'lib'))
    .map((file) => path.relative(root, file))
    .filter((file) => !fs.existsSync(path.join(typesOf(root), file.replace(/\.ts$/, '.d.ts'))));
}

/** Runs the check, its output to `stdio` (`inherit`, or `pipe` to drop it); its exit status. */
function check(root, stdio) {
  const tsc = require.resolve('typescript/lib/tsc.js', { paths: [root] });
  return spawnSync(process.execPath, [tsc, '-p', 'tsconfig.types.json'], { cwd: root, stdio }).status ?? 1;
}

/** Steps 1-3 above in the project at `root`; the exit status. */
function typecheck(root, stdio = 'inherit') {
  let status = check(root, stdio);
  if (status !== 0) return status;
  pruneDeclarations(root);
  let missing = missingDeclarations(root);
  if (missing.length === 0) return 0;
  process.stderr.write(
    `typecheck: build/types/ lacks ${missing.length} declaration(s) (${missing[0]} first): checking again in full\n`,
  );
  fs.rmSync(path.join(typesOf(root), 'tsconfig.tsbuildinfo'), { force: true });
  status = check(root, stdio);
  if (status !== 0) return status;
  missing = missingDeclarations(root);
  if (missing.length === 0) return 0;
  process.stderr.write(`typecheck: still no declaration for ${missing.join(', ')}; delete build/ and run again\n`);
  return 1;
}

module.exports = { pruneDeclarations, missingDeclarations, typecheck };

if (require.main === module) process.exitCode = typecheck(ROOT);
