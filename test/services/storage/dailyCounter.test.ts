import { describe } from 'vitest';
import { dailyCounterContract } from '../../support/contracts/dailyCounterContract.js';
import { testRedisUrl } from '../../support/testRedis.js';

describe.each([['redis', testRedisUrl]])('store counters on %s', (_kind, makeUrl) => dailyCounterContract(makeUrl));
