import { z } from 'zod';
import { customIdCodec } from '../discord/customId.js';
import { FLAG_DECISIONS } from '../moderation/storedFlag.js';

/** A record's id as its button carries it: looked up as given, so one that names nothing is answered as gone. */
const recordId = z.string();

/**
 * Every component id Veil sends, by the command whose handler it reaches. A command registers handlers for its
 * own; any other folder builds a button for that handler from here, so no command imports another (the shared ask
 * path shows /link's button, /ask's Follow up and /flagged's View reply).
 */
export const customIds = {
	ask: {
		/** Follow up on an answer: `ask:followup:<conversation id>`. */
		followUp: customIdCodec('ask:followup', z.tuple([recordId])),
		/** Its form's submit. */
		followUpForm: customIdCodec('ask:followup-form', z.tuple([recordId])),
	},
	askVeil: {
		/** The question form: `Ask Veil:question:<key of the message's text>`. */
		question: customIdCodec('Ask Veil:question', z.tuple([recordId])),
	},
	link: {
		/** Opens the link form, from an answer that asks a member to link first. */
		open: customIdCodec('link:open', z.tuple([])),
		/** The form's submit: it names nobody, so whoever submits it is linked. */
		submit: customIdCodec('link:submit', z.tuple([])),
	},
	flagged: {
		/** Previous/Next: `flagged:page:<page>:<moderator id>`, turned by that moderator only. */
		page: customIdCodec('flagged:page', z.tuple([z.coerce.number().int(), z.string()])),
		/** The mod-log's View reply. */
		view: customIdCodec('flagged:view', z.tuple([recordId])),
		release: customIdCodec('flagged:release', z.tuple([recordId])),
		dismiss: customIdCodec('flagged:dismiss', z.tuple([recordId])),
		review: customIdCodec('flagged:review', z.tuple([recordId])),
		/** A decision's form submitted: `flagged:decide:<decision>:<flag id>`. */
		decide: customIdCodec('flagged:decide', z.tuple([z.enum(FLAG_DECISIONS), recordId])),
	},
} as const;
