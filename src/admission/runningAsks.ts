import { AskCancelledError } from './admissionErrors.js';

/**
 * Where an ask is, as Cancel sees it: waiting in line, gathering what it is made of, generating (the service has
 * been reached: a cancel now still counts against the limits), or delivering (too late to cancel).
 */
export type AskStage = 'waiting' | 'gathering' | 'generating' | 'delivering';

/** What Cancel found of an ask in this process. */
export type CancelOutcome =
	/** Stopped; `reached`: the service had already been called, so the ask still counts. */
	| { readonly kind: 'cancelled'; readonly reached: boolean }
	| { readonly kind: 'tooLate' }
	/** Not running here: another process's, or one that ended (or died with a restart). */
	| { readonly kind: 'unknown' };

/** One running ask: the signal its line and its call take, and where it is. */
export class RunningAsk {
	readonly #controller = new AbortController();
	readonly signal: AbortSignal;
	stage: AskStage = 'waiting';
	/** Whether its message carries Cancel now (so a press may have come in another process; see askCancel.ts). */
	offeredCancel = false;

	constructor(parent: AbortSignal) {
		this.signal = AbortSignal.any([parent, this.#controller.signal]);
	}

	/** Whether Cancel stopped it. */
	get cancelled(): boolean {
		return this.#controller.signal.aborted;
	}

	/** @internal */
	cancel(): CancelOutcome {
		if (this.stage === 'delivering') return { kind: 'tooLate' };
		const reached = this.stage === 'generating';
		if (!this.#controller.signal.aborted) this.#controller.abort(new AskCancelledError());
		return { kind: 'cancelled', reached };
	}
}

/**
 * The asks this process runs, by the id of the interaction that asked, for Cancel. Discord sends a server's
 * interactions to its shard, and DMs to shard 0, so a press of Cancel reaches the process that runs the ask; a
 * press that finds nothing here leaves a record in the store instead (see askCancel.ts).
 */
export class RunningAsks {
	readonly #asks = new Map<string, RunningAsk>();

	/** Starts keeping an ask; {@link end} forgets it. */
	start(askId: string, parent: AbortSignal): RunningAsk {
		const ask = new RunningAsk(parent);
		this.#asks.set(askId, ask);
		return ask;
	}

	end(askId: string): void {
		this.#asks.delete(askId);
	}

	/** Stops the ask when it is here and not yet being delivered. Two presses: the second finds it cancelled already. */
	cancel(askId: string): CancelOutcome {
		return this.#asks.get(askId)?.cancel() ?? { kind: 'unknown' };
	}
}
