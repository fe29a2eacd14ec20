/**
 * Rows of the resource table added for issue 30 (see the comment at the end of
 * src/resources/table.ts for which groups each file serves); each row's kind lives in its own
 * folder under src/resources/.
 */
import type { ResourceDefinition } from '../../registry/types.js';

export const ROWS: readonly ResourceDefinition[] = [];
