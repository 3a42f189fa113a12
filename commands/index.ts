import type { Command } from '../src/app/command.js';
import ask from './ask.js';
import askVeil from './askVeil.js';
import flagged from './flagged.js';
import link from './link.js';
import settings from './settings.js';
import unlink from './unlink.js';
import usage from './usage.js';

/**
 * Every command module by file: what the bot routes by, each checked as a Command by the compiler. deploy-commands
 * reads ./definitions instead, which loads no handler.
 */
export const commandModules = {
	'commands/ask.ts': ask,
	'commands/link.ts': link,
	'commands/unlink.ts': unlink,
	'commands/usage.ts': usage,
	'commands/flagged.ts': flagged,
	'commands/settings.ts': settings,
	'commands/askVeil.ts': askVeil,
} as const satisfies Readonly<Record<string, Command>>;
