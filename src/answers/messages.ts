import { automodMessages, moderationMessages, settingsMessages } from './moderationMessages.js';

/**
 * Every sentence a member or moderator reads in an answer, keyed by purpose, so wording is reviewed (and can later
 * be localized) in one place. Layout (embeds, field names, list lines) stays with the views that build it.
 * A function takes what the sentence names; none is ever given a secret. What moderators and admins read is in
 * moderationMessages.ts, under `moderation` and `settings`. Sentences already in every member's language live in the
 * catalogues instead (src/i18n/locales/en-US.json's `members`: the "asks ahead" line, the link-first answer).
 */
export const messages = {
	operator: {
		/** Printed on stderr, in one plain line, when Discord refuses the bot token (the token itself never). */
		tokenRejected: 'Discord rejected DISCORD_TOKEN (401 Unauthorized): copy the bot token again from the Developer Portal.',
		/** Printed by deploy-commands after a guild-scoped registration. */
		guildOnlyRegistration:
			'These commands work in that one server only and cannot be installed to a member\'s account: for user installs, DMs and group DMs, run deploy-commands again without DISCORD_GUILD_ID (global registration).',
	},
	general: {
		restarting: 'Veil is restarting right now. Please try again in a moment.',
		unknownCommand: "This command isn't part of this version of Veil.",
		unknownComponent: 'This button is no longer in use. Please run the command again.',
		unsupportedInteraction: "Veil doesn't handle this kind of interaction.",
		serversOnly: 'This works in servers only.',
		missingPermission: (permission: string) => `You need the ${permission} permission in this server to do this.`,
		incident: (incident: string) =>
			`Something went wrong on Veil's side. If it keeps happening, give a server admin this reference: \`${incident}\`.`,
	},
	storage: {
		unavailable: "Veil's storage isn't answering right now. Please try again in a minute.",
		unconfirmedWrite: "Veil's storage isn't answering right now, so your change may not have been saved. Please try again in a minute.",
	},
	ask: {
		emptyPrompt: 'Your prompt is empty. Type a question after /ask.',
		promptTooLong: (max: number) => `Your prompt is too long: at most ${max} characters.`,
		emptyAnswer: 'The model returned an empty answer. Try rephrasing your prompt.',
		cutShort: '✂️ Cut short: the model reached its length limit.',
		attached: (fileName: string) => `The whole answer is attached as ${fileName}.`,
		/** `keptFor`: who reviews the flag (none: it could not be stored). */
		hiddenHeadline: (keptFor: 'server' | 'operators' | undefined) =>
			"🛡️ **This answer was hidden.** The model's safety checks did not clear it, so Veil kept it back" +
			(keptFor === 'server' ? " for this server's moderators to review." : keptFor === 'operators' ? " for Veil's operators to review." : '.'),
		/** Outside Veil's servers without an operators' server: nothing is kept. */
		hiddenWithheld:
			"🛡️ **This answer was withheld.** The model's safety checks did not clear it. Outside servers that added Veil there are no moderators to review it, so it was not kept and cannot be released.",
		/** An answer that cleared the model's checks but matched one of the server's AutoMod rules. */
		hiddenByRuleHeadline: (kept: boolean) =>
			"🛡️ **This answer was hidden.** It matched one of this server's AutoMod rules, so Veil kept it back" +
			(kept ? " for this server's moderators to review." : '.'),
		/** By DM, where the server chose to tell members: their held answer was dismissed, not released. */
		dismissedNotice: (caseNumber: number | undefined, reason: string | undefined) =>
			`🛡️ A moderator reviewed the answer Veil held back from you${caseNumber === undefined ? '' : ` (case #${caseNumber})`} ` +
			'and dismissed it: it will not be shown.' +
			(reason === undefined ? '' : `\n**Reason:** ${reason}`),
		hiddenWhy: (reasons: readonly string[]) => `**Why:** ${reasons.join(' · ')}`,
		hiddenReference: (flagId: string) => `Reference for moderators: \`${flagId}\``,
		/** The reasons beside the ratings in `hiddenWhy`, by the verdict's reason; `label` is an `upstreamLabel`. */
		hiddenReasons: {
			'no-candidate': 'the model returned no answer',
			'prompt-ratings-missing': 'the safety ratings of the prompt were missing',
			'reply-ratings-missing': 'the safety ratings of the answer were missing',
			'category-missing': 'a safety category was not rated',
			'category-duplicated': 'a safety category was rated twice',
			'unknown-category': 'an unrecognised safety category was rated',
			'block-reason': (label: string) => `the service blocked the prompt (${label})`,
			'finish-reason': (label: string | undefined) => `the model stopped early (${label ?? 'no reason given'})`,
			/** `ruleName` is already escaped; the keyword that matched is the moderators' alone. */
			automod: (ruleName: string) => `the server's AutoMod rule “${ruleName}”`,
		},
	},
	automod: {
		/** A prompt (its files, the message it quotes) held by a server's AutoMod rule that blocks messages. */
		promptBlocked: (ruleName: string) =>
			`🛡️ This server's AutoMod rule “${ruleName}” does not allow this question, so Veil did not send it.`,
	},
	admission: {
		/** A member's second ask while their first is still waiting or being answered. */
		stillAnswering: 'Veil is still answering your last question. Wait for that answer, then ask again.',
		/** Past ASK_MEMBER_PER_MINUTE; `retryAt` is a Discord timestamp (`<t:UNIX:R>`). */
		rateLimited: (perMinute: number, retryAt: string) =>
			`You're asking quickly: at most ${perMinute} question${perMinute === 1 ? '' : 's'} a minute. You can ask again ${retryAt}.`,
		busy: 'Veil is busy right now: too many questions are waiting. Please try again in a minute.',
		/** Past `/settings limits asks_per_day`; `resetsAt` is a Discord timestamp. */
		dailyLimit: (limit: number, resetsAt: string) =>
			`You've reached this server's limit of ${limit} question${limit === 1 ? '' : 's'} a day. It resets ${resetsAt}.`,
		/** Past ASK_USER_PER_DAY, outside servers that installed Veil; `resetsAt` is a Discord timestamp. */
		userDailyLimit: (limit: number, resetsAt: string) =>
			`You've reached your limit of ${limit} question${limit === 1 ? '' : 's'} a day outside servers that added Veil. It resets ${resetsAt}.`,
		/** The breaker is open: nothing is sent upstream for a while. */
		serviceDown: "The model's service is not answering right now, so Veil is not sending it questions for a moment. Please try again in a minute.",
	},
	conversation: {
		followUpButton: 'Follow up',
		formTitle: 'Follow up',
		promptLabel: 'Your follow-up',
		promptHint: 'Veil answers with this conversation in mind.',
		emptyPrompt: 'Your follow-up is empty. Press Follow up again and type a question.',
		expired: 'This conversation has expired, so Veil no longer has it. Start a new one with /ask.',
		filesLabel: 'Files (optional)',
		filesHint: (max: number) => `Up to ${max} text files or PDFs for Veil to read with your follow-up.`,
		/** At most 100 characters (a label's description): the names are cut to fit. */
		filesNotKept: (names: readonly string[]) => {
			const list = names.join(', ');
			return `Too large to keep: ${list.length > 50 ? `${list.slice(0, 49)}…` : list}. Attach again to ask about it.`;
		},
	},
	askVeil: {
		noText: 'That message has no text for Veil to read. Pick a message with text, or ask with /ask.',
		formTitle: 'Ask Veil about this message',
		questionLabel: 'Your question',
		questionHint: "Veil sends the message's text, quoted, then your question.",
		emptyQuestion: 'Your question is empty. Run Ask Veil on the message again and type a question.',
		formExpired: 'This form has expired. Run Ask Veil on the message again.',
	},
	files: {
		/** Listed in a refusal of a kind Veil does not read. */
		kinds: 'text files (plain text, logs, code, Markdown, JSON, XML, YAML, CSV) in UTF-8, and PDFs',
		unsupported: (name: string, kinds: string) => `Veil can't read \`${name}\`: it reads ${kinds}. Nothing was sent.`,
		tooManyFiles: (max: number) => `Veil reads at most ${max} files with one question. Nothing was sent.`,
		tooLarge: (name: string, maxMiB: number) => `\`${name}\` is too large: Veil reads files of at most ${maxMiB} MiB of that kind. Nothing was sent.`,
		unavailable: (name: string) => `Veil couldn't download \`${name}\` from Discord, so nothing was sent. Please try again.`,
		slow: (name: string) => `Downloading \`${name}\` from Discord took too long, so nothing was sent. Please try again.`,
		notUtf8: (name: string) => `\`${name}\` isn't UTF-8 text, so Veil can't read it. Nothing was sent.`,
		pdfUnreadable: (name: string) => `Veil couldn't read the text of \`${name}\`: the PDF is damaged, encrypted or has no text layer. Nothing was sent.`,
		pdfTooManyPages: (name: string, max: number) => `\`${name}\` has more than ${max} pages, which is more than Veil reads. Nothing was sent.`,
		pdfTooSlow: (name: string) => `Reading the text of \`${name}\` took too long. Nothing was sent.`,
		tooLong: (name: string, max: string) => `\`${name}\` is too long: Veil reads at most ${max} characters of a file. Send the part you are asking about. Nothing was sent.`,
		tooLongTogether: (max: string) => `Your files are too long together: Veil reads at most ${max} characters of files with one question. Nothing was sent.`,
	},
	upstream: {
		unavailable: "The model's service isn't answering right now. Please try again in a minute.",
		invalid: "The model's service sent an answer Veil couldn't read. Please try again.",
		refused: "The model's service refused your linked account. Run /link again to refresh it; your current link is kept until then.",
		rejected: "The model's service couldn't take that request. Try rewording or shortening it.",
		/** 401/403 without linked tokens: Veil's own API key was refused, and /link would not help the member. */
		keyRefused: "The model's service refused Veil's request. Please let the server's moderators know.",
	},
	link: {
		formTitle: 'Link your account',
		emailLabel: 'Email',
		emailHint: 'The email of your account. Only you see this form.',
		passwordLabel: 'Password',
		passwordHint: 'Used once to log in, then forgotten: Veil never stores it.',
		badEmail: "That doesn't look like an email address. Nothing was changed.",
		badPassword: (max: number) => `The password must be 1 to ${max} characters. Nothing was changed.`,
		linked: (maskedEmail: string) =>
			`✅ Linked to \`${maskedEmail}\`. /ask now uses your account. Run /unlink at any time to remove the link.`,
		unlinked: 'Your account is unlinked: Veil no longer keeps its tokens or your masked email.',
		nothingToUnlink: 'You had no linked account, so there was nothing to remove.',
		unreadableLink: 'Your saved link could not be read. Please run /link again.',
		/** Past the per-member link limit; `retryAt` is a Discord timestamp (`<t:UNIX:R>`). */
		memberRateLimited: (limit: number, retryAt: string) =>
			`You've tried to link ${limit} times in the last 15 minutes, so Veil won't try again for now. Nothing was changed. You can try again ${retryAt}.`,
		/** Past LINK_PER_PROCESS_PER_MINUTE: many members are linking at once. */
		processRateLimited: (retryAt: string) => `Veil is handling many link attempts right now, so yours wasn't tried. Nothing was changed. You can try again ${retryAt}.`,
	},
	login: {
		invalidCredentials: "That email and password weren't accepted. Your earlier link, if any, is unchanged.",
		unavailable: "The account service isn't answering right now; nothing was changed. Please try again later.",
		unreadable: "The account service answered in a way Veil couldn't read, so nothing was changed. Please try again later.",
		rateLimited: (seconds: number) => `Too many login attempts. Please wait about ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
	},
	/** How the service's safety values read, to members and moderators alike. */
	ratings: {
		categories: {
			HARM_CATEGORY_HARASSMENT: 'Harassment',
			HARM_CATEGORY_SEXUALLY_EXPLICIT: 'Sexually explicit',
			HARM_CATEGORY_HATE_SPEECH: 'Hate speech',
			HARM_CATEGORY_DANGEROUS_CONTENT: 'Dangerous content',
		} as Readonly<Record<string, string>>,
		/** A value that is not one of the service's enum values, so it is never shown. */
		unrecognised: '(unrecognised)',
		empty: '(empty)',
		promptBlocked: (label: string) => `Prompt blocked: ${label}`,
		/** `label` undefined: the service gave no finish reason. */
		finishReason: (label: string | undefined) => `Finish reason: ${label ?? '(none)'}`,
	},
	moderation: moderationMessages,
	settings: settingsMessages,
	automodModeration: automodMessages,
} as const;
