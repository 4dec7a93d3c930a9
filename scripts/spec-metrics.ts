/**
 * Two measurements of the test suite (issue 12), printed per spec folder and in total:
 *
 *   npx tsx scripts/spec-metrics.ts [--list] [spec folders...]
 *
 * 1. Prose pins: the share of `expect(...)` assertions whose matcher arguments hold a string literal,
 *    template literal or regular expression of 40 or more characters, i.e. assertions that pin a
 *    sentence instead of a code, field or verdict.
 * 2. Mirrored specs: how many files of lib/ (not `.d.ts`) have a spec at spec/<same path>.spec.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..');
const LONG = 40;
/** `--list`: also print file:line of every pinned assertion. */
const LIST = process.argv.includes('--list');

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.name.endsWith('.ts')) out.push(full);
  }
  return out;
}

/** The `expect(...)` call at the root of a matcher chain such as `expect(x).not.toBe(y)`, if any. */
function expectRoot(node: ts.Expression): ts.CallExpression | undefined {
  let current: ts.Expression = node;
  for (;;) {
    if (ts.isCallExpression(current)) {
      if (ts.isIdentifier(current.expression) && current.expression.text === 'expect') return current;
      current = current.expression;
    } else if (ts.isPropertyAccessExpression(current)) current = current.expression;
    else if (ts.isAwaitExpression(current) || ts.isParenthesizedExpression(current)) current = current.expression;
    else return undefined;
  }
}

function longLiteral(node: ts.Node): boolean {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text.length >= LONG;
  if (ts.isTemplateExpression(node)) {
    const text = node.head.text + node.templateSpans.map((span) => span.literal.text).join('');
    return text.length >= LONG;
  }
  if (ts.isRegularExpressionLiteral(node)) return node.text.length - 2 >= LONG;
  return ts.forEachChild(node, (child) => (longLiteral(child) ? true : undefined)) ?? false;
}

interface Count {
  assertions: number;
  pinned: number;
}

function countFile(file: string): Count {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const count: Count = { assertions: 0, pinned: 0 };
  const visit = (node: ts.Node): void => {
    // An assertion is a matcher call whose chain starts at expect(...): count the outermost call only.
    if (ts.isCallExpression(node) && !ts.isIdentifier(node.expression)) {
      const root = expectRoot(node.expression);
      if (root !== undefined) {
        count.assertions += 1;
        if (node.arguments.some(longLiteral)) {
          count.pinned += 1;
          if (LIST) {
            const { line } = source.getLineAndCharacterOfPosition(node.getStart());
            console.log(`${path.relative(ROOT, file)}:${line + 1}`);
          }
        }
        root.arguments.forEach(visit);
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

const folders = process.argv.slice(2).filter((a) => a !== '--list');
const specRoot = path.join(ROOT, 'spec');
const chosen =
  folders.length > 0
    ? folders
    : fs.readdirSync(specRoot).filter((d) => fs.statSync(path.join(specRoot, d)).isDirectory());
const total: Count = { assertions: 0, pinned: 0 };
for (const folder of chosen) {
  const files = walk(path.join(specRoot, folder)).filter((f) => f.endsWith('.spec.ts'));
  const sum: Count = { assertions: 0, pinned: 0 };
  for (const file of files) {
    const c = countFile(file);
    sum.assertions += c.assertions;
    sum.pinned += c.pinned;
  }
  total.assertions += sum.assertions;
  total.pinned += sum.pinned;
  const share = sum.assertions === 0 ? 0 : (100 * sum.pinned) / sum.assertions;
  console.log(
    `${folder.padEnd(14)} ${String(sum.pinned).padStart(5)} / ${String(sum.assertions).padStart(5)} pinned (${share.toFixed(1)}%)`,
  );
}
console.log(
  `${'total'.padEnd(14)} ${String(total.pinned).padStart(5)} / ${String(total.assertions).padStart(5)} pinned (${((100 * total.pinned) / Math.max(1, total.assertions)).toFixed(1)}%)`,
);

const libFiles = walk(path.join(ROOT, 'lib')).filter((f) => !f.endsWith('.d.ts'));
const mirrored = libFiles.filter((f) =>
  fs.existsSync(path.join(specRoot, path.relative(path.join(ROOT, 'lib'), f).replace(/\.ts$/, '.spec.ts'))),
);
const nonIndex = libFiles.filter((f) => path.basename(f) !== 'index.ts');
const mirroredNonIndex = mirrored.filter((f) => path.basename(f) !== 'index.ts');
console.log(
  `mirrored specs: ${mirrored.length} of ${libFiles.length} lib files (${mirroredNonIndex.length} of ${nonIndex.length} without index.ts)`,
);
