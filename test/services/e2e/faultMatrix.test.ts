import { describe, expect, it } from 'vitest';
import { runFaultMatrix } from '../../support/faultMatrix.js';
import { askMetricCounts } from '../../support/faultMix.js';

// `npm run bench:faults` runs the same with 1,000 asks over 30 s; this one is sized for CI.
describe('the fault matrix', () => {
	it('250 asks while the upstream, Discord, the gateway and Redis fail: one final answer each, no crash, nothing lost', async () => {
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

		// The bot's own metrics, read over HTTP just before it stopped, agree with what the members saw: each /ask
		// (the run's 250 and every one after it) counted once, under the outcome its member saw.
		const { metrics } = report;
		const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
		expect(sum(report.askOutcomes), summary).toBe(250 + report.asksAfterRun);
		expect(metrics.asks, summary).toEqual(askMetricCounts(report.askOutcomes));
		// Each /link counted once: the members' before the run, all linked, and the ten during it.
		expect(sum(metrics.links), summary).toBe(report.members + 10);
		expect(metrics.links.linked, summary).toBe(report.members + (report.lateLinkOutcomes.linked ?? 0));
		// Redis did stop: every storage answer a member got (some, as checked above) was a failed store operation.
		const storageAnswers = (report.askOutcomes['store error'] ?? 0) + (report.lateLinkOutcomes['store error'] ?? 0);
		expect(metrics.storeErrors, summary).toBeGreaterThanOrEqual(storageAnswers);
		expect(metrics.storeErrors, summary).toBeGreaterThan(0);
		// Each shown or hidden answer came from a generation call, and each call sent the stand-in at least one attempt.
		expect(metrics.generationCalls, summary).toBeGreaterThanOrEqual(metrics.asks.shown + metrics.asks.hidden);
		expect(metrics.generationCalls, summary).toBeLessThanOrEqual(report.generationRequests);
		// Nothing left in line or upstream, and ready again once the faults were over.
		expect([metrics.queueLength, metrics.inFlight], summary).toEqual([0, 0]);
		expect(metrics.ready, summary).toBe(true);
	}, 180_000);
});
