/** docs/nestjs.md quotes the NestJS sample's files exactly. */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const notes = fs.readFileSync(path.join(ROOT, 'docs', 'nestjs.md'), 'utf8');
const quoted = [...notes.matchAll(/```ts\n\/\/ (samples\/nest\/[\w.-]+)\n([\s\S]*?)\n```/g)].map((m) => ({
  file: m[1],
  code: m[2],
}));

describe('docs/nestjs.md', () => {
  it('quotes the sample files', () => {
    expect(quoted.map((q) => q.file).sort()).toEqual(
      ['app.module.ts', 'assistant.module.ts', 'caller-directory.ts', 'known-caller.policy.ts', 'run.ts'].map(
        (f) => `samples/nest/${f}`,
      ),
    );
  });

  it.each(quoted.map((q) => [q.file, q.code]))('quotes %s exactly as it is', (file, code) => {
    expect(code).toBe(fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/\n+$/, ''));
  });
});
