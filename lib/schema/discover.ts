import ts from 'typescript';
import { literalValue, readDecorators, unaliased } from './decorator-reader';
import { classChain } from './dto-class';
import { SCHEMA_MESSAGES as M, type SchemaIssue } from './messages';
import { isUserFile } from './reach';

/** A `@Tool` method found in a `@Toolset` class. @internal */
export interface FoundTool {
  readonly name: string;
  readonly description: string | undefined;
  readonly toolset: ts.ClassDeclaration;
  readonly method: ts.MethodDeclaration;
  readonly className: string;
  readonly methodName: string;
  /** The DTO class of the first parameter, or undefined when the method takes no input. */
  readonly input: ts.ClassDeclaration | undefined;
  /** Whether `@Tool({ input })` names the input (a class or `null`), as a project without decorator metadata needs. */
  readonly inputNamed: boolean;
  /**
   * The output DTO class: `@Tool({ output })`, else the class the declared return type names
   * (`Promise<X>` or `X`) when it is a DTO (a user class with decorated members); undefined: none.
   */
  readonly output: ts.ClassDeclaration | undefined;
}

/** Where discovery reports problems (messages name `Class.method` and the fix). @internal */
export interface DiscoverySink {
  readonly fail: (issue: SchemaIssue, node: ts.Node) => void;
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Finds every method decorated with `@Tool` inside a class decorated with `@Toolset`, in the
 * project's own source files (declaration files and node_modules are skipped). Decorators match by
 * their declared name, resolved through import aliases.
 * @internal
 */
export function discoverTools(program: ts.Program, sink: DiscoverySink): FoundTool[] {
  const checker = program.getTypeChecker();
  const found: FoundTool[] = [];
  for (const file of program.getSourceFiles()) {
    if (!isUserFile(file)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) && readDecorators(node, checker).some((d) => d.name === 'Toolset')) {
        for (const member of toolMethods(node, checker)) {
          const tool = readDecorators(member, checker).find((d) => d.name === 'Tool');
          if (tool !== undefined) {
            const t = readTool(node, member, tool.args, checker, sink);
            if (t !== undefined) found.push(t);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/**
 * The methods of a toolset class and of its base classes (a base need not be a `@Toolset`), base
 * methods first; a method the subclass redeclares is the subclass's (as the container's scanner
 * sees the prototype chain).
 */
function toolMethods(toolset: ts.ClassDeclaration, checker: ts.TypeChecker): ts.MethodDeclaration[] {
  const byName = new Map<string, ts.MethodDeclaration>();
  for (const c of classChain(toolset, checker).reverse()) {
    for (const member of c.members) {
      if (!ts.isMethodDeclaration(member)) continue;
      const name = member.name.getText();
      byName.delete(name);
      byName.set(name, member);
    }
  }
  return [...byName.values()];
}

function readTool(
  toolset: ts.ClassDeclaration,
  method: ts.MethodDeclaration,
  args: readonly ts.Expression[],
  checker: ts.TypeChecker,
  sink: DiscoverySink,
): FoundTool | undefined {
  const className = toolset.name?.text ?? '<anonymous>';
  const methodName = method.name.getText();
  const where = `${className}.${methodName}`;
  let name = methodName;
  let description: string | undefined;
  /** `@Tool({ input })`: undefined when not given, null for `input: null`. */
  let given: ts.ClassDeclaration | null | undefined;
  let givenAt: ts.Node | undefined;
  let output: ts.ClassDeclaration | undefined;
  const options = args[0];
  if (options !== undefined) {
    if (!ts.isObjectLiteralExpression(options)) {
      sink.fail(M.toolOptionsNotLiteral(where), options);
      return undefined;
    }
    for (const prop of options.properties) {
      const key = prop.name !== undefined && ts.isIdentifier(prop.name) ? prop.name.text : undefined;
      if (key === 'input') {
        given = inputOption(prop, checker);
        givenAt = prop;
        if (given === undefined) {
          sink.fail(M.toolInputNotClass(where), prop);
          return undefined;
        }
        continue;
      }
      if (key === 'output') {
        const cls = inputOption(prop, checker);
        if (cls === undefined || cls === null) {
          sink.fail(M.toolOutputNotClass(where), prop);
          return undefined;
        }
        output = cls;
        continue;
      }
      if (key !== 'name' && key !== 'description') continue;
      const value = ts.isPropertyAssignment(prop) ? literalValue(prop.initializer, checker) : undefined;
      if (typeof value !== 'string') {
        sink.fail(M.toolOptionNotString(where, key), prop);
        return undefined;
      }
      if (key === 'name') name = value;
      else description = value;
    }
  }
  if (!TOOL_NAME.test(name)) {
    sink.fail(M.toolNameInvalid(where, name), method);
    return undefined;
  }
  if (description === undefined) {
    const symbol = checker.getSymbolAtLocation(method.name);
    const doc = symbol === undefined ? '' : ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
    if (doc !== '') description = doc;
  }
  const param = method.parameters[0];
  let input: ts.ClassDeclaration | undefined;
  if (param !== undefined) {
    const type = checker.getTypeAtLocation(param);
    input = type.getSymbol()?.declarations?.find(ts.isClassDeclaration);
    if (input === undefined || input.name === undefined) {
      sink.fail(M.inputNotClass(where, checker.typeToString(type)), param);
      return undefined;
    }
  }
  // The container uses `input` over design:paramtypes (lib/container/method-tool.ts inputClassOf);
  // the manifest records the parameter's class, so the two must be one class.
  if (given !== undefined && given !== (input ?? null)) {
    sink.fail(M.toolInputMismatch(where, given?.name?.text ?? null, input?.name?.text ?? null), givenAt ?? method);
    return undefined;
  }
  return {
    name,
    description,
    toolset,
    method,
    className,
    methodName,
    input,
    inputNamed: given !== undefined,
    output: output ?? returnedDto(method, checker),
  };
}

/**
 * The DTO class the method's declared return type names: `X` or `Promise<X>`, where X is a class
 * of the user's files with at least one decorated member (so `Output`, `InputRequest`, a string,
 * a union or an inferred type declare no output contract). @internal
 */
function returnedDto(method: ts.MethodDeclaration, checker: ts.TypeChecker): ts.ClassDeclaration | undefined {
  let node = method.type;
  if (node === undefined) return undefined;
  if (ts.isTypeReferenceNode(node) && node.typeName.getText() === 'Promise' && node.typeArguments?.length === 1) {
    node = node.typeArguments[0];
  }
  if (!ts.isTypeReferenceNode(node)) return undefined;
  const symbol = unaliased(checker.getSymbolAtLocation(node.typeName), checker);
  const cls = symbol?.declarations?.find(ts.isClassDeclaration);
  if (cls === undefined || cls.name === undefined || !isUserFile(cls.getSourceFile())) return undefined;
  return cls.members.some((m) => readDecorators(m, checker).length > 0) ? cls : undefined;
}

/**
 * The class an `input` option names (`input: CreateNoteInput`, `{ input }`, `input: dto.CreateNoteInput`),
 * null for `input: null`, or undefined when it names no class the checker resolves.
 */
function inputOption(
  prop: ts.ObjectLiteralElementLike,
  checker: ts.TypeChecker,
): ts.ClassDeclaration | null | undefined {
  let symbol: ts.Symbol | undefined;
  if (ts.isShorthandPropertyAssignment(prop)) {
    symbol = checker.getShorthandAssignmentValueSymbol(prop);
  } else if (ts.isPropertyAssignment(prop)) {
    let value = prop.initializer;
    while (ts.isParenthesizedExpression(value)) value = value.expression;
    if (value.kind === ts.SyntaxKind.NullKeyword) return null;
    if (!ts.isIdentifier(value) && !ts.isPropertyAccessExpression(value)) return undefined;
    symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(value) ? value.name : value);
  }
  const declaration = unaliased(symbol, checker)?.declarations?.find(ts.isClassDeclaration);
  return declaration?.name === undefined ? undefined : declaration;
}
