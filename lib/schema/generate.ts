import { createHash } from 'node:crypto';
import ts from 'typescript';
import { buildGenerator, type JsonSchemaGenerator } from 'typescript-json-schema';
import { discoverTools, type FoundTool } from './discover';
import { deriveInputSchema, EMPTY_INPUT_SCHEMA } from './input-schema';
import type { JsonObject } from '../protocol';
import { codeUnitOrder, type Manifest, type ManifestTool, type SchemaObject } from './manifest';
import { SCHEMA_MESSAGES as M, type SchemaIssue, type SchemaIssueCode } from './messages';
import { loadProject, locate, relativePath, type ProjectOptions } from './project';
import { reachFrom, type Reach } from './reach';

/**
 * One message of a generator run. `tool` names the tool it concerns (when one does), `file`/`line`
 * the source position (relative to the project root) when known. `code` names the case
 * (lib/schema/messages.ts), `where` the member (`CreateNoteInput.title`), class or method
 * (`NotesTools.createNote`), `decorator` the decorator it is about; `message` says it for people,
 * with the fix for errors.
 */
export interface GeneratorMessage {
  readonly tool?: string;
  readonly code: SchemaIssueCode;
  readonly where: string;
  readonly decorator?: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
}

/** The outcome of `generateManifest`: the manifest (tools that derived cleanly), warnings, errors. */
export interface GenerationResult {
  readonly manifest: Manifest;
  readonly warnings: readonly GeneratorMessage[];
  /** Non-empty means the manifest must not be written: a tool is missing or its schema would lie. */
  readonly errors: readonly GeneratorMessage[];
}

/** typescript-json-schema settings (issue 2 part 4): required, closed objects, nulls kept, no titles. */
const TJS_SETTINGS = {
  required: true,
  noExtraProps: true,
  strictNullChecks: true,
  titles: false,
  ref: true,
  aliasRef: false,
  topRef: false,
  ignoreErrors: true,
  experimentalDecorators: true,
} as const;

/** A message of one DTO's derivation and the node it is about (the decorator or member). */
interface Located {
  readonly issue: SchemaIssue;
  readonly node: ts.Node | undefined;
}

/** The fields of a GeneratorMessage an issue gives. */
function fieldsOf(issue: SchemaIssue): Pick<GeneratorMessage, 'code' | 'where' | 'decorator' | 'message'> {
  const { code, where, decorator, message } = issue;
  return { code: code as SchemaIssueCode, where, ...(decorator === undefined ? {} : { decorator }), message };
}

interface Derived {
  readonly schema: SchemaObject | undefined;
  readonly warnings: Located[];
  readonly errors: Located[];
  readonly texts: string[];
  /** The bounds the schema states tighter than a decorator (MemberContext `merged`), sorted. */
  readonly merged: string[];
}

/**
 * Reports each second declaration of the input's name, or of a name it reaches (typescript-json-schema
 * finds classes by name: messages.ts inputNameClash, reachedNameClash). Returns whether there was one.
 */
function nameClashes(
  generator: JsonSchemaGenerator,
  input: ts.ClassDeclaration,
  reach: Reach,
  root: string,
  fail: (issue: SchemaIssue, node?: ts.Node) => void,
): boolean {
  const at = (node: ts.Node): string => {
    const { file, line } = locate(node, root);
    return `${file}:${line}`;
  };
  const name = input.name?.text ?? '';
  let clash = false;
  const others = new Set<ts.Declaration>();
  for (const ref of generator.getSymbols(name)) {
    const decls = ref.symbol.declarations ?? [];
    if (decls.includes(input) || decls.every((d) => d.getSourceFile().hasNoDefaultLib)) continue;
    const other = decls[0];
    if (other !== undefined) others.add(other);
  }
  for (const other of others) {
    clash = true;
    fail(M.inputNameClash(name, at(other), at(input)), input);
  }
  const kind = (d: ts.Node): string =>
    ts.isClassDeclaration(d) ? 'class' : ts.isEnumDeclaration(d) ? 'enum' : 'interface';
  for (const [first, second] of reach.collisions) {
    const both = first.name?.getText() ?? '';
    const article = (k: string): string => (k === 'class' ? 'a class' : `an ${k}`);
    const what = kind(first) === kind(second) ? 'two classes' : `${article(kind(first))} and ${article(kind(second))}`;
    clash = true;
    fail(M.reachedNameClash(name, what, both, at(first), at(second)), second);
  }
  return clash;
}

