/**
 * The package entries and their exact export lists (test support, not a spec): every specifier of
 * package.json `exports`, the lib/ module it builds from, and its run-time (`values`) and type-only
 * (`types`) names, each sorted. spec/package/entries.spec.ts checks the lib/ modules against this
 * table and spec/package/dist.spec.ts the built dist/ files (CommonJS and ESM).
 *
 * Changing an entry's surface means changing this table: a name added to a layer's index.ts does
 * not reach a package entry by itself (lib/index.ts and the provider entries list every name).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

export const ROOT = path.join(__dirname, '..', '..');

/** One package entry: its specifier, source module, dist/ file stem and exact names. */
export interface PackageEntry {
  /** The import specifier, e.g. `scope-tool/openai`. */
  readonly specifier: string;
  /** The source module, relative to the repository root. */
  readonly source: string;
  /** The file name of its build in dist/, without extension (`index`, `openai`, ...). */
  readonly dist: string;
  /** Run-time names (functions, classes, constants), sorted. */
  readonly values: readonly string[];
  /** Type-only names (interfaces, type aliases), sorted. */
  readonly types: readonly string[];
}

export const ENTRIES: readonly PackageEntry[] = [
  {
    specifier: 'scope-tool',
    source: 'lib/index.ts',
    dist: 'index',
    values: [
      'Authorization',
      'AuthorizationError',
      'Binding',
      'CallError',
      'CompiledSchema',
      'Continuation',
      'Contract',
      'DEFAULT_TIMEOUT_MS',
      'DEFINITION_SCHEMA',
      'EMPTY_INPUT_SCHEMA',
      'Failure',
      'FuncTool',
      'Guard',
      'INPUT_REQUEST_SCHEMA',
      'InputRequest',
      'InputValidatorError',
      'Invocation',
      'MAX_DEPTH',
      'MAX_INPUT_BYTES',
      'MAX_TIMEOUT_MS',
      'OUTPUT_SCHEMA',
      'Output',
      'Registry',
      'ToolError',
      'bind',
      'callerAuthorizer',
      'canonicalJson',
      'capability',
      'classifyFailure',
      'compileSchema',
      'compileSchemaValue',
      'createRegistry',
      'decodeDefinition',
      'dtoInput',
      'dtoWireNames',
      'emptyInput',
      'encodeDefinition',
      'findError',
      'hasErrorCode',
      'isAdmissionRefusal',
      'isDeadlineTool',
      'isInputValidatingTool',
      'isSuspendedOutcome',
      'isWrappingTool',
      'loadManifest',
      'parseServerSentEvents',
      'parseServerSentJson',
      'prepareToolCall',
      'renderOutcome',
      'validateDefinition',
    ],
    types: [
      'AdmissionIssue',
      'AssembledToolCall',
      'Authorizer',
      'AuthorizerFunc',
      'BindOptions',
      'CallErrorConfig',
      'CallOptions',
      'Constructor',
      'ContentBlock',
      'CreateRegistryOptions',
      'DeadlineTool',
      'Definition',
      'DtoInput',
      'DtoInputOptions',
      'FailureConfig',
      'FailureKind',
      'Func',
      'FuncCall',
      'FuncConfig',
      'GuardConfig',
      'InputRequestConfig',
      'InputRequestWire',
      'InputValidatingTool',
      'InputValidator',
      'JsonObject',
      'JsonValue',
      'KeywordNote',
      'Manifest',
      'ManifestSource',
      'ManifestTool',
      'MediaBlock',
      'MediaSource',
      'OutcomeKind',
      'OutputConfig',
      'OutputWire',
      'PreparedToolCall',
      'ProviderToolCall',
      'RenderOutcomeOptions',
      'RenderedOutcome',
      'Request',
      'Resolve',
      'Result',
      'ServerSentEvent',
      'TextBlock',
      'Tool',
      'ToolAnnotations',
      'ToolErrorCode',
      'ToolOutcome',
      'ToolProvider',
      'ToolsExport',
      'WrappingTool',
    ],
  },
  {
    specifier: 'scope-tool/decorators',
    source: 'lib/decorators/index.ts',
    dist: 'decorators',
    values: [
      'Authorize',
      'TOOL_NAME_PATTERN',
      'Tool',
      'Toolset',
      'isPolicy',
      'readParamTypes',
      'readPolicies',
      'readTool',
      'readTools',
      'readToolset',
    ],
    types: [
      'AuthorizerClass',
      'Policy',
      'ToolCall',
      'ToolMetadata',
      'ToolOptions',
      'ToolsetMetadata',
      'ToolsetOptions',
    ],
  },
  {
    specifier: 'scope-tool/nest',
    source: 'lib/nest/index.ts',
    dist: 'nest',
    values: ['SCOPE_TOOL_OPTIONS', 'ScopeToolModule', 'ScopeToolModuleError', 'ToolRegistry'],
    types: [
      'AsyncOptionsProblem',
      'NestProblem',
      'NotProvidedUse',
      'ProviderShape',
      'ProviderSite',
      'ScopeToolModuleAsyncOptions',
      'ScopeToolModuleOptions',
      'ScopeToolModuleScope',
      'ScopeToolOptionsFactory',
      'ToolsetDiscovery',
    ],
  },
  {
    specifier: 'scope-tool/mcp',
    source: 'lib/mcp/index.ts',
    dist: 'mcp',
    values: [
      'ContinuationError',
      'ContinuationSealer',
      'EMBEDDED_CONTENT_URI',
      'MemoryContinuationUseStore',
      'TRACER_NAME',
      'TracingError',
      'WRAPPED_FIELD',
      'createMcpServer',
      'definitionOfMcpTool',
      'elicitationForm',
      'elicitationMessage',
      'mcpRequest',
      'mcpTool',
      'mcpToolResult',
      'mcpTools',
      'outputOfMcpToolResult',
      'serveStdio',
      'serveStreamableHttp',
    ],
    types: [
      'ContinuationErrorReason',
      'ContinuationKey',
      'ContinuationSealerConfig',
      'ContinuationUseStore',
      'ElicitationForm',
      'McpCallInfo',
      'McpContent',
      'McpHttpAuthOptions',
      'McpHttpOptions',
      'McpHttpServer',
      'McpRequestedSchema',
      'McpServerOptions',
      'McpStdioOptions',
      'McpStdioServer',
      'McpTool',
      'McpToolResult',
      'McpToolResultValue',
      'SealBinding',
      'SealCall',
      'ToolTracingOption',
      'ToolTracingOptions',
      'TracingErrorCode',
    ],
  },
  {
    specifier: 'scope-tool/runtime',
    source: 'lib/runtime/index.ts',
    dist: 'runtime',
    values: [
      'DEFAULT_LEASE_MS',
      'DEFAULT_MAX_STEPS',
      'DEFAULT_SUSPENSION_TTL_MS',
      'LoopError',
      'MAX_ID_BYTES',
      'MAX_LEASE_MS',
      'MAX_SUSPENSION_ROUNDS',
      'MAX_SUSPENSION_TTL_MS',
      'MemoryStore',
      'POSTGRES_SCHEMA_VERSION',
      'PostgresStore',
      'Runtime',
      'RuntimeError',
      'SQLITE_SCHEMA_VERSION',
      'SUSPENSION_RECORD_VERSION',
      'SqliteStore',
      'StoreError',
      'TRACER_NAME',
      'TracingError',
      'argumentsDigest',
      'contractFingerprint',
      'idempotencyKeyOf',
      'providerCallIdOf',
      'roundKey',
      'runAnthropicMessagesLoop',
      'runOpenAIChatLoop',
      'runOpenAIResponsesLoop',
      'toAnthropicMessage',
      'toGeminiContent',
      'toOpenAIChatMessages',
      'toOpenAIResponsesItems',
    ],
    types: [
      'AnswerIssue',
      'AnthropicMessagesLoopOptions',
      'AnthropicMessagesLoopRequest',
      'AnthropicMessagesLoopResult',
      'BeginResult',
      'CallCounts',
      'CallKey',
      'CallOutcome',
      'CallOutcomeKind',
      'CountOptions',
      'ListFilter',
      'LoopAnswer',
      'LoopErrorCode',
      'LoopOptions',
      'LoopProgress',
      'LoopStatus',
      'MemoryStoreOptions',
      'OpenAIChatLoopOptions',
      'OpenAIChatLoopRequest',
      'OpenAIChatLoopResult',
      'OpenAIResponsesLoopOptions',
      'OpenAIResponsesLoopRequest',
      'OpenAIResponsesLoopResult',
      'PostgresStoreOptions',
      'ResumeInput',
      'RunningCall',
      'RuntimeBudget',
      'RuntimeConfig',
      'RuntimeErrorCode',
      'SettledCall',
      'SettledCallOutcome',
      'SqliteStoreOptions',
      'StoreErrorCode',
      'StoredOutcome',
      'SuspendedCallOutcome',
      'SuspensionRecord',
      'SuspensionStore',
      'TakeResult',
      'ToolTracingOption',
      'ToolTracingOptions',
      'TracingErrorCode',
      'TurnInput',
    ],
  },
  {
    specifier: 'scope-tool/openai',
    source: 'lib/openai.ts',
    dist: 'openai',
    values: [
      'OpenAIChatStreamAssembler',
      'OpenAIResponsesStreamAssembler',
      'exportOpenAIChatTools',
      'exportOpenAIResponsesTools',
      'openAIChatToolCalls',
      'openAIChatTools',
      'openAIFunctionCallOutput',
      'openAIMessageToolCalls',
      'openAIResponsesToolCalls',
      'openAIResponsesTools',
      'openAIToolMessage',
      'restoreOptionalMembers',
      'restoreStrictToolCall',
      'strictInputSchema',
    ],
    types: [
      'OpenAIChatCompletionLike',
      'OpenAIChatMessageLike',
      'OpenAIResponseLike',
      'OpenAIToolsOptions',
      'RemovedKeyword',
      'StrictSchema',
    ],
  },
  {
    specifier: 'scope-tool/anthropic',
    source: 'lib/anthropic.ts',
    dist: 'anthropic',
    values: [
      'AnthropicStreamAssembler',
      'anthropicToolCalls',
      'anthropicToolResult',
      'anthropicToolResultMessage',
      'anthropicTools',
      'exportAnthropicTools',
    ],
    types: ['AnthropicMessageLike'],
  },
  {
    specifier: 'scope-tool/gemini',
    source: 'lib/gemini.ts',
    dist: 'gemini',
    values: [
      'exportGeminiFunctionDeclarations',
      'geminiContentFunctionCalls',
      'geminiFunctionCalls',
      'geminiFunctionResponse',
      'geminiFunctionResponseContent',
      'geminiTools',
    ],
    types: ['GeminiContentLike', 'GeminiResponseLike'],
  },
];

