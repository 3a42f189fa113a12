import { describe, expect, it } from 'vitest';
import { DailyLimitError } from '../../../src/admission/admissionErrors.js';
import type { AskOutcome } from '../../../src/operations/metrics.js';
import { countAsk, type AskEnding, type AskTally } from '../../../src/usage/usageOutcome.js';

/** What one ending puts in the operators' metrics and in usage. */
function counted(ending: AskEnding, countsForMember: boolean): { metric: AskOutcome[]; tally: AskTally[] } {
	const metric: AskOutcome[] = [];
	const tally: AskTally[] = [];
	const deps = {
		metrics: { recordAsk: (outcome: AskOutcome) => void metric.push(outcome) },
		usage: { record: (ask: AskTally) => void tally.push(ask) },
	};
	countAsk(deps, { guildId: 'g1', channelId: 'c1', memberId: 'm1' }, ending, { countsForMember }, 1_000);
	return { metric, tally };
}

describe('countAsk: one ask, counted once by how it ended', () => {
	it('counts an ending in the metrics and in usage, for the member as far as the daily limit let it', () => {
		expect(counted('held:ratings', true)).toEqual({
			metric: ['hidden'],
			tally: [{ guildId: 'g1', channelId: 'c1', memberId: 'm1', outcome: 'held:ratings', countsForMember: true, at: 1_000 }],
		});
		expect(counted('refused:link', false).tally[0]).toMatchObject({ outcome: 'refused:link', countsForMember: false });
	});

	it('counts a cancelled ask apart for the operators and as not answered in usage', () => {
		const { metric, tally } = counted('cancelled', true);
		expect(metric).toEqual(['cancelled']);
		expect(tally[0]).toMatchObject({ outcome: 'failed', countsForMember: true });
	});

	it('counts an error by its kind: the daily limit a refusal, anything else a failure', () => {
		const limited = counted({ error: new DailyLimitError(3, 0) }, false);
		expect([limited.metric, limited.tally[0]?.outcome]).toEqual([['limited'], 'refused:limits']);
		const failed = counted({ error: new Error('boom') }, true);
		expect([failed.metric, failed.tally[0]?.outcome]).toEqual([['error'], 'failed']);
	});
});
