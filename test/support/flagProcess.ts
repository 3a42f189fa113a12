/**
 * A process of its own that opens the store by URL, as a bot process does, and creates or decides flags, so a test
 * can run two of them against one store at once. Usage:
 *   flagProcess.ts <STORE_URL> <namespace> <key> create <guildId> <count>
 *   flagProcess.ts <STORE_URL> <namespace> <key> decide <guildId> <flagId> <released|dismissed|reviewed> <by>
 * where <key> is the TOKEN_ENCRYPTION_KEY every process shares.
 * It prints `ready` once its store is open and starts on a line `go` on stdin; a release's action prints `posted`;
 * the last line is the result as JSON.
 */
import { createInterface } from 'node:readline';
import { parseEncryptionKey } from '../../src/crypto/sealing.js';
import { createLogger } from '../../src/logging/logger.js';
import { FlagRepository, type FlagDecision } from '../../src/moderation/flagRepository.js';
import { openStorage } from '../../src/storage/openStorage.js';

const [storeUrl = '', namespace = '', key = '', command = '', guildId = '', ...rest] = process.argv.slice(2);
const logger = createLogger('silent');
const options = { namespace, operationTimeoutMs: 5000 };
const { store, atomic } = await openStorage(storeUrl, logger, options);
const flags = new FlagRepository(store, atomic, 30, { current: parseEncryptionKey(key) });

process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) if (line === 'go') break;

let result: unknown;
if (command === 'create') {
	const count = Number(rest[0]);
	const created = await Promise.all(
		Array.from({ length: count }, (_, n) =>
			flags.create({
				guildId,
				channelId: '200000000000000001',
				userId: '300000000000000001',
				prompt: `prompt ${n}`,
				text: `text ${n}`,
				ratings: [],
				model: 'textmodel-pro',
			}),
		),
	);
	result = created.map((flag) => flag.id);
} else {
	const [flagId = '', kind = '', by = ''] = rest;
	const act = kind === 'released' ? async () => void process.stdout.write('posted\n') : undefined;
	const outcome = await flags.decide(guildId, flagId, { kind: kind as FlagDecision, by }, act);
	result = { kind: outcome.kind, decision: outcome.kind === 'not-found' ? undefined : outcome.flag.decision };
}
process.stdout.write(`${JSON.stringify(result)}\n`);
await Promise.all([store.close(), atomic.close()]);
