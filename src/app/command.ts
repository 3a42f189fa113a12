import type {
	ButtonInteraction,
	ChatInputCommandInteraction,
	MessageContextMenuCommandInteraction,
	ModalSubmitInteraction,
	RepliableInteraction,
} from 'discord.js';
import type { CustomIdCodec } from '../discord/customId.js';
import type { InServer, Preconditions } from '../discord/permissions.js';
import type { MessageCommandData, SlashCommandData } from './commandData.js';
import type { InteractionContext } from './context.js';

/**
 * Where a handler runs: anywhere, or, declaring what it `requires`, only in a server. The router checks the
 * preconditions before the handler runs (see checkPreconditions), so that handler's interaction is a server's.
 */
type Placed<Anywhere, InServerOnly> = ({ readonly requires?: undefined } & Anywhere) | ({ readonly requires: Preconditions } & InServerOnly);

interface Handles<Interaction, Payload> {
	handle(interaction: Interaction, payload: Payload, ctx: InteractionContext): Promise<void>;
}

interface Executes<Interaction> {
	execute(interaction: Interaction, ctx: InteractionContext): Promise<void>;
}

/** A button a command owns, found by its id's prefix; the rest of the id arrives parsed by the id's codec. */
export type ButtonHandler<Payload extends readonly unknown[] = readonly unknown[]> = { readonly id: CustomIdCodec<Payload> } & Placed<
	Handles<ButtonInteraction, Payload>,
	Handles<ButtonInteraction<InServer>, Payload>
>;

/** A modal a command owns, found like a button. */
export type ModalHandler<Payload extends readonly unknown[] = readonly unknown[]> = { readonly id: CustomIdCodec<Payload> } & Placed<
	Handles<ModalSubmitInteraction, Payload>,
	Handles<ModalSubmitInteraction<InServer>, Payload>
>;

/** What the router runs of a button's or a modal's handler, whose interaction is `I` (a server's if it `requires`). */
export type ComponentHandler<I extends RepliableInteraction> = Placed<
	Handles<I, readonly unknown[]>,
	Handles<I & RepliableInteraction<InServer>, readonly unknown[]>
>;

/** A button handler, its payload typed by its id. */
export const button = <Payload extends readonly unknown[]>(handler: ButtonHandler<Payload>): ButtonHandler => handler;

/** A modal handler, its payload typed by its id. */
export const modal = <Payload extends readonly unknown[]>(handler: ModalHandler<Payload>): ModalHandler => handler;

/** The buttons and modals a command owns. */
interface Components {
	readonly buttons?: readonly ButtonHandler[];
	readonly modals?: readonly ModalHandler[];
}

/** One slash command: its data (commands/definitions), its handler, and the buttons and modals it owns. */
export type SlashCommand = { readonly data: SlashCommandData } & Components &
	Placed<Executes<ChatInputCommandInteraction>, Executes<ChatInputCommandInteraction<InServer>>>;

/** One message command: like a slash command, run on the message it was picked on. */
export type MessageCommand = { readonly data: MessageCommandData } & Components &
	Placed<Executes<MessageContextMenuCommandInteraction>, Executes<MessageContextMenuCommandInteraction<InServer>>>;

/** What a module of commands/ exports. */
export type Command = SlashCommand | MessageCommand;
