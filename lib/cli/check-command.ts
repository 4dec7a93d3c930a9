import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compareManifests, generateManifest, toolDifferences, type ManifestTool } from '../schema';
import { EXIT, manifestPath, type CliIo, type ExitStatus } from './io';
import { extraTool, missingTool, outOfDate, staleTool } from './messages';
import { plural, printMessages } from './report';

/** Options of `scope-tool check`; paths are relative to `io.cwd`. */
export interface CheckCommandOptions {
  /** tsconfig.json of the project to read (default `tsconfig.json`). */
  readonly project: string;
  /** The manifest file to verify, relative to `io.cwd` (default: `tools.manifest.json` beside the tsconfig). */
  readonly manifest?: string;
}

/**
 * `scope-tool check`: generates the manifest in memory and compares it with the file, tool by tool.
 * Prints one line per missing, extra or stale tool (a stale one names the JSON Pointers that differ
 * and both values, lib/cli/messages.ts staleTool), or one OK line.
 * @returns 0 when the file matches the sources; 1 when it is absent, unreadable, stale, or when
 * generation itself fails
 * @throws ToolError ERR_INVALID_TOOL when the project cannot be loaded (the caller maps it to 1)
 */
export function checkCommand(options: CheckCommandOptions, io: CliIo): ExitStatus {
  const file = manifestPath(io.cwd, path.resolve(io.cwd, options.project), options.manifest);
  const rel = path.relative(io.cwd, file) || file;
  let current: unknown;
  try {
    current = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const why = (err as { code?: unknown }).code === 'ENOENT' ? 'does not exist' : 'is not valid JSON';
    io.stderr(`scope-tool check: ${rel} ${why}; run scope-tool generate\n`);
    return EXIT.FAILED;
  }
  const result = generateManifest({ tsconfig: path.resolve(io.cwd, options.project) });
  if (result.errors.length > 0) {
    printMessages(io, 'error', result.errors);
    io.stderr(
      `scope-tool check: the sources do not generate (${plural(result.errors.length, 'error')}); fix them, then run scope-tool generate\n`,
    );
    return EXIT.FAILED;
  }
  const drift = compareManifests(result.manifest, current);
  const generated = new Map(result.manifest.tools.map((t) => [t.name, t]));
  const origin = (name: string) => {
    const t = generated.get(name);
    return t === undefined ? name : `${t.source.class}.${t.source.method}`;
  };
  // compareManifests calls a tool stale only when the file lists an entry of that name.
  const listed = current !== null && typeof current === 'object' ? (current as { tools?: unknown }).tools : undefined;
  const inFile = new Map<unknown, unknown>(
    (Array.isArray(listed) ? listed : []).map((t: unknown) => [(t as { name?: unknown } | null)?.name, t]),
  );
  const lines = [
    ...drift.stale.map((n) =>
      staleTool(n, origin(n), toolDifferences(generated.get(n) as ManifestTool, inFile.get(n)), rel),
    ),
    ...drift.missing.map((n) => missingTool(n, origin(n), rel)),
    ...drift.extra.map((n) => extraTool(n, rel)),
  ];
  const versionOk = current !== null && typeof current === 'object' && (current as { version?: unknown }).version === 1;
  if (!versionOk) lines.unshift(`stale: ${rel} is not a version 1 manifest`);
  if (lines.length > 0) {
    for (const line of lines) io.stderr(`${line}\n`);
    io.stderr(`${outOfDate(rel)}\n`);
    return EXIT.FAILED;
  }
  io.stdout(`scope-tool check: OK, ${rel} matches the sources (${plural(result.manifest.tools.length, 'tool')})\n`);
  return EXIT.OK;
}
