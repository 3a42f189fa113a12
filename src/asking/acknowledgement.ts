import type { Ticket } from '../admission/askLine.js';
import type { Refusal } from '../discord/refuseAlone.js';

/**
 * How an ask is acknowledged, chosen once (see acknowledge): the deferral sent once the reads allow the ask
 * (DeferAfterReads), or the one sent before them (EarlyDeferral). The path uses this contract alone.
 */
export interface Acknowledgement {
	/** Resolves once work started after it no longer delays an acknowledgement already sent. */
	sent(): Promise<void>;
	/**
	 * Acknowledges the ask (`ephemeral`: as the member asked), once its reads allow it; resolves when the line's
	 * "asks ahead" edits may change the acknowledgement.
	 */
	defer(ephemeral: boolean, ticket: Ticket): Promise<unknown>;
	/** Resolves once Discord has the acknowledgement (nothing edits it before), with whether the answer is ephemeral. */
	landed(): Promise<boolean>;
	/** Answers a refusal in the acknowledgement's place, to the member alone. */
	refuse(refusal: Refusal): Promise<void>;
	/** `signal`, or one that also aborts should Discord refuse the acknowledgement: the answer would have nowhere to go. */
	orRefused(signal: AbortSignal): AbortSignal;
	/** Resolves once the acknowledgement has landed or failed: the router's error answer goes only after. */
	settled(): Promise<unknown>;
}

/** Already so: one resolved promise for every ask, rather than one allocated per ask. */
export const AT_ONCE: Promise<void> = Promise.resolve();
