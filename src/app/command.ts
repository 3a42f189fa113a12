import type {
	ApplicationCommandType,
	ButtonInteraction,
	ChatInputCommandInteraction,
	MessageContextMenuCommandInteraction,
	ModalSubmitInteraction,
	RESTPostAPIChatInputApplicationCommandsJSONBody,
	RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import type { CustomIdPrefix } from '../discord/customId.js';
import type { InteractionContext } from './context.js';

/** A button a command owns, found by its `custom_id` prefix; `payload` is the rest of the id, split at `:`. */
export interface ButtonHandler {
	readonly prefix: CustomIdPrefix;
	handle(interaction: ButtonInteraction, payload: readonly string[], ctx: InteractionContext): Promise<void>;
}

/** A modal a command owns, found like a button. */
export interface ModalHandler {
	readonly prefix: CustomIdPrefix;
	handle(interaction: ModalSubmitInteraction, payload: readonly string[], ctx: InteractionContext): Promise<void>;
}

/** One slash command: its registration JSON, its handler, and the buttons and modals it owns. */
export interface SlashCommand {
	readonly data: RESTPostAPIChatInputApplicationCommandsJSONBody;
	execute(interaction: ChatInputCommandInteraction, ctx: InteractionContext): Promise<void>;
	readonly buttons?: readonly ButtonHandler[];
	readonly modals?: readonly ModalHandler[];
}

/** The registration JSON of a message command (the Apps menu of a message): a name, no description or options. */
export type MessageCommandData = RESTPostAPIContextMenuApplicationCommandsJSONBody & { readonly type: ApplicationCommandType.Message };

/** One message command: like a slash command, run on the message it was picked on. */
export interface MessageCommand {
	readonly data: MessageCommandData;
	execute(interaction: MessageContextMenuCommandInteraction, ctx: InteractionContext): Promise<void>;
	readonly buttons?: readonly ButtonHandler[];
	readonly modals?: readonly ModalHandler[];
}

/** What a module of commands/ exports. */
export type Command = SlashCommand | MessageCommand;
