/**
 * Every TypeScript block of README.md and docs/ is compiled, in one program, and the complete ones
 * are run (spec/docs/blocks.ts says the three kinds). A problem is reported at its document line.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, blockModule, checkBlocks, codeBlocks, documents } from './blocks';
import type { CodeBlock } from './blocks';

const read = (doc: string): string => fs.readFileSync(path.join(ROOT, doc), 'utf8');
const all = documents().map((doc) => codeBlocks(doc, read(doc)));
const blocks = all.flatMap((d) => d.blocks);

describe('the code blocks of README.md and docs/', () => {
  it('are all ```ts (a module or a quote) or ```ts fragment', () => {
    expect(all.flatMap((d) => d.bad)).toEqual([]);
    expect(blocks.filter((b) => b.doc === 'README.md').length).toBeGreaterThanOrEqual(2);
  });

  it('quote their files exactly', () => {
    const quotes = blocks.filter((b) => b.kind === 'quote');
    expect(quotes.length).toBeGreaterThanOrEqual(5);
    expect(quotes.filter((b) => b.doc === 'docs/nestjs.md').map((b) => b.quotes)).toEqual(
      ['assistant.module.ts', 'app.module.ts', 'known-caller.policy.ts', 'caller-directory.ts', 'run.ts'].map(
        (f) => `samples/nest/${f}`,
      ),
    );
    const differ = quotes.filter((b) => read(b.quotes as string) !== b.code);
    expect(differ.map((b) => `${b.doc}:${b.line}: differs from ${b.quotes}`)).toEqual([]);
  });

  // One program for all blocks, with one probe that must fail: a fragment assigning the registry to
  // a number, reported at its own line (the probe shows the checker sees fragments and their context).
  it('typecheck together against the package', () => {
    const probe = codeBlocks(
      'probe.md',
      ['```ts fragment', "import 'scope-tool';", '', 'const n: number = registry;', '```'].join('\n'),
    );
    const { problems } = checkBlocks([...blocks, ...probe.blocks]);
    expect(problems.map((p) => `${p.doc}:${p.line}: ${p.message}`)).toEqual([
      "probe.md:4: TS2322 Type 'Registry' is not assignable to type 'number'.",
    ]);
  });

  const runnable = blocks.filter((b) => b.kind !== 'fragment');
  it.each(runnable.map((b) => [`${b.doc}:${b.line}`, b] as [string, CodeBlock]))('%s runs', async (_at, block) => {
    const { file, text } = blockModule(block);
    if (block.kind === 'module') {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    }
    let loaded: { main?: () => unknown } = {};
    jest.isolateModules(() => {
      loaded = require(file) as typeof loaded;
    });
    if (typeof loaded.main === 'function') await loaded.main();
  });
});

describe('README.md', () => {
  // Issue 15: what it is, install, a quick start, one example, the loop, links; the rest is in docs/.
  it('stays under 200 lines', () => {
    expect(read('README.md').trimEnd().split('\n').length).toBeLessThan(200);
  });
});

describe('the block reader', () => {
  const doc = [
    'text',
    '```ts',
    '// samples/readme-example.ts',
    'const a = 1;',
    '```',
    '```ts fragment',
    "import { x } from 'y';",
    '',
    'x(registry);',
    '```',
    '```typescript',
    'no',
    '```',
    '```sh',
    'npm test',
    '```',
    '```ts',
    'export const b = 2;',
    '```',
  ].join('\n');

  it('tells quotes, fragments and modules apart, at their document lines', () => {
    const { blocks: read, bad } = codeBlocks('d.md', doc);
    expect(read.map((b) => [b.kind, b.line, b.quotes])).toEqual([
      ['quote', 3, 'samples/readme-example.ts'],
      ['fragment', 7, undefined],
      ['module', 18, undefined],
    ]);
    expect(read[0]?.code).toBe('const a = 1;\n');
    expect(bad).toEqual([{ doc: 'd.md', line: 11, info: 'typescript' }]);
  });

  it("keeps a fragment's imports on top and its lines where they were", () => {
    const fragment = codeBlocks('d.md', doc).blocks[1] as CodeBlock;
    const m = blockModule(fragment);
    const lines = m.text.split('\n');
    expect(lines[0]).toBe("import { x } from 'y';");
    expect(lines.indexOf('x(registry);') - m.offset).toBe(2);
  });
});
