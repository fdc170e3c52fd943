// The store is the only code that knows how cells are laid out: the query API asks it for sums per
// (bucket, group) and never decodes a cell, a field or a quarter digit itself. Its exports that
// describe the layout are declared once, in the store's `@vu/store/cell-format` entry
// (packages/store/src/cellFormat.ts); this test reads their names from there, and holds the query
// API's folders that plan, compute, render and serve answers to importing none of them.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./paths";

const STORE = "@vu/store";
const CELL_FORMAT = `${STORE}/cell-format`;
const CELL_FORMAT_FILE = "packages/store/src/cellFormat.ts";

/** The query API's folders that must know sums only, tests included. */
const SUMS_ONLY = ["query", "planner", "render", "routes"].map((dir) => `services/query-api/src/${dir}`);

const parse = (path: string, text: string) => ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);

/** The names a module exports by name (`export { a, type B } from …`, `export const c`, …). */
function exportedNames(source: ts.SourceFile): string[] {
  return source.statements.flatMap((statement) => {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause === undefined) throw new Error(`${source.fileName}: \`export *\` hides what it exports`);
      return ts.isNamedExports(clause) ? clause.elements.map((e) => e.name.text) : [clause.name.text];
    }
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) return [];
    if (ts.isVariableStatement(statement))
      return statement.declarationList.declarations.map((d) => d.name.getText(source));
    const name = (statement as ts.DeclarationStatement).name;
    return name && ts.isIdentifier(name) ? [name.text] : [];
  });
}

/** The store's cell-format exports, read from the entry that declares them. */
function cellFormatNames(): Set<string> {
  const path = join(repoRoot, CELL_FORMAT_FILE);
  return new Set(exportedNames(parse(path, readFileSync(path, "utf8"))));
}

/** The module a node imports or re-exports (`import … from`, `export … from`, `import(…)`), if any. */
function specifierOf(node: ts.Node): string | undefined {
  if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
    const specifier = node.moduleSpecifier;
    return specifier && ts.isStringLiteral(specifier) ? specifier.text : undefined;
  }
  if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
    const [specifier] = node.arguments;
    return specifier && ts.isStringLiteral(specifier) ? specifier.text : undefined;
  }
  return undefined;
}

/**
 * What a file takes of the cell format, as "file: name": any import or re-export of the
 * cell-format entry, and any name of `formatNames` it imports or re-exports from the store's index
 * (under its own name or renamed).
 */
function cellFormatImports(file: string, text: string, formatNames: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const specifier = specifierOf(node);
    if (specifier?.startsWith(`${STORE}/`)) found.push(`${file}: ${specifier}`);
    if (specifier === STORE) {
      for (const name of importedNames(node)) if (formatNames.has(name)) found.push(`${file}: ${name}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file, text));
  return found;
}

/** The names a declaration takes by name, as the store exports them: `{ a, b as c }` gives a and b. */
function importedNames(node: ts.Node): string[] {
  if (ts.isImportDeclaration(node)) {
    const bindings = node.importClause?.namedBindings;
    if (bindings === undefined || !ts.isNamedImports(bindings)) return [];
    return bindings.elements.map((e) => (e.propertyName ?? e.name).text);
  }
  if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause))
    return node.exportClause.elements.map((e) => (e.propertyName ?? e.name).text);
  return [];
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("the cell format stays behind the store", () => {
  const formatNames = cellFormatNames();

  it("declares its cell-format exports once, apart from the store's index", () => {
    expect(formatNames.size).toBeGreaterThan(10);
    const indexPath = join(repoRoot, "packages/store/src/index.ts");
    const index = exportedNames(parse(indexPath, readFileSync(indexPath, "utf8")));
    expect(index.length).toBeGreaterThan(formatNames.size);
    expect(index.filter((name) => formatNames.has(name))).toEqual([]);
  });

  it.each(SUMS_ONLY)("%s imports nothing of the cell format", (dir) => {
    const files = sources(join(repoRoot, dir));
    expect(files.length).toBeGreaterThan(0);
    const taken = files.flatMap((path) =>
      cellFormatImports(relative(repoRoot, path), readFileSync(path, "utf8"), formatNames),
    );
    expect(taken).toEqual([]);
  });

  it("finds a cell-format import where there is one, renamed, re-exported, type-only or dynamic", () => {
    const [name = ""] = [...formatNames];
    const text = [
      `import { emptySums, ${name} as renamed } from "${STORE}";`,
      `import type { ${name} } from "${STORE}";`,
      `export { ${name} } from "${STORE}";`,
      `import { sumCells } from "${CELL_FORMAT}";`,
      `const late = await import("${CELL_FORMAT}");`,
    ].join("\n");
    expect(cellFormatImports("x.ts", text, formatNames)).toEqual([
      `x.ts: ${name}`,
      `x.ts: ${name}`,
      `x.ts: ${name}`,
      `x.ts: ${CELL_FORMAT}`,
      `x.ts: ${CELL_FORMAT}`,
    ]);
  });
});
