import type { MessageMentionOptions } from 'discord.js';

/**
 * Model text never pings anyone: the client's default for every message it sends (app/bot.ts), so no call names it.
 */
export const NO_MENTIONS: MessageMentionOptions = Object.freeze({ parse: [] });
