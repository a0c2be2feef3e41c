/** Messages between the main thread and the embedded database's thread (pglite-worker.ts). */
export type PgLiteRequest =
  | { id: number; kind: 'query'; sql: string; params?: readonly unknown[]; /** COPY … FROM '/dev/blob' input */ bytes?: Uint8Array }
  | { id: number; kind: 'close' };

export type PgLiteReply =
  | { id: number; ok: true; rows?: Record<string, unknown>[]; affectedRows?: number; /** COPY … TO '/dev/blob' output */ bytes?: Uint8Array }
  | { id: number; ok: false; message: string; fields: Record<string, string> };
