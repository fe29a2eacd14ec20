#!/usr/bin/env node
// Writes the values table of helm/ck-apiserver/README.md from values.yaml: one row per leaf
// value with its default and the comment above it (or above its parent map). With --check it
// writes nothing and exits 1 when the README is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isScalar, parseDocument } from 'yaml';

const chart = join(dirname(fileURLToPath(import.meta.url)), '..', 'helm', 'ck-apiserver');
const START = '<!-- values:start -->';
const END = '<!-- values:end -->';
const doc = parseDocument(readFileSync(join(chart, 'values.yaml'), 'utf8'));
const rows = [];

const text = (comment) =>
  (comment ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
const cell = (s) => s.replace(/\|/g, '\\|');

/** Walk a map: leaves (scalars, lists, empty or flow maps) become rows. */
function walk(map, path, inherited) {
  for (const pair of map.items) {
    const key = [...path, String(pair.key.value)].join('.');
    const about = text(pair.key.commentBefore) || text(pair.value?.commentBefore);
    const node = pair.value;
    if (isMap(node) && node.items.length && !node.flow)
      walk(node, [...path, String(pair.key.value)], about || inherited);
    else {
      const value = isScalar(node) ? JSON.stringify(node.value) : JSON.stringify(node?.toJSON() ?? null);
      rows.push(`| \`${key}\` | \`${cell(value)}\` | ${cell(about || inherited)} |`);
    }
  }
}
walk(doc.contents, [], '');
const table = ['| value | default | meaning |', '|---|---|---|', ...rows].join('\n');
const readmePath = join(chart, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const [before, rest] = readme.split(START);
const after = rest.split(END)[1];
const next = `${before}${START}\n${table}\n${END}${after}`;
if (process.argv.includes('--check')) {
  if (next !== readme) {
    process.stderr.write('helm/ck-apiserver/README.md is out of date: run node scripts/chart-readme.mjs\n');
    process.exit(1);
  }
} else writeFileSync(readmePath, next);
