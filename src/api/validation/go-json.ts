/**
 * The error Go's encoding/json gives when unmarshalling bytes into map[string]interface{}
 * (upstream ValidateSecret checks docker config secrets so): the scanner's syntax errors
 * ("invalid character 'x' looking for beginning of value", "unexpected end of JSON input")
 * and the type error for a top-level value that is not an object or null.
 */

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

class SyntaxFault extends Error {}

/** Go's quoteChar: a byte as the scanner names it in messages. */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const q = JSON.stringify(String.fromCharCode(c));
  return `'${q.slice(1, -1)}'`;
}

/** The error text of json.Unmarshal(data, &map[string]interface{}{}), or null when it succeeds. */
export function goJsonMapError(data: Uint8Array): string | null {
  let i = 0;
  const end = () => new SyntaxFault('unexpected end of JSON input');
  const bad = (context: string) => new SyntaxFault(`invalid character ${quoteChar(data[i])} ${context}`);
  const skip = () => {
    while (i < data.length && WS.has(data[i])) i++;
  };
  const peek = () => {
    if (i >= data.length) throw end();
    return data[i];
  };
  const digits = (context: string) => {
    if (!(peek() >= 0x30 && peek() <= 0x39)) throw bad(context);
    while (i < data.length && data[i] >= 0x30 && data[i] <= 0x39) i++;
  };
  const literal = (word: string) => {
    for (let k = 1; k < word.length; k++) {
      i++;
      if (peek() !== word.charCodeAt(k)) throw bad(`in literal ${word} (expecting ${quoteChar(word.charCodeAt(k))})`);
    }
    i++;
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      const c = peek();
      if (c === 0x22) return void i++;
      if (c === 0x5c) {
        i++;
        const e = peek();
        if (e === 0x75) {
          for (let k = 0; k < 4; k++) {
            i++;
            if (!/[0-9a-fA-F]/.test(String.fromCharCode(peek()))) throw bad('in \\u hexadecimal character escape');
          }
        } else if (!'"\\/bfnrt'.includes(String.fromCharCode(e))) throw bad('in string escape code');
        i++;
      } else if (c < 0x20) throw bad('in string literal');
      else i++;
    }
  };
  const value = (): string => {
    skip();
    const c = peek();
    if (c === 0x7b) {
      i++;
      skip();
      if (peek() === 0x7d) return (void i++, 'object');
      for (;;) {
        skip();
        if (peek() !== 0x22) throw bad('looking for beginning of object key string');
        string();
        skip();
        if (peek() !== 0x3a) throw bad('after object key');
        i++;
        value();
        skip();
        if (peek() === 0x2c) i++;
        else if (peek() === 0x7d) return (void i++, 'object');
        else throw bad('after object key:value pair');
      }
    }
    if (c === 0x5b) {
      i++;
      skip();
      if (peek() === 0x5d) return (void i++, 'array');
      for (;;) {
        value();
        skip();
        if (peek() === 0x2c) i++;
        else if (peek() === 0x5d) return (void i++, 'array');
        else throw bad('after array element');
      }
    }
    if (c === 0x22) return (string(), 'string');
    if (c === 0x74) return (literal('true'), 'bool');
    if (c === 0x66) return (literal('false'), 'bool');
    if (c === 0x6e) return (literal('null'), 'null');
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      if (c === 0x2d) {
        i++;
        if (!(peek() >= 0x30 && peek() <= 0x39)) throw bad('in numeric literal');
      }
      if (data[i] === 0x30) i++;
      else digits('in numeric literal');
      if (i < data.length && data[i] === 0x2e) {
        i++;
        digits('after decimal point in numeric literal');
      }
      if (i < data.length && (data[i] === 0x65 || data[i] === 0x45)) {
        i++;
        if (peek() === 0x2b || peek() === 0x2d) i++;
        digits('in exponent of numeric literal');
      }
      return 'number';
    }
    throw bad('looking for beginning of value');
  };
  try {
    const kind = value();
    skip();
    if (i < data.length) throw bad('after top-level value');
    if (kind === 'object' || kind === 'null') return null;
    return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
  } catch (err) {
    if (err instanceof SyntaxFault) return err.message;
    throw err;
  }
}
