/**
 * An upper bound on the nesting depth of a YAML text, from the `yaml` package's lexer alone
 * (an iterative state machine that survived 20,000 nested flow collections in our
 * measurements), so that its recursive composer never sees a document that could exhaust the
 * stack. Flow collections count one level per open `[`/`{`; block structure counts one level
 * per indentation column in use on the current line (block sequence and explicit-key
 * indicators, scalars, anchors, tags and flow starts each open a level at their column). A
 * block sequence may share its parent mapping key's column, so the bound doubles the block
 * count. Over-counts are harmless: the exact depth is checked after parsing. Pure; no I/O.
 */
import { Lexer } from 'yaml';

const SCALAR = '\x1f';
const DOCUMENT = '\x02';
const FLOW_END = '\x18';

/** Tokens that start a node (or a level of block structure) at their column; `[`/`{` also open a flow level. */
function opensLevel(token: string): boolean {
  const c = token[0];
  return token === '-' || token === '?' || token === SCALAR || token === '[' || token === '{' || '&!*\'"|>'.includes(c);
}

/**
 * An upper bound on the nesting depth of `text` (2 x block levels + open flow collections),
 * stopping as soon as it passes `max` (then a value above `max` is answered).
 */
export function yamlDepthBound(text: string, max: number): number {
  const blocks: number[] = []; // columns of the open block levels, increasing
  let flow = 0;
  let deepest = 0;
  let offset = 0;
  let lineStart = 0;
  let previous = '';
  for (const token of new Lexer().lex(text)) {
    const column = offset - lineStart;
    // Block structure is laid out by columns outside flow collections only. The scalar marker
    // opens the level; the scalar's text follows it at the same column.
    if (flow === 0 && previous !== SCALAR && opensLevel(token)) {
      while (blocks.length > 0 && blocks[blocks.length - 1] > column) blocks.pop();
      if (blocks.length === 0 || blocks[blocks.length - 1] < column) blocks.push(column);
    }
    if (token === '[' || token === '{') flow++;
    else if ((token === ']' || token === '}') && flow > 0) flow--;
    deepest = Math.max(deepest, 2 * blocks.length + flow);
    if (deepest > max) return deepest;
    previous = token;
    if (token === SCALAR || token === DOCUMENT || token === FLOW_END) continue; // no width
    offset += token.length;
    const nl = token.lastIndexOf('\n');
    if (nl >= 0) lineStart = offset - token.length + nl + 1;
  }
  return deepest;
}
