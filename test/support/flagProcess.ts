/**
 * A process of its own that opens the store by URL, as a bot process does, and creates or decides flags, so a test
 * can run two of them against one store at once. Usage:
 *   flagProcess.ts <STORE_URL> <namespace> <key> create <guildId> <count>
 *   flagProcess.ts <STORE_URL> <namespace> <key> decide <guildId> <flagId> <released|dismissed|reviewed|removed|kept> <by>
 *   flagProcess.ts <STORE_URL> <namespace> <key> report <guildId> <answer message id> <reporter id>
 *   flagProcess.ts <STORE_URL> <namespace> <key> review <guildId> <flagId>
 * where <key> is the TOKEN_ENCRYPTION_KEY every process shares.
 * It prints `ready` once its store is open and starts on a line `go` on stdin; a release's action prints `posted`, a
 * removal's `deleted`;
 * the last line is the result as JSON.
 */
import { createInterface } from 'node:readline';
import { parseEncryptionKey } from '../../src/crypto/sealing.js';
import { createLogger } from '../../src/logging/logger.js';
import { FlagRepository, newFlagId, type FlagDecision } from '../../src/moderation/flagRepository.js';
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
} else if (command === 'report') {
	// As the bot's Report does: the answer's case claimed on its message, the member's report, the case made by the first.
	const [messageId = '', userId = ''] = rest;
	const answerCase = await flags.notes.caseOfAnswer(guildId, messageId, newFlagId());
	const added = await flags.notes.addReport(guildId, answerCase.id, userId, `note of ${userId}`);
	if (answerCase.isNew) {
		await flags.create(
			{
				guildId,
				channelId: '200000000000000001',
				userId: '300000000000000001',
				prompt: null,
				text: 'a shown answer',
				ratings: [],
				model: 'm',
				report: { messageIds: [messageId] },
			},
			new Date(),
			answerCase.id,
		);
	}
	result = { id: answerCase.id, isNew: answerCase.isNew, added };
} else if (command === 'review') {
	result = await flags.notes.askReview(guildId, rest[0] ?? '', 'please look again');
} else {
	const [flagId = '', kind = '', by = ''] = rest;
	const act =
		kind === 'released'
			? async () => void process.stdout.write('posted\n')
			: kind === 'removed'
				? async () => void process.stdout.write('deleted\n')
				: undefined;
	const outcome = await flags.decide(guildId, flagId, { kind: kind as FlagDecision, by }, act);
	result = { kind: outcome.kind, decision: outcome.kind === 'not-found' ? undefined : outcome.flag.decision };
}
process.stdout.write(`${JSON.stringify(result)}\n`);
await Promise.all([store.close(), atomic.close()]);
