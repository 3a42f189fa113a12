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
		/** Report a shown answer, for anyone who sees it: `ask:report:<conversation id>` (`-` when none was saved). */
		report: customIdCodec('ask:report', z.tuple([recordId])),
		/** Its form's submit. */
		reportForm: customIdCodec('ask:report-form', z.tuple([recordId])),
		/** Ask for a review, on a held notice, for its asker: `ask:review:<server of the flag>:<flag id>`. */
		askReview: customIdCodec('ask:review', z.tuple([z.string(), recordId])),
		/** Its form's submit. */
		askReviewForm: customIdCodec('ask:review-form', z.tuple([z.string(), recordId])),
		/**
		 * Regenerate: `ask:regen:<version shown>:<newest version>`, each a conversation id. The newest version's record
		 * lists the message's versions; a claim on it makes two presses one call.
		 */
		regenerate: customIdCodec('ask:regen', z.tuple([recordId, recordId])),
		/** ◀ ▶: `ask:version:<version to show>:<newest version>`. */
		version: customIdCodec('ask:version', z.tuple([recordId, recordId])),
		/** Where ◀ ▶ stand (`2/3`), a button never enabled: `ask:versions:<newest version>`. */
		versionsAt: customIdCodec('ask:versions', z.tuple([recordId])),
		/** 👍 / 👎: `ask:rate:<up|down>:<conversation id of the version rated>`. */
		rate: customIdCodec('ask:rate', z.tuple([z.enum(['up', 'down']), recordId])),
		/** Continue in a thread, on a public answer, for its asker: `ask:thread:<conversation id>`. */
		thread: customIdCodec('ask:thread', z.tuple([recordId])),
		/** Cancel, while an ask waits or is generated: `ask:cancel:<the ask's interaction id>:<asker id>`. */
		cancel: customIdCodec('ask:cancel', z.tuple([recordId, z.string()])),
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
		/** A reported answer's Remove and Keep. */
		remove: customIdCodec('flagged:remove', z.tuple([recordId])),
		keep: customIdCodec('flagged:keep', z.tuple([recordId])),
		/** A decision's form submitted: `flagged:decide:<decision>:<flag id>`. */
		decide: customIdCodec('flagged:decide', z.tuple([z.enum(FLAG_DECISIONS), recordId])),
	},
	usage: {
		/** /usage server's Export: `usage:export:<days>`, for whoever manages the server when pressed. */
		export: customIdCodec('usage:export', z.tuple([z.coerce.number().int().positive()])),
	},
} as const;
