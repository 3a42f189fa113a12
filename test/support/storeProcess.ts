/**
 * A separate process that opens the store by URL and writes or reads one record, so a test can prove that what
 * one process stored, the next one reads. Usage: storeProcess.ts <STORE_URL> <namespace> set|get <key> [json]
 */
import { createLogger } from '../../src/logging/logger.js';
import { openStore } from '../../src/storage/openStorage.js';

const [storeUrl = '', namespace = '', action = '', key = '', value = ''] = process.argv.slice(2);
const store = await openStore(storeUrl, createLogger('silent'), { namespace });
if (action === 'set') {
	await store.set('settings', key, JSON.parse(value));
} else {
	process.stdout.write(JSON.stringify((await store.get('settings', key)) ?? null));
}
await store.close();
