import { createClient, defaultReconnectStrategy } from '@keyv/redis';
import type { Logger } from '../logging/logger.js';
import { StoreError } from './storeError.js';

/**
 * Without the offline queue, a command issued while the connection is down fails at once instead of waiting to be
 * replayed after a reconnection, long after the member was told it failed. Reconnection itself goes on.
 */
function newClient(storeUrl: string) {
	return createClient({ url: storeUrl, disableOfflineQueue: true, socket: { reconnectStrategy: defaultReconnectStrategy } });
}

export type RedisClient = ReturnType<typeof newClient>;

/** Connects the process's one Redis client, giving up after `connectTimeoutMs`. */
export async function connectRedis(storeUrl: string, logger: Logger, connectTimeoutMs = 5000): Promise<RedisClient> {
	const client = newClient(storeUrl);
	client.on('error', (error: unknown) => logger.warn({ err: error, store: 'redis' }, 'store connection error'));
	let timer: NodeJS.Timeout | undefined;
	try {
		await Promise.race([
			client.connect(),
			new Promise<never>((_, reject) => {
				timer = setTimeout(() => reject(new StoreError(`Redis did not accept a connection within ${connectTimeoutMs} ms`)), connectTimeoutMs);
			}),
		]);
	} catch (error) {
		client.destroy();
		throw error;
	} finally {
		clearTimeout(timer);
	}
	return client;
}
