/**
 * The message of a caught value, for logs and error texts: an Error's (or any object's)
 * `message`, else the value as a string. Lets `catch (err)` blocks read `err` (typed `unknown`)
 * without a cast.
 */
export function errorMessage(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'message' in err) return String(err.message);
  return String(err);
}

/** The `code` of a caught system error (`ENOSPC`, `EPIPE`), as text; undefined when it has none. */
export function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  return typeof err.code === 'string' || typeof err.code === 'number' ? String(err.code) : undefined;
}

/** A caught value as an Error (an Error as it is; anything else wrapped). */
export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
