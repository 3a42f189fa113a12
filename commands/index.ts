import ask from './ask.js';
import askVeil from './askVeil.js';
import flagged from './flagged.js';
import link from './link.js';
import settings from './settings.js';
import unlink from './unlink.js';

/** Every command module by file: the one list that routing and deploy-commands both read. */
export const commandModules: Readonly<Record<string, unknown>> = {
	'commands/ask.ts': ask,
	'commands/link.ts': link,
	'commands/unlink.ts': unlink,
	'commands/flagged.ts': flagged,
	'commands/settings.ts': settings,
	'commands/askVeil.ts': askVeil,
};
