import type { AskTally } from '../../src/usage/usageOutcome.js';

/**
 * The asks one process counts in the usage tests: in channel 201, two members shown twice each and one held by
 * the ratings; in channel 202, one refused by a limit (not a day's ask of theirs) and one failed; and the member
 * `shared`, whom every process counts, shown once in 202. Members are named after the process, so two processes
 * have 3 + 3 + 1 members between them.
 */
export function usageMix(guildId: string, process: string): Array<Omit<AskTally, 'at'>> {
	const ask = (memberId: string, channelId: string, outcome: AskTally['outcome'], countsForMember = true) => ({
		guildId,
		channelId,
		memberId,
		outcome,
		countsForMember,
	});
	return [
		ask(`${process}-a`, '201', 'shown'),
		ask(`${process}-a`, '201', 'shown'),
		ask(`${process}-b`, '201', 'shown'),
		ask(`${process}-b`, '201', 'shown'),
		ask(`${process}-b`, '201', 'held:ratings'),
		ask(`${process}-c`, '202', 'refused:limits', false),
		ask(`${process}-c`, '202', 'failed'),
		ask('shared', '202', 'shown'),
	];
}
