import { askData } from './ask.js';
import { askVeilData } from './askVeil.js';
import { flaggedData } from './flagged.js';
import { linkData, unlinkData } from './link.js';
import { settingsData } from './settings.js';
import { usageData } from './usage.js';
import type { CommandData } from '../../src/app/commandData.js';

/** Every command's data, in registration order: what deploy-commands sends, with no handler loaded. */
export const commandData = [
	askData,
	linkData,
	unlinkData,
	usageData,
	flaggedData,
	settingsData,
	askVeilData,
] as const satisfies readonly CommandData[];
