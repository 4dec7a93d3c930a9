import type { GeneratorMessage } from '../schema';
import type { CliIo } from './io';

/**
 * Prints generator messages, one line each: `warning: create_note: notes.tools.ts:15: <message>`.
 * @internal
 */
export function printMessages(io: CliIo, kind: 'error' | 'warning', messages: readonly GeneratorMessage[]): void {
  for (const m of messages) {
    const tool = m.tool === undefined ? '' : `${m.tool}: `;
    const where = m.file === undefined ? '' : `${m.file}${m.line === undefined ? '' : `:${m.line}`}: `;
    const line = `${kind}: ${tool}${where}${m.message}\n`;
    if (kind === 'error') io.stderr(line);
    else io.stdout(line);
  }
}

/** `1 tool` / `2 tools`. @internal */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
