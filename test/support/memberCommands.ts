import { ApplicationCommandOptionType } from 'discord.js';
import type { APIUser } from 'discord-api-types/v10';
import type { Harness } from './harness.js';

/** A member's /ask through the local Discord, and its answer. */
export const ask = (harness: Harness, user: APIUser, prompt: string) =>
	harness.discord
		.slashCommand({ name: 'ask', user, options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }] })
		.waitForAnswer(10_000);

/** A member's /unlink, and its answer. */
export const unlink = (harness: Harness, user: APIUser) => harness.discord.slashCommand({ name: 'unlink', user }).waitForAnswer(10_000);

/** A member's /link and the form's submit with `email` (password `pw`), and the submit's answer. */
export async function submitLink(harness: Harness, user: APIUser, email: string) {
	await harness.discord.slashCommand({ name: 'link', user }).waitForAnswer();
	return harness.discord.modalSubmit({ customId: 'link:submit', fields: { email, password: 'pw' }, user }).waitForAnswer(10_000);
}
