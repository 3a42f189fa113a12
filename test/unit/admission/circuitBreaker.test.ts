import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CircuitBreaker, isServiceFailure, type Pass } from '../../../src/admission/circuitBreaker.js';
import { UpstreamError } from '../../../src/generation/upstreamError.js';
import { sentence } from '../../../src/i18n/translate.js';

function clock() {
	let now = 1_000_000;
	return { now: () => now, advance: (ms: number) => (now += ms) };
}

function failTimes(breaker: CircuitBreaker, times: number): void {
	for (let i = 0; i < times; i++) {
		const pass = breaker.tryPass() as Pass;
		expect(pass.mayProceed()).toBe(true);
		pass.failed();
	}
}

describe('CircuitBreaker', () => {
	it('opens after 5 failures in a row, refusing every ask for 30 s', () => {
		const time = clock();
		const breaker = new CircuitBreaker({ now: time.now });
		failTimes(breaker, 4);
		expect(breaker.state).toBe('closed');
		failTimes(breaker, 1);
		expect(breaker.state).toBe('open');
		expect(breaker.tryPass()).toBeUndefined();
		time.advance(29_999);
		expect(breaker.tryPass()).toBeUndefined();
		time.advance(1);
		expect(breaker.state).toBe('half-open');
	});

	it('a success in between starts the count again', () => {
		const breaker = new CircuitBreaker({ now: clock().now });
		failTimes(breaker, 4);
		breaker.tryPass()?.succeeded();
		failTimes(breaker, 4);
		expect(breaker.state).toBe('closed');
	});

	it('then lets exactly one ask through; its success closes the breaker', () => {
		const time = clock();
		const breaker = new CircuitBreaker({ now: time.now });
		failTimes(breaker, 5);
		time.advance(30_000);
		const trial = breaker.tryPass() as Pass;
		expect(trial.mayProceed()).toBe(true);
		expect(breaker.tryPass()).toBeUndefined();
		trial.succeeded();
		expect(breaker.state).toBe('closed');
		expect(breaker.tryPass()?.mayProceed()).toBe(true);
	});

	it("the trial's failure opens it for another 30 s", () => {
		const time = clock();
		const breaker = new CircuitBreaker({ now: time.now });
		failTimes(breaker, 5);
		time.advance(30_000);
		breaker.tryPass()?.failed();
		expect(breaker.state).toBe('open');
		time.advance(29_999);
		expect(breaker.tryPass()).toBeUndefined();
		time.advance(1);
		expect(breaker.tryPass()).toBeDefined();
	});

	it('a trial given up without asking (refused, aborted) lets the next ask be the trial', () => {
		const time = clock();
		const breaker = new CircuitBreaker({ now: time.now });
		failTimes(breaker, 5);
		time.advance(30_000);
		breaker.tryPass()?.abandon();
		const next = breaker.tryPass();
		expect(next?.mayProceed()).toBe(true);
	});

	it('asks let in before it opened do not go upstream while it is open, and their outcomes change nothing', () => {
		const time = clock();
		const breaker = new CircuitBreaker({ now: time.now });
		const early = [breaker.tryPass(), breaker.tryPass()] as Pass[];
		failTimes(breaker, 5);
		expect(early[0]?.mayProceed()).toBe(false);
		early[0]?.succeeded();
		expect(breaker.state).toBe('open');
		time.advance(30_000);
		// Half-open: the first of them to be checked becomes the one trial.
		expect(early[1]?.mayProceed()).toBe(true);
		expect(breaker.tryPass()).toBeUndefined();
		early[1]?.succeeded();
		expect(breaker.state).toBe('closed');
	});

	it('an outcome reported twice counts once', () => {
		const breaker = new CircuitBreaker({ now: clock().now });
		const pass = breaker.tryPass() as Pass;
		for (let i = 0; i < 5; i++) pass.failed();
		expect(breaker.state).toBe('closed');
	});

	it('property: the breaker opens exactly when the last 5 outcomes since it closed are failures, and never lets two trials out', () => {
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.constantFrom('ok', 'fail', 'abandon'), fc.nat(20_000)), { maxLength: 120 }), (steps) => {
				const time = clock();
				const breaker = new CircuitBreaker({ now: time.now });
				let failuresInRow = 0;
				let openUntil: number | undefined;
				for (const [outcome, wait] of steps) {
					time.advance(wait);
					const pass = breaker.tryPass();
					const expectOpen = openUntil !== undefined && time.now() < openUntil;
					expect(pass === undefined).toBe(expectOpen);
					if (!pass) continue;
					expect(pass.mayProceed()).toBe(true);
					const trial = openUntil !== undefined;
					if (trial) expect(breaker.tryPass()).toBeUndefined();
					if (outcome === 'abandon') {
						pass.abandon();
						continue;
					}
					if (outcome === 'ok') {
						pass.succeeded();
						failuresInRow = 0;
						openUntil = undefined;
					} else {
						pass.failed();
						failuresInRow = trial ? 5 : failuresInRow + 1;
						if (failuresInRow >= 5) {
							openUntil = time.now() + 30_000;
							failuresInRow = 0;
						}
					}
					expect(breaker.state).toBe(openUntil === undefined ? 'closed' : 'open');
				}
			}),
		);
	});
});

describe('isServiceFailure', () => {
	const error = (status?: number, code: UpstreamError['code'] = 'upstream_unavailable') =>
		new UpstreamError({ code, message: 'm', answer: sentence('members.upstream.unavailable'), status });

	it('counts 5xx, time-outs and network errors (no status), not 429, 4xx, unreadable bodies or other errors', () => {
		expect(isServiceFailure(error(500))).toBe(true);
		expect(isServiceFailure(error(503))).toBe(true);
		expect(isServiceFailure(error(undefined))).toBe(true);
		expect(isServiceFailure(error(429))).toBe(false);
		expect(isServiceFailure(error(401, 'upstream_refused'))).toBe(false);
		expect(isServiceFailure(error(400, 'upstream_rejected'))).toBe(false);
		expect(isServiceFailure(error(200, 'upstream_invalid'))).toBe(false);
		expect(isServiceFailure(new Error('abort'))).toBe(false);
	});
});
