/**
 * Keys that appear more than once in one JSON object of a text (what upstream's strict JSON
 * decoder, sigs.k8s.io/json UnmarshalStrict with DisallowDuplicateFields, reports as
 * `duplicate field "<key>"`). JSON.parse keeps the last value silently; upstream refuses such a
 * body under `fieldValidation=Strict` and warns under Warn. One pass over the text, without
 * recursion; text that is not JSON gives some answer, never an exception.
 */

/** Each repeated key of each object, in the order met (a key seen three times is listed twice). */
export function jsonDuplicateKeys(raw: string): string[] {
  const out: string[] = [];
  // One entry per open object or array: the keys seen so far (objects) or null (arrays).
  const stack: Array<Set<string> | null> = [];
  let expectKey = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      let escaped = false;
      for (i++; i < raw.length; i++) {
        const d = raw.charCodeAt(i);
        if (d === 0x5c /* \ */) {
          escaped = true;
          i++;
        } else if (d === 0x22) break;
      }
      const keys = stack[stack.length - 1];
      if (expectKey && keys) {
        const key = escaped ? unescapeKey(raw.slice(start, i + 1)) : raw.slice(start + 1, i);
        if (keys.has(key)) out.push(key);
        else keys.add(key);
        expectKey = false;
      }
    } else if (c === 0x7b /* { */) {
      stack.push(new Set());
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      stack.push(null);
      expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = stack[stack.length - 1] !== null && stack.length > 0;
    }
  }
  return out;
}

/** A quoted key's text, its escapes resolved (as sent when they are malformed). */
function unescapeKey(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}
