/**
 * A separate process that opens the store by URL and adds one to a counter `times` times, all at once, printing
 * the counts it got back as JSON: two of these at once show whether processes sharing a store ever get the same
 * count. Usage: counterProcess.ts <STORE_URL> <namespace> <key> <times>
 */
import { createLogger } from '../../src/logging/logger.js';
import { openAtomicStore } from '../../src/storage/openStorage.js';

const [storeUrl = '', namespace = '', key = '', times = '1'] = process.argv.slice(2);
const store = await openAtomicStore(storeUrl, createLogger('silent'), { namespace, operationTimeoutMs: 10_000 });
const expiresAt = Date.now() + 3_600_000;
const counts = await Promise.all(Array.from({ length: Number(times) }, () => store.increment(key, expiresAt)));
process.stdout.write(JSON.stringify(counts));
await store.close();
