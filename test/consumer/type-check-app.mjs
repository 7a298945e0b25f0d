#!/usr/bin/env node
/* global process, console -- a Node script */
// Type-checks the consumer app against the .d.ts files of the unpacked tarball, with this
// repository's TypeScript: `node type-check-app.mjs <appRoot>` (the runner starts it as a child
// process, beside `vite build`). It does what `tsc -p <project> --noEmit` does for each project of
// the app (src/ with tsconfig.app.json, vite.config.ts with tsconfig.node.json, as Vite's template
// splits them), plus one thing tsc would not: the template's `skipLibCheck` hides errors inside
// declaration files, which would turn a broken published type (say, an import of a package that
// taskwire does not declare) into a silent `any`, so taskwire's own .d.ts files are checked too.
// Checking every library instead (`skipLibCheck: false`) costs about 10 s more, all of it in zod,
// React's and TypeScript's own declarations.
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The projects checked, as in Vite's template. */
export const TYPE_CHECKED_PROJECTS = ['tsconfig.app.json', 'tsconfig.node.json'];

/** The diagnostics of one project: its own files and taskwire's declarations. */
function checkProject(appRoot, project) {
  const taskwireRoot = join(appRoot, 'node_modules', 'taskwire') + sep;
  const configErrors = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(appRoot, project),
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic),
    },
  );
  if (!parsed) return { diagnostics: configErrors, files: [], declarations: 0, expectedErrors: 0 };
  // skipLibCheck off for the program, but declarations are only asked about for taskwire's files.
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: { ...parsed.options, skipLibCheck: false },
  });
  const diagnostics = [
    ...configErrors,
    ...parsed.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
  ];
  const files = [];
  let declarations = 0;
  let expectedErrors = 0;
  for (const file of program.getSourceFiles()) {
    const isApp = !file.isDeclarationFile && !program.isSourceFileFromExternalLibrary(file);
    const isTaskwire = file.isDeclarationFile && file.fileName.startsWith(taskwireRoot);
    if (!isApp && !isTaskwire) continue;
    diagnostics.push(
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    );
    if (isTaskwire) declarations += 1;
    else {
      files.push(file.fileName.slice(appRoot.length + 1));
      expectedErrors += file.text.match(/@ts-expect-error/g)?.length ?? 0;
    }
  }
  return { diagnostics, files, declarations, expectedErrors };
}

/** Checks every project; resolves to what was checked, or throws with the report of tsc. */
export function typeCheckApp(appRoot) {
  const results = TYPE_CHECKED_PROJECTS.map((project) => ({
    project,
    ...checkProject(appRoot, project),
  }));
  const diagnostics = results.flatMap((result) => result.diagnostics);
  if (diagnostics.length > 0) {
    const report = ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (fileName) => fileName,
      getCurrentDirectory: () => appRoot,
      getNewLine: () => '\n',
    });
    throw new Error(`TypeScript ${ts.version} found errors in the consumer app:\n${report}`);
  }
  return { version: ts.version, results };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const appRoot = process.argv[2];
  if (!appRoot) throw new Error('Usage: node type-check-app.mjs <appRoot>');
  try {
    console.log(JSON.stringify(typeCheckApp(appRoot)));
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  }
}
