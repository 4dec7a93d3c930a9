import ts from 'typescript';
import { classChain } from './dto-class';

/** The user declarations a DTO reaches through its members' types, in discovery order. @internal */
export interface Reach {
  /** DTO classes by name, the root first (base classes included). */
  readonly classes: Map<string, ts.ClassDeclaration>;
  /** Every class, enum, interface and type alias reached, for the fingerprint. */
  readonly declarations: ts.Declaration[];
  /**
   * Pairs of distinct declarations reached under one name, at least one of them a class (the first
   * reached, then the other): schema definitions are keyed by name (typescript-json-schema renames
   * the second `X_1`), and the classes' decorators are merged by name, so a class would lose them.
   */
  readonly collisions: Array<readonly [ts.NamedDeclaration, ts.NamedDeclaration]>;
  /**
   * The user classes reached as the type of a member (or of its items, union parts or type
   * arguments), not only as a base class: typescript-json-schema gives each a definition, whose
   * decorators the generator must merge.
   */
  readonly nested: ReadonlySet<ts.ClassDeclaration>;
}

/** A file of the project itself: not a declaration file, not under node_modules. @internal */
export function isUserFile(file: ts.SourceFile): boolean {
  return !file.isDeclarationFile && !/[\\/]node_modules[\\/]/.test(file.fileName);
}

const isUserDeclaration = (decl: ts.Node): boolean => isUserFile(decl.getSourceFile());

/**
 * Walks the members of `root` (and of every class it reaches) through arrays, unions, type
 * arguments and aliases, collecting the user-written declarations. Library types (Date, lib.d.ts,
 * node_modules) are not followed.
 * @internal
 */
export function reachFrom(root: ts.ClassDeclaration, checker: ts.TypeChecker): Reach {
  const classes = new Map<string, ts.ClassDeclaration>();
  const collisions: Array<readonly [ts.NamedDeclaration, ts.NamedDeclaration]> = [];
  const named = new Map<string, ts.NamedDeclaration>();
  /** Records a class, enum or interface under its name; a second declaration of one name clashes when a class is involved. */
  const name = (decl: ts.ClassDeclaration | ts.EnumDeclaration | ts.InterfaceDeclaration): void => {
    const text = decl.name?.text;
    if (text === undefined) return;
    const previous = named.get(text);
    if (previous === undefined) named.set(text, decl);
    else if (previous !== decl && (ts.isClassDeclaration(previous) || ts.isClassDeclaration(decl)))
      collisions.push([previous, decl]);
  };
  const declarations: ts.Declaration[] = [];
  const seenTypes = new Set<ts.Type>();
  const seenDecls = new Set<ts.Node>();
  const nested = new Set<ts.ClassDeclaration>();

  const addDecl = (decl: ts.Declaration): boolean => {
    if (seenDecls.has(decl) || !isUserDeclaration(decl)) return false;
    seenDecls.add(decl);
    declarations.push(decl);
    return true;
  };

  const visitClass = (decl: ts.ClassDeclaration): void => {
    for (const c of classChain(decl, checker)) {
      if (!addDecl(c)) continue;
      if (c.name !== undefined && !classes.has(c.name.text)) classes.set(c.name.text, c);
      name(c);
      for (const member of c.members) {
        if (ts.isPropertyDeclaration(member)) visitType(checker.getTypeAtLocation(member));
      }
    }
  };

  const visitType = (type: ts.Type): void => {
    if (seenTypes.has(type)) return;
    seenTypes.add(type);
    const alias = type.aliasSymbol?.declarations?.[0];
    if (alias !== undefined) addDecl(alias);
    if (type.isUnionOrIntersection()) {
      for (const t of type.types) visitType(t);
      return;
    }
    const symbol = type.getSymbol();
    for (const decl of symbol?.declarations ?? []) {
      if (ts.isClassDeclaration(decl)) {
        if (isUserDeclaration(decl)) nested.add(decl);
        visitClass(decl);
      } else if (ts.isEnumDeclaration(decl) || ts.isInterfaceDeclaration(decl)) {
        if (isUserDeclaration(decl)) name(decl);
        if (addDecl(decl) && ts.isInterfaceDeclaration(decl)) {
          for (const p of checker.getPropertiesOfType(type)) {
            const d = p.valueDeclaration ?? p.declarations?.[0];
            if (d !== undefined) visitType(checker.getTypeOfSymbolAtLocation(p, d));
          }
        }
      } else if (ts.isEnumMember(decl) && ts.isEnumDeclaration(decl.parent)) {
        if (isUserDeclaration(decl.parent)) name(decl.parent);
        addDecl(decl.parent);
      }
    }
    if (type.flags & ts.TypeFlags.Object && (type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) {
      for (const arg of checker.getTypeArguments(type as ts.TypeReference) ?? []) visitType(arg);
    }
  };

  visitClass(root);
  return { classes, declarations, collisions, nested };
}
