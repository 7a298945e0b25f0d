/**
 * The names each public entry exports, read with the TypeScript compiler over tsconfig.json: what
 * the public-API and public-names tests check (test/docs/).
 */
import path from 'node:path';
import ts from 'typescript';
import type { ApiEntry } from '../../scripts/api-reference.mjs';

const root = path.resolve(import.meta.dirname, '../..');

/** One name an entry exports. */
export interface ExportedName {
  name: string;
  entry: ApiEntry;
  /** The declaration the name resolves to, shared by every entry that re-exports it. */
  target: ts.Symbol;
}

/** Every name (value or type) each entry exports, resolved through re-exports to its declaration. */
export function readExportedNames(entries: ApiEntry[]): {
  names: ExportedName[];
  checker: ts.TypeChecker;
} {
  const configPath = path.join(root, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (config === undefined) throw new Error('tsconfig.json could not be read.');
  const program = ts.createProgram({
    rootNames: entries.map((entry) => path.join(root, entry.file)),
    options: config.options,
  });
  const checker = program.getTypeChecker();
  const names = entries.flatMap((entry) => {
    const sourceFile = program.getSourceFile(path.join(root, entry.file));
    const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
    if (moduleSymbol === undefined) throw new Error(`${entry.file} is not a module.`);
    return checker.getExportsOfModule(moduleSymbol).map((symbol) => ({
      name: symbol.getName(),
      entry,
      target: symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
    }));
  });
  return { names, checker };
}
