/**
 * `npm run typecheck`'s second step: deletes each declaration under build/types/ whose source file is
 * gone (`build/types/lib/a/b.d.ts` without `lib/a/b.ts`), and the folders that leaves empty. `tsc -b`
 * writes a declaration beside each source but never deletes one, and `npm run build` rolls dist/'s
 * declarations up from these files: a file moved from `lib/x.ts` to `lib/x/index.ts` would otherwise
 * leave `x.d.ts` behind, which `./x` resolves to before `x/index.d.ts`.
 * Usage: node scripts/prune-declarations.js [root] (default: the repository).
 */
const fs = require('node:fs');
const path = require('node:path');
const process = require('node:process');

/** Prunes `<root>/build/types`; returns the deleted files, relative to it. */
function pruneDeclarations(root) {
  const out = path.join(root, 'build', 'types');
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

module.exports = { pruneDeclarations };

if (require.main === module) pruneDeclarations(path.resolve(process.argv[2] ?? path.join(__dirname, '..')));
