/** The README's example (samples/quick-start.ts): a policy, an input request, and what the model is sent. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { notAuthorizedText } from '../../lib/protocol/messages';
import { EmailTools, runToolCall } from '../../samples/quick-start';
import type { Caller } from '../../samples/quick-start';
import { codeBlocks } from '../docs/blocks';

const MANIFEST = path.join(__dirname, '..', '..', 'samples', 'tools.manifest.json');
const ALICE: Caller = { user: 'alice', scopes: ['email:send'] };
const ARGS = '{"to":"ada@example.com","body":"The meeting moved to 3 pm."}';

describe('the README example', () => {
  it('asks the person, then sends with their approval', async () => {
    const tools = new EmailTools();
    const prompts: string[] = [];
    const ask = async (prompt: string) => (prompts.push(prompt), '{"approve":true}');
    await expect(runToolCall(MANIFEST, tools, ARGS, ALICE, ask)).resolves.toBe('Sent to ada@example.com.');
    expect([prompts, tools.sent]).toEqual([['"Send this email to ada@example.com?"'], ['ada@example.com']]);
  });

  it('asks again when the answer is not JSON or not the form, then sends', async () => {
    // Regression (new-user review): an answer of `yes` ended the call as "tool failed".
    const tools = new EmailTools();
    const answers = ['yes', '{"approve":"yes"}', '{"approve":true}'];
    const ask = jest.fn(async () => answers.shift() as string);
    await expect(runToolCall(MANIFEST, tools, ARGS, ALICE, ask)).resolves.toBe('Sent to ada@example.com.');
    expect(ask).toHaveBeenCalledTimes(3);
  });

  it('sends nothing when the person declines', async () => {
    const tools = new EmailTools();
    const text = await runToolCall(MANIFEST, tools, ARGS, ALICE, async () => '{"approve":false}');
    expect([text, tools.sent]).toEqual(['Not sent: the person declined.', []]);
  });

  it('tells the model the tool is not authorized for a caller without the scope, and asks no one', async () => {
    const tools = new EmailTools();
    const ask = jest.fn(async () => '{"approve":true}');
    const text = await runToolCall(MANIFEST, tools, ARGS, { user: 'bob', scopes: [] }, ask);
    expect([text, ask.mock.calls.length, tools.sent]).toEqual([notAuthorizedText('send_email'), 0, []]);
  });

  it('refuses arguments the DTO forbids before the policy or the person is asked', async () => {
    const tools = new EmailTools();
    const ask = jest.fn(async () => '{"approve":true}');
    const text = await runToolCall(MANIFEST, tools, '{"to":"not an address","body":"x"}', ALICE, ask);
    expect(text).toContain('/to');
    expect([ask.mock.calls.length, tools.sent]).toEqual([0, []]);
  });

  it('is quoted in the README (spec/docs/code-blocks.spec.ts checks the quote is exact)', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    expect(codeBlocks('README.md', readme).blocks.map((b) => b.quotes)).toContain('samples/quick-start.ts');
  });
});