/** How many `Class.method` names the decorator-metadata warning lists before `and N more`. */
const LISTED_TOOLS = 3;

/**
 * Checks the two compiler options the decorators need (docs/install.md): without
 * `experimentalDecorators` every @Tool throws at start-up (an error); without `emitDecoratorMetadata`
 * a tool must name its input in `@Tool({ input })`, so a warning lists the tools that do not.
 * Regression (new-user trial, finding 7): generate succeeded on such a project and the run failed.
 */
function decoratorSettings(
  compilerOptions: ts.CompilerOptions,
  where: string,
  found: readonly FoundTool[],
  report: { readonly error: (issue: SchemaIssue) => void; readonly warn: (issue: SchemaIssue) => void },
): void {
  if (compilerOptions.experimentalDecorators !== true) {
    report.error(M.experimentalDecoratorsOff(where));
    return;
  }
  if (compilerOptions.emitDecoratorMetadata === true) return;
  const unnamed = found.filter((t) => !t.inputNamed).map((t) => `${t.className}.${t.methodName}`);
  if (unnamed.length === 0) return;
  report.warn(M.decoratorMetadataOff(where, unnamed.slice(0, LISTED_TOOLS), unnamed.length - LISTED_TOOLS));
}

/** Collects messages once each (a DTO reached twice reports once), keeping the first node. */
function collector(): { readonly list: Located[]; readonly add: (issue: SchemaIssue, node?: ts.Node) => void } {
  const list: Located[] = [];
  return {
    list,
    add: (issue, node) => void (list.some((l) => l.issue.message === issue.message) || list.push({ issue, node })),
  };
}

/**
 * Reads a TypeScript project with the compiler API (one ts.Program per run) and builds the tool
 * manifest of notes/CONTRACTS.md: every `@Tool` method of every `@Toolset` class, its name and
 * description, its draft 2020-12 input schema (typescript-json-schema plus the class-validator
 * constraints, docs/architecture.md sections 4 and 5), its source and a fingerprint (`sha256:` + hex over the
 * method's text and every DTO declaration it reaches). Tools are sorted by name (UTF-16 order).
 * @param options - `{ tsconfig }` or `{ files }`, and optionally `root` for relative paths
 * @throws ToolError ERR_INVALID_TOOL when the project itself cannot be loaded (unreadable tsconfig)
 */
