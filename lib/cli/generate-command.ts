import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateManifest, serializeManifest } from '../schema';
import { EXIT, manifestPath, type CliIo, type ExitStatus } from './io';
import { plural, printMessages } from './report';

/** Options of `scope-tool generate`; paths are relative to `io.cwd`. */
export interface GenerateCommandOptions {
  /** tsconfig.json of the project to read (default `tsconfig.json`). */
  readonly project: string;
  /** Where to write the manifest, relative to `io.cwd` (default: `tools.manifest.json` beside the tsconfig). */
  readonly out?: string;
  /** Treat warnings (decoder-only checks) as failures. */
  readonly strict: boolean;
}

/**
 * `scope-tool generate`: reads the project, prints per tool what it warned about and why
 * (decoder-only checks; errors with `--strict`) and every error, and writes the manifest (notes/CONTRACTS.md format) unless generation failed.
 * @returns 0 when written; 1 on generation errors, or on warnings with `--strict` (nothing written)
 * @throws ToolError ERR_INVALID_TOOL when the project cannot be loaded (the caller maps it to 1)
 */
export function generateCommand(options: GenerateCommandOptions, io: CliIo): ExitStatus {
  const project = path.resolve(io.cwd, options.project);
  const out = manifestPath(io.cwd, project, options.out);
  const result = generateManifest({ tsconfig: project });
  // --strict: every warning is an error (printed as one, on stderr, counted with the tool's errors), for CI.
  if (options.strict) {
    printMessages(io, 'error', [...result.warnings, ...result.errors]);
  } else {
    printMessages(io, 'warning', result.warnings);
    printMessages(io, 'error', result.errors);
  }
  if (result.errors.length > 0) {
    // With --strict the warnings were printed as errors too: the count says so.
    const warned = options.strict ? result.warnings.length : 0;
    const count =
      plural(result.errors.length + warned, 'error') +
      (warned > 0 ? ` (${plural(warned, 'warning')} with --strict)` : '');
    io.stderr(`scope-tool generate: ${count}; fix them and run scope-tool generate again (nothing written)\n`);
    return EXIT.FAILED;
  }
  if (options.strict && result.warnings.length > 0) {
    io.stderr(
      `scope-tool generate: ${plural(result.warnings.length, 'warning')} with --strict; express those checks in the ` +
        'type or drop --strict (nothing written)\n',
    );
    return EXIT.FAILED;
  }
  writeFileSync(out, serializeManifest(result.manifest), 'utf8');
  const rel = path.relative(io.cwd, out) || out;
  io.stdout(
    `scope-tool generate: wrote ${rel} (${plural(result.manifest.tools.length, 'tool')}, ${plural(result.warnings.length, 'warning')})\n`,
  );
  return EXIT.OK;
}
