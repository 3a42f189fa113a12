import {
	ApplicationCommandOptionType,
	ApplicationCommandType,
	type ApplicationIntegrationType,
	type Attachment,
	type ChannelType,
	type ChatInputCommandInteraction,
	type CommandInteractionOption,
	type InteractionContextType,
} from 'discord.js';
import { UserInputError } from '../errors/veilError.js';
import { sentence } from '../i18n/translate.js';
import type { InteractionContext } from './context.js';

/*
 * A command's data: plain typed objects, `as const`, read by deploy-commands without any handler, and by each
 * handler for its arguments' types. Only what Discord needs to route and check an option is here; its name and
 * description as members read them, English included, are the catalogues' (src/i18n/locales/*.json), added at
 * registration by commandRegistrations. A name here is the key of the catalogue's entry.
 */

interface Named {
	readonly name: string;
	readonly required?: boolean;
}

/** An option that carries a value, as Discord takes it (its description comes from the catalogue). */
export type ValueOptionData = Named &
	(
		| {
				readonly type: ApplicationCommandOptionType.String;
				readonly min_length?: number;
				readonly max_length?: number;
				readonly choices?: readonly { readonly value: string }[];
		  }
		| { readonly type: ApplicationCommandOptionType.Integer; readonly min_value?: number; readonly max_value?: number }
		| { readonly type: ApplicationCommandOptionType.Boolean }
		| { readonly type: ApplicationCommandOptionType.Channel; readonly channel_types?: readonly ChannelType[] }
		| { readonly type: ApplicationCommandOptionType.Attachment }
		| { readonly type: ApplicationCommandOptionType.Role }
	);

export interface SubcommandData {
	readonly type: ApplicationCommandOptionType.Subcommand;
	readonly name: string;
	readonly options?: readonly ValueOptionData[];
}

interface Installed {
	readonly name: string;
	readonly contexts: readonly InteractionContextType[];
	readonly integration_types: readonly ApplicationIntegrationType[];
	readonly default_member_permissions?: string;
}

/** A slash command: options with values, or subcommands (never both, as Discord has it). */
export type SlashCommandData = Installed & {
	readonly type: ApplicationCommandType.ChatInput;
	readonly options?: readonly ValueOptionData[] | readonly SubcommandData[];
};

/** A message command (a message's Apps menu): a name, no description or options. */
export type MessageCommandData = Installed & { readonly type: ApplicationCommandType.Message };

export type CommandData = SlashCommandData | MessageCommandData;

/** What a channel option arrives as: a server's channel, or the partial one Discord resolves. */
export type ChannelArgument = NonNullable<CommandInteractionOption['channel']>;

/** What a role option arrives as: the server's role, as Discord resolves it. */
export type RoleArgument = NonNullable<CommandInteractionOption['role']>;

// A choice's value arrives as the string Discord sent: the handler checks it is one of the choices.
type ValueOf<Option extends ValueOptionData> = Option extends { readonly type: ApplicationCommandOptionType.String }
	? string
	: Option extends { readonly type: ApplicationCommandOptionType.Integer }
		? number
		: Option extends { readonly type: ApplicationCommandOptionType.Boolean }
			? boolean
			: Option extends { readonly type: ApplicationCommandOptionType.Channel }
				? ChannelArgument
				: Option extends { readonly type: ApplicationCommandOptionType.Role }
					? RoleArgument
					: Attachment;

/** The arguments a handler gets, by option name: a required one always, another `undefined` when left out. */
export type ArgumentsOf<Options extends readonly ValueOptionData[] | undefined> = Options extends readonly ValueOptionData[]
	? {
			readonly [Option in Options[number] as Option['name']]: Option extends { readonly required: true }
				? ValueOf<Option>
				: ValueOf<Option> | undefined;
		}
	: Readonly<Record<string, never>>;

type SubcommandsOf<Command extends SlashCommandData> = Extract<NonNullable<Command['options']>[number], SubcommandData>;

/** The names of a command's subcommands. */
export type SubcommandName<Command extends SlashCommandData> = SubcommandsOf<Command>['name'];

/** The arguments of one subcommand, typed from its data. */
export type SubcommandArguments<Command extends SlashCommandData, Name extends SubcommandName<Command>> = ArgumentsOf<
	Extract<SubcommandsOf<Command>, { readonly name: Name }>['options']
>;

/** One subcommand's handler, its arguments typed from the data. */
export type SubcommandHandler<Interaction, Options extends readonly ValueOptionData[] | undefined> = (
	interaction: Interaction,
	args: ArgumentsOf<Options>,
	ctx: InteractionContext,
) => Promise<void>;

/** A handler for each subcommand of `Command`, and no other: a subcommand added to the data needs its handler. */
export type SubcommandHandlers<Command extends SlashCommandData, Interaction> = {
	readonly [Name in SubcommandName<Command>]: SubcommandHandler<Interaction, Extract<SubcommandsOf<Command>, { readonly name: Name }>['options']>;
};

/** The value Discord sent for one option, by its type. */
function valueOf(option: ValueOptionData, given: CommandInteractionOption): unknown {
	if (option.type === ApplicationCommandOptionType.Channel) return given.channel ?? undefined;
	if (option.type === ApplicationCommandOptionType.Attachment) return given.attachment ?? undefined;
	if (option.type === ApplicationCommandOptionType.Role) return given.role ?? undefined;
	return given.value ?? undefined;
}

function readArguments(options: readonly ValueOptionData[] | undefined, given: readonly CommandInteractionOption[] | undefined): unknown {
	const args: Record<string, unknown> = {};
	for (const option of options ?? []) {
		const found = given?.find((each) => each.name === option.name);
		const value = found === undefined ? undefined : valueOf(option, found);
		// Discord sends every required option; one missing is a mismatch between this data and what is registered.
		if (value === undefined && option.required === true) throw new Error(`The required option ${option.name} is missing`);
		args[option.name] = value;
	}
	return args;
}

/** A command's arguments, read by its data: `{ prompt, private, file }` for /ask. */
export function argumentsOf<Options extends readonly ValueOptionData[] | undefined>(
	interaction: ChatInputCommandInteraction,
	options: Options,
): ArgumentsOf<Options> {
	return readArguments(options, interaction.options.data) as ArgumentsOf<Options>;
}

/**
 * Runs the handler of the subcommand the member chose, with its arguments. A subcommand the data does not have (a
 * registration older than this code) is answered as an unknown command, never as another subcommand.
 */
export async function runSubcommand<Command extends SlashCommandData, Interaction extends ChatInputCommandInteraction>(
	interaction: Interaction,
	command: Command,
	handlers: SubcommandHandlers<Command, Interaction>,
	ctx: InteractionContext,
): Promise<void> {
	const chosen = interaction.options.data.find((option) => option.type === ApplicationCommandOptionType.Subcommand);
	const sub = (command.options ?? []).find(
		(option): option is SubcommandData => option.type === ApplicationCommandOptionType.Subcommand && option.name === chosen?.name,
	);
	if (!chosen || !sub || !Object.hasOwn(handlers, sub.name)) {
		throw new UserInputError({ answer: sentence('members.general.unknownCommand'), code: 'unknown_command' });
	}
	const handler = handlers[sub.name as SubcommandName<Command>] as SubcommandHandler<Interaction, SubcommandData['options']>;
	await handler(interaction, readArguments(sub.options, chosen.options) as ArgumentsOf<SubcommandData['options']>, ctx);
}

/** Whether the data is a message command's (its own namespace on Discord: `Ask Veil`). */
export const isMessageCommandData = (data: CommandData): data is MessageCommandData => data.type === ApplicationCommandType.Message;
