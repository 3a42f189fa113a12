import { resolve } from 'node:path';
import type { Logger } from '../logging/logger.js';
import type { RedisClient } from './redisBackend.js';
import { openGatedSqliteConnection } from './sqliteConnection.js';
import { prepareSqliteFile } from './sqliteFile.js';
import type { SqliteGate, SqliteQuery } from './sqliteGate.js';

/**
 * The one connection a process holds to the store named by STORE_URL, shared by keyv's plain records and the
 * atomic operations: one SQLite connection with one write gate, or one Redis client.
 */
export type StoreBackend =
	| { readonly kind: 'sqlite'; readonly gate: SqliteGate; readonly query: SqliteQuery; close(): Promise<void> }
	| { readonly kind: 'redis'; readonly client: RedisClient; close(): Promise<void> }
	| { readonly kind: 'memory'; close(): Promise<void> };

/** Parses `sqlite://PATH` into a filesystem path: relative to the working directory, or absolute with three slashes. */
export function sqlitePath(storeUrl: string): string {
	return resolve(storeUrl.slice('sqlite://'.length));
}

/** Opens the connection; a SQLite file is created private to Veil's user (see prepareSqliteFile). */
export async function openBackend(storeUrl: string, logger: Logger, timeoutMs: number): Promise<StoreBackend> {
	if (storeUrl.startsWith('sqlite://')) {
		const path = sqlitePath(storeUrl);
		prepareSqliteFile(path, logger);
		const connection = await openGatedSqliteConnection(path, timeoutMs);
		return { kind: 'sqlite', gate: connection.gate, query: connection.query, close: once(() => connection.close()) };
	}
	if (/^rediss?:\/\//.test(storeUrl)) {
		// Loaded only when the store is Redis: its client (every command of @redis/client) costs a SQLite deployment
		// about 2.5 MB of heap and more of resident memory for nothing.
		const { connectRedis } = await import('./redisBackend.js');
		const client = await connectRedis(storeUrl, logger);
		return { kind: 'redis', client, close: once(() => client.close().catch(() => undefined)) };
	}
	logger.warn('STORE_URL is memory://: links, flags and settings are lost when the bot stops');
	return { kind: 'memory', close: async () => undefined };
}

/** Both sides close the backend they share; the second close is the first one's. */
function once(close: () => Promise<void>): () => Promise<void> {
	let closing: Promise<void> | undefined;
	return () => (closing ??= close());
}
