import type { GeneratorMessage } from '../schema';
import type { CliIo } from './io';

/**
 * Prints generator messages grouped per tool, so each tool says what it warned about and why:
 *
 * ```
 * create_note: 1 warning
 *   warning: notes.tools.ts:7: CreateNoteInput.title: @IsAlpha is checked by the decoder only (why)
 * ```
 *
 * Messages that concern no tool (syntax errors, discovery) come first, one line each:
 * `error: file.ts:3: <message>`. Warnings go to stdout, errors to stderr.
 * @internal
 */
export function printMessages(io: CliIo, kind: 'error' | 'warning', messages: readonly GeneratorMessage[]): void {
  const write = kind === 'error' ? io.stderr : io.stdout;
  const byTool = new Map<string, GeneratorMessage[]>();
  for (const m of messages) {
    if (m.tool === undefined) {
      write(`${kind}: ${where(m)}${m.message}\n`);
      continue;
    }
    const list = byTool.get(m.tool) ?? [];
    list.push(m);
    byTool.set(m.tool, list);
  }
  for (const [tool, list] of byTool) {
    write(`${tool}: ${plural(list.length, kind)}\n`);
    for (const m of list) write(`  ${kind}: ${where(m)}${m.message}\n`);
  }
}

function where(m: GeneratorMessage): string {
  return m.file === undefined ? '' : `${m.file}${m.line === undefined ? '' : `:${m.line}`}: `;
}

/** `1 tool` / `2 tools`. @internal */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
