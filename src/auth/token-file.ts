/**
 * Static bearer tokens as upstream's `--token-auth-file` (k8s.io/apiserver
 * plugin/pkg/authenticator/token/tokenfile): CSV lines `token,user,uid[,"group1,group2"]`;
 * blank lines and lines starting with `#` are skipped.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import type { UserInfo } from './user-info.js';

export interface TokenEntry {
  readonly token: string;
  readonly user: UserInfo;
}

/** Thrown for a malformed token file; the message names the line. */
export class TokenFileError extends Error {}

/** Split one CSV line, honouring double quotes ("" inside quotes is a quote). */
function splitCsv(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.map((s) => s.trim());
}

/** Parse token-file text. Throws TokenFileError for a line with fewer than 3 columns. */
export function parseTokenFile(text: string, source = 'token file'): TokenEntry[] {
  const entries: TokenEntry[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const cols = splitCsv(line);
    if (cols.length < 3 || !cols[0] || !cols[1])
      throw new TokenFileError(
        `${source}: line ${i + 1}: expected token,user,uid[,"groups"], got ${cols.length} columns`,
      );
    const groups = cols[3]
      ? cols[3]
          .split(',')
          .map((g) => g.trim())
          .filter(Boolean)
      : [];
    entries.push({
      token: cols[0],
      user: { name: cols[1], uid: cols[2], groups: [...groups, 'system:authenticated'] },
    });
  });
  return entries;
}

/** Read and parse a token file. Throws TokenFileError or the read error. */
export async function readTokenFile(path: string): Promise<TokenEntry[]> {
  return parseTokenFile(await readFile(path, 'utf8'), path);
}

/** Write entries as a token file (mode 0600). */
export async function writeTokenFile(path: string, entries: readonly TokenEntry[]): Promise<void> {
  const lines = entries.map(
    (e) =>
      `${e.token},${e.user.name},${e.user.uid},"${e.user.groups.filter((g) => g !== 'system:authenticated').join(',')}"`,
  );
  await writeFile(path, lines.join('\n') + '\n', { mode: 0o600 });
}

/** A random admin token (32 bytes, base64url) for user `admin` in `system:masters`. */
export function generateAdminToken(): TokenEntry {
  return {
    token: randomBytes(32).toString('base64url'),
    user: { name: 'admin', uid: 'admin', groups: ['system:masters', 'system:authenticated'] },
  };
}

/** Authenticates `Authorization: Bearer <token>` headers against a fixed set of tokens. */
export class TokenAuthenticator {
  private readonly entries: { token: Buffer; user: UserInfo }[];

  constructor(entries: readonly TokenEntry[]) {
    this.entries = entries.map((e) => ({ token: Buffer.from(e.token), user: e.user }));
  }

  /** The user of a valid bearer token, else null. Comparison is constant-time per token. */
  authenticate(authorization: string | undefined): UserInfo | null {
    const m = /^bearer\s+(.+)$/i.exec(authorization?.trim() ?? '');
    if (!m) return null;
    const presented = Buffer.from(m[1].trim());
    let found: UserInfo | null = null;
    for (const e of this.entries) {
      if (e.token.length === presented.length && timingSafeEqual(e.token, presented)) found = e.user;
    }
    return found;
  }
}