/** One name a module exports, traced to the declaration that defines it. */
export interface ExportedName {
  readonly name: string;
  /** True for interfaces and type aliases, and for names exported with `export type`. */
  readonly typeOnly: boolean;
  /** True when the defining declaration's TSDoc carries `@internal`. */
  readonly internal: boolean;
  /** Where it is defined: `lib/protocol/refusal.ts`, relative to the repository root. */
  readonly definedIn: string;
}

const parsed = new Map<string, ts.SourceFile>();

function sourceOf(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (source === undefined) {
    source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(file, source);
  }
  return source;
}

function resolveRelative(from: string, specifier: string): string {
  if (!specifier.startsWith('.')) throw new Error(`${from}: re-exports the package ${specifier}`);
  const base = path.resolve(path.dirname(from), specifier);
  for (const file of [`${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(file)) return file;
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

function isInternal(node: ts.Node): boolean {
  return ts.getJSDocCommentsAndTags(node).some((doc) => /@internal\b/.test(doc.getText()));
}

function hasExportModifier(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** The names a statement declares, each with its node and whether it is a type. */
function declaredBy(statement: ts.Statement): [string, ts.Node, boolean][] {
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((d): [string, ts.Node, boolean][] =>
      ts.isIdentifier(d.name) ? [[d.name.text, statement, false]] : [],
    );
  }
  if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
    return [[statement.name.text, statement, true]];
  }
  if (
    (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
    statement.name
  ) {
    return [[statement.name.text, statement, false]];
  }
  return [];
}

/** Where `file` gets the local name `name`: an import (followed) or its own declaration. */
function local(file: string, name: string, typeOnly: boolean, depth: number): ExportedName {
  const definedIn = path.relative(ROOT, file).split(path.sep).join('/');
  for (const statement of sourceOf(file).statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings === undefined || !ts.isNamedImports(bindings)) continue;
      for (const element of bindings.elements) {
        if (element.name.text !== name) continue;
        const viaType = typeOnly || !!statement.importClause?.isTypeOnly || element.isTypeOnly;
        const specifier = statement.moduleSpecifier.text;
        // A package's name passed on (an SDK type): defined there, never a scope-tool helper.
        if (!specifier.startsWith('.')) return { name, typeOnly: viaType, internal: false, definedIn: specifier };
        return trace(resolveRelative(file, specifier), element.propertyName?.text ?? name, viaType, depth + 1);
      }
    }
    for (const [declaredName, node, isType] of declaredBy(statement)) {
      if (declaredName !== name) continue;
      // A function's TSDoc sits on its first overload or its implementation: any one tagged counts.
      const overloads: ts.Node[] = sourceOf(file).statements.filter(
        (s) => ts.isFunctionDeclaration(s) && s.name?.text === name,
      );
      const internal = [node, ...overloads].some(isInternal);
      return { name, typeOnly: typeOnly || isType, internal, definedIn };
    }
  }
  throw new Error(`${definedIn}: does not declare or import ${name}`);
}

/** The declaration of `name` exported by `file`, following named re-exports (never `export *`). */
function trace(file: string, name: string, typeOnly: boolean, depth = 0): ExportedName {
  const definedIn = path.relative(ROOT, file).split(path.sep).join('/');
  if (depth > 20) throw new Error(`${definedIn}: the re-export chain of ${name} is too long`);
  for (const statement of sourceOf(file).statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        if (element.name.text !== name) continue;
        const source = element.propertyName?.text ?? name;
        const viaType = typeOnly || statement.isTypeOnly || element.isTypeOnly;
        if (statement.moduleSpecifier === undefined) return local(file, source, viaType, depth);
        if (!ts.isStringLiteral(statement.moduleSpecifier)) break;
        return trace(resolveRelative(file, statement.moduleSpecifier.text), source, viaType, depth + 1);
      }
    }
    if (hasExportModifier(statement) && declaredBy(statement).some(([n]) => n === name)) {
      return local(file, name, typeOnly, depth);
    }
  }
  throw new Error(`${definedIn}: does not export ${name}`);
}

/**
 * Every name `file` exports, read from its source text (no type checker: cheap), each traced to
 * its declaration.
 * @throws Error when the module has an `export *` (its names could not be listed) or a name
 *   cannot be traced
 */
export function exportedNames(file: string): ExportedName[] {
  const source = sourceOf(file);
  const names: ExportedName[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.exportClause === undefined || !ts.isNamedExports(statement.exportClause)) {
        throw new Error(`${path.relative(ROOT, file)}: \`export *\` hides what the entry exports; name each export`);
      }
      for (const element of statement.exportClause.elements) {
        names.push(trace(file, element.name.text, false));
      }
    } else if (ts.isExportAssignment(statement)) {
      throw new Error(`${path.relative(ROOT, file)}: a default export; the package has named exports only`);
    } else if (hasExportModifier(statement)) {
      for (const [name] of declaredBy(statement)) names.push(trace(file, name, false));
    }
  }
  return names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
