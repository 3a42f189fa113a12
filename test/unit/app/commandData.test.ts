import { ApplicationCommandOptionType, type ChatInputCommandInteraction, type CommandInteractionOption } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { askData } from '../../../commands/definitions/ask.js';
import { settingsData } from '../../../commands/definitions/settings.js';
import { argumentsOf, runSubcommand, type SubcommandHandlers } from '../../../src/app/commandData.js';
import type { InteractionContext } from '../../../src/app/context.js';
import { UserInputError } from '../../../src/errors/veilError.js';

/** An interaction as discord.js resolves Discord's options: only what argumentsOf and runSubcommand read. */
const interactionWith = (data: CommandInteractionOption[]) => ({ options: { data } }) as unknown as ChatInputCommandInteraction;
const ctx = {} as InteractionContext;
const sub = (name: string, options: CommandInteractionOption[] = []): CommandInteractionOption => ({
	type: ApplicationCommandOptionType.Subcommand,
	name,
	options,
});

/** Handlers that record which ran, with what. */
function recording() {
	const ran: Array<[string, unknown]> = [];
	const record = (name: string) => async (_interaction: unknown, args: unknown) => void ran.push([name, args]);
	const handlers = {
		modlog: record('modlog'),
		limits: record('limits'),
		instructions: record('instructions'),
		notify: record('notify'),
		language: record('language'),
		mentions: record('mentions'),
	} satisfies SubcommandHandlers<typeof settingsData, ChatInputCommandInteraction>;
	return { ran, handlers };
}

describe('command data', () => {
	it("reads /ask's arguments by its data: the prompt, and undefined for what the member left out", () => {
		const args = argumentsOf(interactionWith([{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'Why?' }]), askData.options);
		expect(args).toEqual({ prompt: 'Why?', private: undefined, file: undefined });
		const prompt: string = args.prompt;
		expect(prompt).toBe('Why?');
	});

	it('refuses a registration that lacks a required option rather than running without it', () => {
		expect(() => argumentsOf(interactionWith([]), askData.options)).toThrow(/prompt/);
	});

	it('runs the chosen subcommand with its own arguments, a channel as Discord resolved it', async () => {
		const { ran, handlers } = recording();
		const channel = { id: '123', type: 0 };
		await runSubcommand(
			interactionWith([sub('instructions', [{ type: ApplicationCommandOptionType.Channel, name: 'channel', channel } as CommandInteractionOption])]),
			settingsData,
			handlers,
			ctx,
		);
		expect(ran).toEqual([['instructions', { text: undefined, channel, clear: undefined }]]);
		await runSubcommand(
			interactionWith([sub('limits', [{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 0 }])]),
			settingsData,
			handlers,
			ctx,
		);
		expect(ran[1]).toEqual(['limits', { asks_per_day: 0 }]);
	});

	it('answers a subcommand the data lacks as an unknown command, and never runs the first one instead', async () => {
		const { ran, handlers } = recording();
		for (const options of [[sub('purge')], [sub('__proto__')], []]) {
			const running = runSubcommand(interactionWith(options), settingsData, handlers, ctx);
			await expect(running).rejects.toBeInstanceOf(UserInputError);
			await expect(running).rejects.toMatchObject({ code: 'unknown_command' });
		}
		expect(ran).toEqual([]);
	});
});
