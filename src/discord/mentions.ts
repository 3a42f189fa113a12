import type { MessageMentionOptions } from 'discord.js';

/** Model text never pings anyone: every message Veil sends carries this. */
export const NO_MENTIONS: MessageMentionOptions = Object.freeze({ parse: [] });
