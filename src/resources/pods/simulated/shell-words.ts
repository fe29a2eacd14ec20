/**
 * The small part of a POSIX shell's grammar a simulated container's `sh -c` understands:
 * words with single and double quotes and backslash escapes, `$NAME`, `${NAME}` and `$?`
 * expanded, and command lists joined by `;`, `&&`, `||` and newlines (POSIX Shell Command
 * Language 2.2 quoting, 2.6.2 parameter expansion, 2.9.3 lists). Pipes, redirections,
 * subshells and globbing are not understood: a script using them is reported as a syntax error
 * the way busybox `sh` reports one. Pure.
 */

/** A simple command of a list and the operator that joins it to the previous one. */
export interface ListItem {
  /** `;` for the first command and after `;` or a newline. */
  readonly op: ';' | '&&' | '||';
  readonly words: readonly string[];
}

/** A script that cannot be read; `message` is what busybox `sh` prints (`sh: syntax error: ...`). */
export class ShellSyntaxError extends Error {}

/** Characters that end a bare word. */
const SPECIAL = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')', '`']);

/**
 * Split `script` into its list of simple commands, each with its raw words (quotes kept: they
 * are expanded by {@link expandWords} when the command runs, so `$?` sees the status of the
 * one before). Throws ShellSyntaxError for an unterminated quote, a misplaced operator or an
 * operator it does not support (pipes, redirections, background, subshells).
 */
export function parseList(script: string): { op: ListItem['op']; raw: string[] }[] {
  const items: { op: ListItem['op']; raw: string[] }[] = [];
  let op: ListItem['op'] = ';';
  let words: string[] = [];
  let i = 0;
  const end = (next: ListItem['op'], token: string) => {
    if (!words.length) {
      if (next === ';' && token !== ';') return; // blank line
      throw new ShellSyntaxError(`sh: syntax error: unexpected "${token}"`);
    }
    items.push({ op, raw: words });
    words = [];
    op = next;
  };
  while (i < script.length) {
    const c = script[i];
    if (c === ' ' || c === '\t') {
      i++;
    } else if (c === '#' && (i === 0 || /\s/.test(script[i - 1]))) {
      while (i < script.length && script[i] !== '\n') i++;
    } else if (c === '\n' || c === ';') {
      end(';', c === '\n' ? 'newline' : ';');
      i++;
    } else if (script.startsWith('&&', i) || script.startsWith('||', i)) {
      end(script.slice(i, i + 2) as '&&' | '||', script.slice(i, i + 2));
      i += 2;
    } else if (SPECIAL.has(c)) {
      throw new ShellSyntaxError(`sh: syntax error: unsupported "${c}" in a simulated container`);
    } else {
      const start = i;
      i = scanWord(script, i);
      words.push(script.slice(start, i));
    }
  }
  if (words.length) items.push({ op, raw: words });
  else if (op !== ';') throw new ShellSyntaxError('sh: syntax error: unexpected end of file');
  return items;
}

/** The index after the raw word that starts at `i` (quotes kept); throws on an unterminated quote. */
function scanWord(s: string, i: number): number {
  while (i < s.length && !SPECIAL.has(s[i])) {
    const c = s[i];
    if (c === '\\') i += 2;
    else if (c === "'" || c === '"') {
      const close = findClose(s, i + 1, c);
      if (close < 0) throw new ShellSyntaxError(`sh: syntax error: unterminated quoted string`);
      i = close + 1;
    } else i++;
  }
  return Math.min(i, s.length);
}

function findClose(s: string, from: number, quote: string): number {
  for (let j = from; j < s.length; j++) {
    if (quote === '"' && s[j] === '\\') j++;
    else if (s[j] === quote) return j;
  }
  return -1;
}

/** The value of parameter `name`: `?` is the last status, else the variable or ''. */
type Lookup = (name: string) => string | undefined;

/**
 * Expand raw words: quotes removed, backslash escapes applied, parameters expanded (inside
 * double quotes and bare; not inside single quotes). A bare expansion that is empty yields no
 * word, as field splitting does; one with blanks splits into several.
 */
export function expandWords(raw: readonly string[], lookup: Lookup): string[] {
  const out: string[] = [];
  for (const word of raw) {
    const parts = expandWord(word, lookup);
    out.push(...parts);
  }
  return out;
}

function expandWord(word: string, lookup: Lookup): string[] {
  let text = '';
  let quoted = false;
  let bare = ''; // unquoted expansions, split on blanks
  const fields: string[] = [];
  const flushBare = () => {
    if (!bare) return;
    const pieces = bare.split(/[ \t\n]+/);
    text += pieces[0];
    for (const p of pieces.slice(1)) {
      fields.push(text);
      text = p;
    }
    bare = '';
  };
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (c === "'") {
      flushBare();
      const close = word.indexOf("'", i + 1);
      text += word.slice(i + 1, close);
      quoted = true;
      i = close;
    } else if (c === '"') {
      flushBare();
      quoted = true;
      for (i++; i < word.length && word[i] !== '"'; i++) {
        if (word[i] === '\\' && '$`"\\\n'.includes(word[i + 1] ?? '')) text += word[++i];
        else if (word[i] === '$') {
          const [value, next] = parameter(word, i, lookup);
          text += value;
          i = next - 1;
        } else text += word[i];
      }
    } else if (c === '\\') {
      flushBare();
      text += word[++i] ?? '';
      quoted = true;
    } else if (c === '$') {
      const [value, next] = parameter(word, i, lookup);
      bare += value;
      i = next - 1;
    } else {
      flushBare();
      text += c;
    }
  }
  flushBare();
  if (text || quoted) fields.push(text);
  return fields;
}

/** The expansion of the parameter at `i` (a `$`) and the index after it; a lone `$` stays. */
function parameter(s: string, i: number, lookup: Lookup): [string, number] {
  const braced = /^\$\{([A-Za-z_][A-Za-z0-9_]*|\?)\}/.exec(s.slice(i));
  if (braced) return [lookup(braced[1]) ?? '', i + braced[0].length];
  const plain = /^\$([A-Za-z_][A-Za-z0-9_]*|\?)/.exec(s.slice(i));
  if (plain) return [lookup(plain[1]) ?? '', i + plain[0].length];
  return ['$', i + 1];
}
