import { deferOriginal } from '../discord/internals/originalResponse.js';
import { requestWritten } from '../discord/internals/requestWritten.js';
import type { Ticket } from '../admission/askLine.js';
import { refuseAlone, type Refusal } from '../discord/refuseAlone.js';
import { AT_ONCE, type Acknowledgement } from './acknowledgement.js';
import type { AskInteraction } from './askRequest.js';

/**
 * The deferral of an ask sent before the reads that decide it, for a member this process last found linked: the
 * acknowledgement then waits for nothing in the store, and the reads and the generation call go on during its round
 * trip ({@link sent}); edits wait until it {@link landed}. The reads still decide. Should they refuse the ask after all
 * (the member unlinked in another process, or a daily limit set there), {@link refuse} answers the member alone
 * and leaves nothing public behind.
 */
export class EarlyDeferral implements Acknowledgement {
	readonly #interaction: AskInteraction;
	readonly #deferring: Promise<boolean>;
	readonly #refused = new AbortController();

	/** `readVisibility`: see deferOriginal. */
	constructor(interaction: AskInteraction, ephemeral: boolean, readVisibility = false) {
		this.#interaction = interaction;
		this.#deferring = deferOriginal(interaction, ephemeral, readVisibility);
		// Whoever awaits the deferral meets its failure; until then it must not count as unhandled.
		this.#deferring.catch((error: unknown) => this.#refused.abort(error));
	}

	/**
	 * `signal`, which also aborts should Discord refuse the deferral: a generation call made while the deferral is on
	 * its way stops then, since its answer would have nowhere to go.
	 */
	orRefused(signal: AbortSignal): AbortSignal {
		return AbortSignal.any([signal, this.#refused.signal]);
	}

	/** Resolves once the deferral's request is on its way (see requestWritten): work started after it no longer delays it. */
	sent(): Promise<void> {
		return requestWritten();
	}

	/** Sent already: only the line's "asks ahead" edits, which change it, wait until Discord has it. */
	defer(_ephemeral: boolean, ticket: Ticket): Promise<unknown> {
		return ticket.waitedOnEntry ? this.#deferring : AT_ONCE;
	}

	/** Resolves once Discord has the deferral (nothing edits it before), with whether the answer is ephemeral. */
	landed(): Promise<boolean> {
		return this.#deferring;
	}

	/** Resolves once the deferral has landed or failed. */
	settled(): Promise<unknown> {
		return this.#deferring.catch(() => undefined);
	}

	/** Answers a refusal in the deferral's place, to the member alone. */
	async refuse(refusal: Refusal): Promise<void> {
		await refuseAlone(this.#interaction, await this.#deferring, refusal);
	}
}
