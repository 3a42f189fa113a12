import { describe, expect, it } from 'vitest';
import { AskCancelledError } from '../../../src/admission/admissionErrors.js';
import { RunningAsk } from '../../../src/admission/runningAsks.js';

/** What the router aborts every interaction with when the process stops. */
class ShuttingDownError extends Error {}

describe('a running ask', () => {
	it('stops when its asker cancels it, and says where it was', () => {
		const parent = new AbortController();
		const ask = new RunningAsk(parent.signal);
		ask.stage = 'generating';
		expect(ask.cancel()).toEqual({ kind: 'cancelled', reached: true });
		expect(ask.cancelled).toBe(true);
		expect(ask.signal.aborted).toBe(true);
		expect(ask.signal.reason).toBeInstanceOf(AskCancelledError);
		expect(ask.cancelledAt).toBe('generating');
		// A second press finds it stopped where the first did.
		ask.stage = 'delivering';
		expect(ask.cancel()).toEqual({ kind: 'tooLate' });
		expect(ask.cancelledAt).toBe('generating');
	});

	it('stops with the process, which is not a cancel by its asker', () => {
		const parent = new AbortController();
		const ask = new RunningAsk(parent.signal);
		parent.abort(new ShuttingDownError());
		expect(ask.signal.aborted).toBe(true);
		expect(ask.signal.reason).toBeInstanceOf(ShuttingDownError);
		expect(ask.cancelled).toBe(false);
	});

	it('starts stopped when the process already is, and a cancel then still counts as the asker’s', () => {
		const parent = new AbortController();
		parent.abort(new ShuttingDownError());
		const ask = new RunningAsk(parent.signal);
		expect(ask.signal.reason).toBeInstanceOf(ShuttingDownError);
		expect(ask.cancel()).toEqual({ kind: 'cancelled', reached: false });
		expect(ask.cancelled).toBe(true);
		// The first reason stays: the process is stopping.
		expect(ask.signal.reason).toBeInstanceOf(ShuttingDownError);
	});

	it('is too late to cancel once its answer is going out', () => {
		const ask = new RunningAsk(new AbortController().signal);
		ask.stage = 'delivering';
		expect(ask.cancel()).toEqual({ kind: 'tooLate' });
		expect(ask.cancelled).toBe(false);
		expect(ask.signal.aborted).toBe(false);
	});
});
