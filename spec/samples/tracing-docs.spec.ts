import * as fs from 'node:fs';
import * as path from 'node:path';
import { context, propagation, trace } from '@opentelemetry/api';
import { tracedTurn } from '../../samples/tracing/traced-runtime';
import { codeBlocks } from '../docs/blocks';

const ROOT = path.join(__dirname, '..', '..');

describe('docs/tracing.md', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'tracing.md'), 'utf8');
  afterEach(() => {
    trace.disable();
    propagation.disable();
    context.disable();
  });

  it('quotes samples/tracing/traced-runtime.ts (spec/docs/code-blocks.spec.ts checks the quote)', () => {
    expect(codeBlocks('docs/tracing.md', doc).blocks.map((b) => b.quotes)).toEqual([
      'samples/tracing/traced-runtime.ts',
    ]);
  });

  it('the sample traces one call with the documented attributes', async () => {
    const [span, ...rest] = await tracedTurn();
    expect(rest).toEqual([]);
    expect(span.name).toBe('execute_tool echo');
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.call.arguments': '{"text":"hi"}',
      'gen_ai.tool.call.result': 'hi',
      'scope_tool.outcome': 'completed',
    });
  });
});
