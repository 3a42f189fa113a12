/**
 * A separate process that opens the store by URL and counts a known mix of asks in one server, all at once, then
 * waits for its writes: two of these at once show whether processes sharing a store ever lose one another's counts.
 * Usage: usageProcess.ts <STORE_URL> <namespace> <hash key, base64> <guild id> <name of this process>
 */
import { createLogger } from '../../src/logging/logger.js';
import { openAtomicStore } from '../../src/storage/openStorage.js';
import { UsageCounts } from '../../src/usage/usageCounts.js';
import { usageMix } from './usageMix.js';

const [storeUrl = '', namespace = '', key = '', guildId = '', name = ''] = process.argv.slice(2);
const atomic = await openAtomicStore(storeUrl, createLogger('silent'), { namespace, operationTimeoutMs: 10_000 });
const usage = new UsageCounts({ atomic, retentionDays: 30, log: createLogger('silent'), hashKey: Buffer.from(key, 'base64') });
const now = Date.now();
for (const ask of usageMix(guildId, name)) usage.record({ ...ask, at: now });
// A read waits for this process's writes.
await usage.server(guildId, 1, now);
process.stdout.write('counted');
await atomic.close();
