/**
 * The README's example (samples/quick-start.ts): a policy, an input request, and what the model is sent;
 * and the lines of docs/install.md that run it on a terminal (samples/quick-start-run.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import type { ProviderToolCall } from '../../lib';
import { notAuthorizedText } from '../../lib/protocol/messages';
import { describeUnknownTool } from '../../lib/providers/prepare';
import { EmailTools, runToolCall } from '../../samples/quick-start';
import { runInTerminal } from '../../samples/quick-start-run';
import type { Caller } from '../../samples/quick-start';
import { codeBlocks } from '../docs/blocks';

const MANIFEST = path.join(__dirname, '..', '..', 'samples', 'tools.manifest.json');
const ALICE: Caller = { user: 'alice', scopes: ['email:send'] };
const ARGS = '{"to":"ada@example.com","body":"The meeting moved to 3 pm."}';
/** A call the model proposed: `send_email` unless named otherwise. */
const proposed = (args: string, name = 'send_email'): ProviderToolCall => ({
  id: 'call_1',
  request: { name, arguments: args },
});
const CALL = proposed(ARGS);

describe('the README example', () => {
  it('asks the person, then sends with their approval', async () => {
    const tools = new EmailTools();
    const prompts: string[] = [];
    const ask = async (prompt: string) => (prompts.push(prompt), '{"approve":true}');
    await expect(runToolCall(MANIFEST, tools, CALL, ALICE, ask)).resolves.toBe('Sent to ada@example.com.');
    // Regression (issue 15, second trial, item 11): the person was shown the prompt's JSON text, in quotes.
    expect([prompts, tools.sent]).toEqual([['Send this email to ada@example.com?'], ['ada@example.com']]);
  });

  // Regressions: an answer of `yes` ended the call as "tool failed" (new-user review); the person was
  // asked again without being told why (issue 15, item 14); the form was open, so
  // {"approve":true,"extra":"x"} was accepted (issue 15, item 4).
  it.each([
    ['is not JSON or not the form', ['yes', '{"approve":"yes"}'], ['JSON', '/approve']],
    [
      'has a member the form does not have (closed schema)',
      ['{"approve":true,"extra":"x"}', '{"approve":true,"__proto__":{"x":1}}'],
      ['"extra"', '"__proto__"'],
    ],
  ])('asks again when the answer %s, saying why, then sends', async (_case, refusedAnswers, reasons) => {
    const tools = new EmailTools();
    const answers = [...refusedAnswers, '{"approve":true}'];
    const ask = jest.fn(async (_prompt: string, _refused?: string) => answers.shift() as string);
    await expect(runToolCall(MANIFEST, tools, CALL, ALICE, ask)).resolves.toBe('Sent to ada@example.com.');
    const refused = ask.mock.calls.map(([, why]) => why);
    expect(refused).toEqual([undefined, ...reasons.map((r) => expect.stringContaining(r))]);
  });

  it('tells the model a tool it named does not exist and lists the one it may call', async () => {
    // Regression (issue 15, item 2): resolve(name)! threw a TypeError, so the model saw `tool "reed_file" failed`.
    const tools = new EmailTools();
    const ask = jest.fn(async () => '{"approve":true}');
    const text = await runToolCall(MANIFEST, tools, proposed(ARGS, 'reed_file'), ALICE, ask);
    const unknown = { tool: 'reed_file', availableTools: ['send_email'], omittedTools: 0 };
    expect(text).toBe(`error: ${describeUnknownTool(unknown)}`);
    expect([ask.mock.calls.length, tools.sent]).toEqual([0, []]);
  });

  it('tells the model when the arguments are not JSON, and runs nothing', async () => {
    const tools = new EmailTools();
    const ask = jest.fn(async () => '{"approve":true}');
    const text = await runToolCall(MANIFEST, tools, proposed('{"to":'), ALICE, ask);
    expect(text).toMatch(/^error: .*"send_email".*\/to: .*\(offset 6\)/);
    expect([ask.mock.calls.length, tools.sent]).toEqual([0, []]);
  });

  it('sends nothing when the person declines', async () => {
    const tools = new EmailTools();
    const text = await runToolCall(MANIFEST, tools, CALL, ALICE, async () => '{"approve":false}');
    expect([text, tools.sent]).toEqual(['Not sent: the person declined.', []]);
  });

  it('tells the model the tool is not authorized for a caller without the scope, and asks no one', async () => {
    const tools = new EmailTools();
    const ask = jest.fn(async () => '{"approve":true}');
    const text = await runToolCall(MANIFEST, tools, CALL, { user: 'bob', scopes: [] }, ask);
    expect([text, ask.mock.calls.length, tools.sent]).toEqual([notAuthorizedText('send_email'), 0, []]);
  });

  it('refuses arguments the DTO forbids before the policy or the person is asked', async () => {
    const tools = new EmailTools();
    const ask = jest.fn(async () => '{"approve":true}');
    const text = await runToolCall(MANIFEST, tools, proposed('{"to":"not an address","body":"x"}'), ALICE, ask);
    expect(text).toContain('/to');
    expect([ask.mock.calls.length, tools.sent]).toEqual([0, []]);
  });

  it('is quoted in the README (spec/docs/code-blocks.spec.ts checks the quote is exact)', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    expect(codeBlocks('README.md', readme).blocks.map((b) => b.quotes)).toContain('samples/quick-start.ts');
  });
});

describe('the lines of docs/install.md that run the example (samples/quick-start-run.ts)', () => {
  it('asks on the terminal, says why an answer was refused, and prints what the model is sent', async () => {
    // Regression (issue 15, second trial, item 1): no code a new user could run called runToolCall.
    const input = new PassThrough();
    const output = new PassThrough();
    const answers = ['yes', '{"approve":true}'];
    let shown = '';
    output.on('data', (chunk: Buffer) => {
      shown += chunk.toString();
      if (shown.endsWith('{"approve":false}: ')) input.write(`${answers.shift()}\n`);
    });
    // A relative manifest path is read from the working directory (docs/install.md, docs/decorators.md).
    const relative = path.relative(process.cwd(), MANIFEST);
    await expect(runInTerminal(relative, input, output)).resolves.toBe('Sent to ada@example.com.');
    expect(answers).toEqual([]);
    await new Promise(setImmediate); // the last line's 'data' event
    const asked = 'Send this email to ada@example\\.com\\? Answer [^\\n]*: ';
    const lines = `^${asked}Not accepted: [^\\n]*JSON[^\\n]*\\n${asked}The model is sent: Sent to ada@example\\.com\\.\\n$`;
    expect(shown).toMatch(new RegExp(lines));
  });
});