export function generateManifest(options: ProjectOptions): GenerationResult {
  const { program, root, tsconfig } = loadProject(options);
  const checker = program.getTypeChecker();
  const warnings: GeneratorMessage[] = [];
  const errors: GeneratorMessage[] = [];
  for (const d of program.getSyntacticDiagnostics()) {
    const pos =
      d.file === undefined || d.start === undefined ? undefined : d.file.getLineAndCharacterOfPosition(d.start);
    errors.push({
      ...fieldsOf(M.syntaxError(ts.flattenDiagnosticMessageText(d.messageText, ' '))),
      ...(d.file === undefined ? {} : { file: relativePath(d.file.fileName, root) }),
      ...(pos === undefined ? {} : { line: pos.line + 1 }),
    });
  }
  const found = discoverTools(program, {
    fail: (issue, node) => errors.push({ ...fieldsOf(issue), ...locate(node, root) }),
  });
  decoratorSettings(
    program.getCompilerOptions(),
    tsconfig === undefined ? 'compilerOptions' : relativePath(tsconfig, root),
    found,
    {
      error: (issue) => errors.push(fieldsOf(issue)),
      warn: (issue) => warnings.push(fieldsOf(issue)),
    },
  );
  const generator = found.some((t) => t.input !== undefined || t.output !== undefined)
    ? buildGenerator(program, TJS_SETTINGS)
    : null;
  const cache = new Map<ts.ClassDeclaration, Derived>();
  const derive = (input: ts.ClassDeclaration): Derived => {
    let d = cache.get(input);
    if (d !== undefined) return d;
    const reach = reachFrom(input, checker);
    const w = collector();
    const e = collector();
    const merged = new Set<string>();
    const clash = generator === null ? false : nameClashes(generator, input, reach, root, e.add);
    const schema =
      generator === null
        ? (e.add(M.generatorNotStarted(input.name?.text ?? ''), input), undefined)
        : clash
          ? undefined
          : deriveInputSchema(generator, input, reach, checker, {
              warn: w.add,
              fail: e.add,
              merged: (bound) => merged.add(bound),
            });
    d = {
      schema,
      warnings: w.list,
      errors: e.list,
      texts: reach.declarations.map((n) => n.getText()),
      merged: [...merged].sort(codeUnitOrder),
    };
    cache.set(input, d);
    return d;
  };
  const tools: ManifestTool[] = [];
  const byName = new Map<string, FoundTool>();
  for (const tool of found) {
    const where = locate(tool.method, root);
    const previous = byName.get(tool.name);
    if (previous !== undefined) {
      const previousAt = `${previous.className}.${previous.methodName}`;
      const issue = M.duplicateToolName(`${tool.className}.${tool.methodName}`, tool.name, previousAt);
      errors.push({ tool: tool.name, ...fieldsOf(issue), ...where });
      continue;
    }
    byName.set(tool.name, tool);
    const i: Derived =
      tool.input === undefined
        ? { schema: { ...EMPTY_INPUT_SCHEMA, properties: {} }, warnings: [], errors: [], texts: [], merged: [] }
        : derive(tool.input);
    // The output DTO is derived by the same rules as an input DTO (its schema states what the
    // decoder would accept); its messages count for the tool as the input's do.
    const o: Derived | undefined = tool.output === undefined ? undefined : derive(tool.output);
    const d: Derived = {
      schema: i.schema,
      warnings: [...i.warnings, ...(o?.warnings ?? [])],
      errors: [...i.errors, ...(o?.errors ?? [])],
      texts: [...i.texts, ...(o?.texts ?? [])],
      merged: i.merged, // the drift check reads the input DTO only
    };
    for (const { issue, node } of d.errors) {
      // Per tool: a DTO two tools reach reports to each (a tool with an error is missing from the manifest, and says why).
      errors.push({ tool: tool.name, ...fieldsOf(issue), ...locate(node ?? tool.input ?? tool.method, root) });
    }
    for (const { issue, node } of d.warnings)
      warnings.push({ tool: tool.name, ...fieldsOf(issue), ...locate(node ?? tool.method, root) });
    if (d.schema === undefined || d.errors.length > 0 || (o !== undefined && o.schema === undefined)) continue;
    const fingerprint = createHash('sha256')
      .update([tool.method.getText(), ...d.texts].join('\n'))
      .digest('hex');
    tools.push({
      name: tool.name,
      definition: {
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        input_schema: d.schema as JsonObject, // built from JSON by typescript-json-schema
        ...(o?.schema === undefined ? {} : { output_schema: o.schema as JsonObject }),
      },
      source: {
        file: where.file,
        class: tool.className,
        method: tool.methodName,
        input: tool.input?.name?.text ?? null,
        ...(tool.output?.name === undefined ? {} : { output: tool.output.name.text }),
      },
      fingerprint: `sha256:${fingerprint}`,
      warnings: d.warnings.map((w) => w.issue.message),
      ...(d.merged.length === 0 ? {} : { mergedBounds: d.merged }),
    });
  }
  tools.sort((a, b) => codeUnitOrder(a.name, b.name));
  return { manifest: { version: 1, tools }, warnings, errors };
}
