/**
 * The sentences moderators and server admins read: flags, their views and decisions, the mod-log and its setting.
 * Part of `messages` (see messages.ts), in a file of their own so that each stays short enough to review at once.
 */

/** A retention period in the largest whole-ish unit, e.g. `30 days`, `1.5 hours`. */
function duration(days: number): string {
	const units: Array<[number, string]> = [[1, 'day'], [1 / 24, 'hour'], [1 / 1440, 'minute'], [1 / 86_400, 'second']];
	const [size, unit] = units.find(([size]) => days >= size) ?? units[units.length - 1]!;
	const count = Number((days / size).toFixed(1));
	return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

const keptFor = (retentionDays: number) => `Hidden replies are kept ${duration(retentionDays)}.`;

export const moderationMessages = {
	noSuchFlag: 'No flag with that id in this server.',
	notPageOwner: 'Only the moderator who ran this /flagged list can turn its pages. Run /flagged list to get your own.',
	buttons: {
		previous: 'Previous',
		next: 'Next',
		release: 'Release',
		dismiss: 'Dismiss',
		review: 'Mark reviewed',
		/** On a mod-log post. */
		viewReply: 'View reply',
	},
	/** `/flagged list` with nothing the moderator may see. */
	listEmpty: (retentionDays: number) => `No flagged replies from channels you moderate are kept right now. ${keptFor(retentionDays)}`,
	listFooter: (total: number, retentionDays: number) =>
		`${total} from channels you moderate, newest first. ${keptFor(retentionDays)} Open one with /flagged view id.`,
	/** In place of the rating lines when the service left some out. */
	ratingsMissing: 'Ratings incomplete or missing',
	/** The same, in a list line of `/flagged list`. */
	ratingsIncomplete: 'ratings incomplete',
	noticeLink: (url: string) => `[Jump to the member's notice](${url})`,
	noNotice: 'Asked privately: there is no public notice.',
	noNoticeOutside: "Asked outside Veil's servers: the notice was the member's alone.",
	/** The view's field for an Ask Veil prompt, which holds another member's message. */
	quotedLabel: 'Quotes a message by',
	quotedAuthor: (userId: string, name: string) => `<@${userId}> (${name}): the prompt holds their words, quoted`,
	/** A flag sealed with a key that is neither TOKEN_ENCRYPTION_KEY nor its previous value. */
	unreadable: 'The prompt and the reply cannot be read: they were sealed with a key Veil no longer has.',
	erased: 'The prompt, its files and the reply were erased when this flag was dismissed.',
	attachedInFull: (fileNames: readonly string[]) => `Cut short here; attached in full as ${fileNames.join(' and ')}.`,
	/** The field naming the files a hidden answer's prompt came with. */
	filesField: 'Files sent with the prompt',
	/** Below a prompt that is not cut, when its files' text is attached with it. */
	filesAttached: (fileName: string) => `The files' text is attached with the prompt as ${fileName}.`,
	/** `status` as the view shows it, e.g. `released by <@1> <t:…:R>`. */
	alreadyDecided: (status: string) => `This flag was already ${status}, so nothing was done.`,
	releaseErased: 'This flag has no text left to release.',
	releaseFailed: (channelId: string, reason: string) =>
		`Veil could not post the answer in <#${channelId}>: ${reason}. Nothing was released; the flag is still pending.`,
	released: (where: string, partial: { posted: number; parts: number } | undefined) =>
		`🔓 Released: the answer is posted ${where}.` +
		(partial && partial.posted < partial.parts ? ` Only ${partial.posted} of its ${partial.parts} parts could be posted.` : ''),
	releasedWhere: {
		channel: (channelId: string, replying: boolean) => `in <#${channelId}>${replying ? ", replying to the member's notice" : ''}`,
		directMessage: (userId: string) => `to <@${userId}> alone, in a direct message, as they asked privately`,
		outside: (userId: string) => `to <@${userId}> alone, in a direct message, as they asked outside Veil's servers`,
	},
	/** Where a flag from outside Veil's servers was asked: the kind of place, never a foreign server's name. */
	outsidePlace: {
		dm: 'Outside servers · a DM with Veil',
		'group-dm': 'Outside servers · a group DM',
		server: 'Outside servers · a server without Veil',
	},
	/** Heads an answer released by DM that was asked outside Veil's servers. */
	releasedOutsideHeader:
		"🔓 **Released by Veil's operators after review**: the answer to what you asked Veil outside its servers was hidden by mistake. Only you can see it here.",
	/** Names what Veil lacks in the flag's channel, in Discord's words, for `releaseFailed`. */
	veilLacks: (missing: readonly string[]) => `Veil lacks ${missing.join(', ')} there`,
	/** Opens a released answer in its channel; `userId` is named when there is no notice to reply to. */
	releasedHeader: (userId?: string) =>
		`🔓 **Released by a moderator after review**${userId ? ` (an answer to <@${userId}>` : ' (this answer'} was hidden by mistake)`,
	/** Opens the direct message that releases a private ask. */
	releasedPrivatelyHeader: (channelId: string) =>
		`🔓 **Released by a moderator after review**: the answer to your private /ask in <#${channelId}> was hidden by mistake. Only you can see it here.`,
	directMessagesClosed: (userId: string) =>
		`Veil could not send the answer to <@${userId}>: they asked privately, so it goes to them alone in a direct message, ` +
		"and they don't accept direct messages from Veil. Nothing was released; the flag is still pending. " +
		'Once they allow direct messages from this server, press Release again.',
	directMessageFailed: (userId: string, reason: string) =>
		`Veil could not send the answer to <@${userId}> in a direct message: ${reason}. Nothing was released; the flag is still pending.`,
	dismissed: '🗑️ Dismissed: the prompt and the reply are erased; the record stays, listed as dismissed, until it expires.',
	reviewed: '✅ Marked reviewed.',
	/** Why a post to a channel failed, as the `reason` of the sentences above and of `settings.modlogFailed`. */
	sendFailure: {
		channelGone: 'the channel no longer exists',
		lostAccess: 'Veil has lost access to the channel',
		noPermission: 'Veil lacks permission to post there',
		unknown: 'unknown error',
		modlogNotSendable: 'the mod-log channel is not a channel Veil can send to',
		channelNotSendable: 'the original channel is not one Veil can send to',
	},
	/** After a dismissal, when the member could not be told by DM; nothing else failed. */
	dismissalNotSent: (userId: string, closed: boolean) =>
		closed
			? `<@${userId}> does not accept direct messages from Veil, so they were not told of the dismissal.`
			: `Veil could not tell <@${userId}> of the dismissal by direct message.`,
	/** `/flagged stats`: what its counters say; `reasons` and `median` come already worded. */
	stats: {
		title: (days: number) => `Held answers · the last ${days} day${days === 1 ? '' : 's'}`,
		none: (days: number) => `No answers were held in the last ${days} day${days === 1 ? '' : 's'}.`,
		held: (count: number, reasons: readonly string[]) => `**Held:** ${count}${reasons.length > 0 ? ` (${reasons.join(', ')})` : ''}`,
		reasonOther: 'other reasons',
		reasonAutomod: 'AutoMod rules',
		decisions: (released: number, dismissed: number, reviewed: number, pending: number) =>
			`**Decisions:** ${released} released, ${dismissed} dismissed, ${reviewed} reviewed, ${pending} pending`,
		releaseRate: (percent: number | undefined) =>
			`**Release rate:** ${percent === undefined ? 'none decided yet' : `${percent}% of decisions`} (how often the hold was too cautious)`,
		median: (under: string | undefined) => `**Median time to a decision:** ${under ?? 'none decided yet'}`,
		footer: "Counted per day as answers are held and decided, server-wide; a flag counts under each reason it was held for. The median is given by bucket.",
	},
	/** The view's field holding the reason a moderator gave with their decision. */
	reasonField: 'Reason',
	/** The form a decision button opens. */
	decisionForm: {
		title: { released: 'Release this answer', dismissed: 'Dismiss this flag', reviewed: 'Mark this flag reviewed' },
		label: 'Reason (optional)',
		/** At most 100 characters (a label's description). */
		hint: "Kept with the decision for moderators; a dismissal's may reach the member, if the server chose so.",
	},
	modlog: {
		title: 'Reply hidden by the safety filter',
		footer: 'Use View reply or /flagged view to read it. Only members with Manage Messages can.',
	},
} as const;

/** What Veil posts to a rule's alert channel; never the prompt. Names and keywords arrive escaped. */
export const automodMessages = {
	alert: (userId: string, ruleName: string, keyword: string, blocked: boolean) =>
		`🛡️ AutoMod rule **${ruleName}** matched a question <@${userId}> asked Veil (keyword ${keyword}). ` +
		(blocked ? 'Veil did not send it to the model.' : 'The rule does not block, so Veil answered it.'),
	/** The reason of a flag held by a rule, as moderators read it. */
	flagReason: (ruleName: string, keyword: string) => `AutoMod rule “${ruleName}” (keyword ${keyword})`,
	/** A line of `/settings limits`. */
	applied: (count: number | undefined) =>
		count === undefined
			? "AutoMod: Veil applies this server's AutoMod keyword rules to questions and answers (read at the next question)."
			: `AutoMod: Veil applies this server's **${count}** AutoMod keyword rule${count === 1 ? '' : 's'} to questions and answers.`,
	notApplied:
		"AutoMod: **not applied**. Give Veil the Manage Server permission to have it read this server's AutoMod keyword rules " +
		'and apply them to questions and answers.',
} as const;

export const settingsMessages = {
	modlogMissingPermissions: (channelId: string, missing: readonly string[]) =>
		`Veil can't post reports in <#${channelId}>: it lacks ${missing.join(', ')} there. ` +
		'Grant those in the channel settings and run this again. Nothing was changed.',
	modlogUnknownChannel: "Veil can't see that channel. Nothing was changed.",
	modlogOn: (channelId: string) =>
		`✅ Mod-log: <#${channelId}>. Veil posts a report there for every reply it hides: who, where, when and why, never the text; ` +
		'moderators read the text with its View reply button.',
	modlogOff: (previousChannelId: string | undefined) =>
		`Mod-log: **off**${previousChannelId ? ` (it was <#${previousChannelId}>)` : ''}. ` +
		'Hidden replies are still kept for /flagged. Run `/settings modlog channel:` to turn reports on.',
	/** Shown once, by the next `/settings modlog`; `when` is a Discord timestamp, `reason` a `sendFailure`. */
	modlogFailed: (when: string, reason: string) =>
		`⚠️ The last mod-log report failed ${when}: ${reason}. The flag itself was kept; find it with /flagged list.`,
	limitsShown: (asksPerDay: number | undefined) =>
		asksPerDay === undefined
			? 'Daily limit: **none**. Members may ask as often as they like, within Veil\'s per-minute pace. ' +
				'Set one with `/settings limits asks_per_day:`.'
			: `Daily limit: **${asksPerDay} question${asksPerDay === 1 ? '' : 's'}** per member a day (Follow up and Ask Veil count), ` +
				'starting again at midnight UTC. Members with Manage Server are not limited. `asks_per_day:0` turns it off.',
	limitsChanged: (asksPerDay: number | undefined) =>
		asksPerDay === undefined
			? '✅ Daily limit: **off**. Members may ask as often as they like, within Veil\'s per-minute pace.'
			: `✅ Daily limit: **${asksPerDay} question${asksPerDay === 1 ? '' : 's'}** per member a day in this server (Follow up and Ask Veil count), ` +
				'starting again at midnight UTC. Members with Manage Server are not limited.',
	notifyShown: (on: boolean) =>
		on
			? 'Dismissals: members **are told** by direct message when a moderator dismisses their held answer, with the reason if one was given. `/settings notify dismissals:false` stops it.'
			: 'Dismissals: members are **not** told when a moderator dismisses their held answer. `/settings notify dismissals:true` tells them by direct message, with the reason if one was given.',
	notifyChanged: (on: boolean) =>
		on
			? '✅ Members are now told by direct message when their held answer is dismissed, with the reason if one was given.'
			: '✅ Members are no longer told when their held answer is dismissed.',
	limitsNegative: 'The daily limit is a number of questions, 0 or more (0: no limit). Nothing was changed.',
	/** `where` is `instructionsServer` or `instructionsChannel(id)`; the text itself follows, in an embed. */
	instructionsServer: 'this server',
	instructionsChannel: (channelId: string) => `<#${channelId}>`,
	instructionsShown: (where: string) => `Instructions for ${where}, sent ahead of every question asked there:`,
	instructionsNone: (where: string) => `No instructions are set for ${where}. Set some with \`/settings instructions text:\`.`,
	/** After the server's own: the channels with instructions of their own, which replace the server's there. */
	instructionsChannels: (channelIds: readonly string[]) => `Channels with their own instructions (replacing the server's there): ${channelIds.map((id) => `<#${id}>`).join(', ')}.`,
	/** Shown for a channel without its own: whether the server's apply there. */
	instructionsServerApplies: (set: boolean) => (set ? "The server's instructions apply there." : 'The server has none either.'),
	instructionsSet: (where: string) =>
		`✅ Instructions for ${where} set. Veil sends them ahead of every question asked there (members never see them in an answer), ` +
		"and the model's service rates them with every ask:",
	instructionsCleared: (where: string) => `✅ Instructions for ${where} removed.`,
	instructionsTooLong: (max: number) => `Instructions hold at most ${max} characters. Nothing was changed.`,
	instructionsEmpty: 'The instructions are empty. Nothing was changed.',
	instructionsTextAndClear: 'Give either `text` or `clear:True`, not both. Nothing was changed.',
} as const;
