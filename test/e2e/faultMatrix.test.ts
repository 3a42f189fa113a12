import { describe, expect, it } from 'vitest';
import { runFaultMatrix } from '../support/faultMatrix.js';
import { redisServerAvailable } from '../support/redisServer.js';

// `npm run bench:faults` runs the same with 1,000 asks over 30 s; this one is sized for CI.
describe.skipIf(!redisServerAvailable)('the fault matrix', () => {
	it(
		'250 asks while the upstream, Discord, the gateway and Redis fail: one final answer each, no crash, nothing lost',
		async () => {
			const report = await runFaultMatrix({ asks: 250, durationMs: 10_000 });
			const summary = JSON.stringify({ ...report, problems: report.problems.slice(0, 10) }, null, 1);
			expect(report.unanswered, summary).toEqual([]);
			expect(report.answeredTwice, summary).toEqual([]);
			expect(report.crashed, summary).toBe(false);
			expect(report.unhandledRejections, summary).toBe(0);
			expect(report.lost, summary).toEqual({ links: [], flags: [], settings: [] });
			// The faults did happen: each kind of outcome they cause was seen, and Discord refused some edits.
			expect(report.outcomes.shown, summary).toBeGreaterThan(100);
			expect(report.outcomes.hidden, summary).toBeGreaterThan(0);
			expect(report.outcomes['upstream error'], summary).toBeGreaterThan(0);
			expect(report.outcomes['store error'], summary).toBeGreaterThan(0);
			expect(report.discordEditFailures, summary).toBeGreaterThan(0);
			expect(Object.values(report.outcomes).reduce((a, b) => a + b, 0)).toBe(260);
		},
		180_000,
	);
});
