import { describe } from 'vitest';
import { answerActionsAcrossProcesses } from '../../support/contracts/answerActionsAcrossProcessesContract.js';
import { RedisServer } from '../../support/redisServer.js';

describe('answer actions while a second process takes the shards over, on one Redis', () =>
	answerActionsAcrossProcesses(async () => {
		const redis = await RedisServer.start({ persistent: false });
		return { url: redis.url, stop: () => redis.stop() };
	}));
