/**
 * Errors shown as cel-go shows them (common/errors.go ToDisplayString): `ERROR: <input>:1:6: msg`,
 * the source line and a caret under the column; and some of @bufbuild/cel's syntax errors
 * reworded as cel-go's ANTLR parser words them.
 */
import type { SourceError } from './syntax.js';

/** cel-go's error display: `ERROR: <input>:1:6: msg` then the source line and a caret. */
export function formatErrors(source: string, errors: readonly SourceError[]): string {
  const lines = source.split('\n');
  return [...errors]
    .sort((a, b) => a.offset - b.offset)
    .map((e) => {
      let line = 0;
      let col = e.offset;
      while (line < lines.length - 1 && col > lines[line]!.length) {
        col -= lines[line]!.length + 1;
        line++;
      }
      const snippet = (lines[line] ?? '').replace(/\t/g, ' ');
      let ind = '';
      const chars = [...snippet];
      let consumed = 0;
      for (const ch of chars) {
        if (consumed >= col) break;
        ind += ch.length > 1 || ch.charCodeAt(0) > 0x7f ? '\uff0e' : '.';
        consumed += ch.length;
      }
      const at = chars.length > ind.length ? chars[ind.length]! : '';
      ind += at.charCodeAt(0) > 0x7f ? '\uff3e' : '^';
      return `ERROR: <input>:${line + 1}:${col + 1}: ${e.message}\n | ${snippet}\n | ${ind}`;
    })
    .join('\n');
}

/** Some of @bufbuild/cel's syntax errors in the words cel-go's ANTLR parser uses. */
export function antlrWording(msg: string, source: string, offset: number): string {
  const eoi = /^found (\S+) but expecting end of input$/.exec(msg);
  if (eoi) return `mismatched input '${eoi[1]}' expecting <EOF>`;
  if (msg === 'reserved keyword') {
    const word = /^[A-Za-z_]+/.exec(source.slice(offset))?.[0] ?? '';
    return `mismatched input '${word}' expecting IDENTIFIER`;
  }
  return msg;
}
