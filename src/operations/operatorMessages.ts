/**
 * What Veil tells its operators, on stderr and in deploy-commands' output. These stay English: operators read logs,
 * which are searched and pasted into bug reports as they are; members and moderators read the catalogues.
 */
export const operatorMessages = {
	/** Printed on stderr, in one plain line, when Discord refuses the bot token (the token itself never). */
	tokenRejected: 'Discord rejected DISCORD_TOKEN (401 Unauthorized): copy the bot token again from the Developer Portal.',
	/** Printed by deploy-commands after a guild-scoped registration. */
	guildOnlyRegistration:
		"These commands work in that one server only and cannot be installed to a member's account: for user installs, DMs and group DMs, run deploy-commands again without DISCORD_GUILD_ID (global registration).",
} as const;
