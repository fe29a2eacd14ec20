#!/usr/bin/env node
/**
 * Counts the type assertions of the server's code with the TypeScript compiler API: every
 * `x as T` and `<T>x`, except `as const`, in the .ts files under a folder (default `src/`),
 * leaving out tests (`*.test.ts`, `*.fixture.ts`). `as unknown as T` counts as two.
 *
 *   node scripts/count-casts.mjs [folder] [--files] [--list]
 *
 * Prints `casts <total>`; `--files` adds the count of each file (most first), `--list` every
 * assertion with its file and line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const root = args.find((a) => !a.startsWith('--')) ?? 'src';
const showFiles = args.includes('--files');
const showList = args.includes('--list');

/** The .ts files under `dir`, tests left out. */
function sources(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (
      name.endsWith('.ts') &&
      !name.endsWith('.d.ts') &&
      !name.endsWith('.test.ts') &&
      !name.endsWith('.fixture.ts')
    )
      out.push(path);
  }
  return out;
}

/** `as const` (and `<const>x`) is a literal-type annotation, not an assertion. */
function isConstAssertion(node) {
  return (
    ts.isTypeReferenceNode(node.type) && ts.isIdentifier(node.type.typeName) && node.type.typeName.text === 'const'
  );
}

let total = 0;
const perFile = [];
for (const path of sources(root)) {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  let count = 0;
  const visit = (node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !isConstAssertion(node)) {
      count++;
      if (showList) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
        console.log(
          `${relative(process.cwd(), path)}:${line + 1}: ${node.getText(file).replace(/\s+/g, ' ').slice(0, 120)}`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  total += count;
  if (count) perFile.push([relative(process.cwd(), path), count]);
}

console.log(`casts ${total}`);
if (showFiles)
  for (const [path, count] of perFile.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)))
    console.log(`${count}\t${path}`);
