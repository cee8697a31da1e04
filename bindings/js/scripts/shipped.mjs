// The JavaScript the package runs: lib/'s files with their comments removed,
// written to dist/ by scripts/build.mjs (4.5 kB of the gzipped package).
// lib/ holds them as written, with their comments; the package's entry points
// name the files in dist/, which the tests run, so what ships is what is
// tested (tests/entries.test.mjs checks dist/ is lib/ without comments).
// TypeScript's printer (a devDependency) removes them: it parses the
// JavaScript fully, so a `//` inside a string or a regular expression stays,
// and keeps the code as written (target ESNext, module syntax preserved).

/** lib/'s files the package runs. */
export const SHIPPED = ['chunkhash.mjs', 'lzma.mjs', 'chunkhash.cjs', 'auto.mjs'];

/** `source` (lib/`name`) without its comments, under a line that says so. */
export async function stripComments(source, name) {
  const { default: ts } = await import('typescript').catch((error) => {
    throw new Error(`chunkhash js build: TypeScript is missing (\`npm ci\` in bindings/js; \`make js\` runs it): ${error.message}`);
  });
  const { outputText, diagnostics } = ts.transpileModule(source, {
    fileName: name,
    reportDiagnostics: true,
    compilerOptions: { removeComments: true, target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.Preserve },
  });
  if (diagnostics.length > 0) throw new Error(`chunkhash js build: lib/${name}: ${ts.flattenDiagnosticMessageText(diagnostics[0].messageText, '\n')}`);
  return `// lib/${name} of the chunkhash repository without its comments (scripts/build.mjs).\n${outputText}`;
}
