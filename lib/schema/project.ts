import path from 'node:path';
import ts from 'typescript';
import { ToolError } from '../protocol/errors';

/**
 * Which TypeScript project to read: a tsconfig.json path, or a list of files (compiled with the
 * repository's usual options: strict, legacy decorators). `root` is the directory manifest paths
 * are relative to (default: the tsconfig's directory, else the current directory).
 */
export type ProjectOptions =
  | { readonly tsconfig: string; readonly files?: undefined; readonly root?: string }
  | {
      readonly files: readonly string[];
      readonly tsconfig?: undefined;
      readonly root?: string;
      readonly compilerOptions?: ts.CompilerOptions;
    };

/** A loaded project: one ts.Program and the root directory. @internal */
export interface LoadedProject {
  readonly program: ts.Program;
  readonly root: string;
  /** The tsconfig read (absolute), or undefined for a list of files. */
  readonly tsconfig?: string;
}

const FILE_DEFAULTS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  skipLibCheck: true,
  noEmit: true,
};

/**
 * Creates the one ts.Program of a generator run.
 * @throws ToolError ERR_INVALID_TOOL when the tsconfig cannot be read or parsed, or lists no files
 * @internal
 */
export function loadProject(options: ProjectOptions): LoadedProject {
  if (options.tsconfig !== undefined) {
    const configPath = path.resolve(options.tsconfig);
    const read = ts.readConfigFile(configPath, ts.sys.readFile);
    if (read.error !== undefined) {
      throw new ToolError(
        'ERR_INVALID_TOOL',
        `scope-tool generate: cannot read ${configPath}: ${ts.flattenDiagnosticMessageText(read.error.messageText, ' ')}; pass --project <tsconfig.json>`,
      );
    }
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configPath), undefined, configPath);
    const fatal = parsed.errors.filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (fatal.length > 0 || parsed.fileNames.length === 0) {
      const why =
        fatal.length > 0
          ? ts.flattenDiagnosticMessageText(fatal[0]?.messageText ?? '', ' ')
          : 'it lists no input files';
      throw new ToolError('ERR_INVALID_TOOL', `scope-tool generate: ${configPath}: ${why}; fix "include" or "files"`);
    }
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
    return { program, root: path.resolve(options.root ?? path.dirname(configPath)), tsconfig: configPath };
  }
  const files = options.files.map((f) => path.resolve(f));
  const program = ts.createProgram({ rootNames: files, options: { ...FILE_DEFAULTS, ...options.compilerOptions } });
  return { program, root: path.resolve(options.root ?? process.cwd()) };
}

/**
 * `file:line` of a node, relative to `root` with POSIX separators.
 * @internal
 */
export function locate(node: ts.Node, root: string): { file: string; line: number } {
  const file = node.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
  return { file: relativePath(file.fileName, root), line: line + 1 };
}

/** `file` relative to `root`, with POSIX separators. @internal */
export function relativePath(file: string, root: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}
