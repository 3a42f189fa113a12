import {
	InteractionResponseType,
	MessageFlags,
	Routes,
	type RESTPostAPIInteractionCallbackWithResponseResult,
	type APIActionRowComponent,
	type APIButtonComponentWithCustomId,
	type MessageMentionOptions,
	type RepliableInteraction,
} from 'discord.js';

/*
 * Reaches past discord.js's public API; checked against discord.js 14.28.1 (InteractionResponses). An ask's deferral
 * and its answer's edit go by the REST routes deferReply and editReply use, and the interaction's `deferred`,
 * `ephemeral` and `replied` are then set by hand as those methods set them, so discord.js's own methods (the router's
 * error answer, a follow-up) see the interaction as it is. test/unit/discord/internals/originalResponse.test.ts
 * fails when the routes, the bodies or the fields discord.js reads change.
 */

/** A text message with a row of buttons at most: what an answer replaces its deferral with. */
export interface OriginalEdit {
	readonly content: string;
	readonly components?: ReadonlyArray<APIActionRowComponent<APIButtonComponentWithCustomId>>;
	readonly allowedMentions: MessageMentionOptions;
}

/**
 * Defers the interaction's answer ("thinking…", only for the member when `ephemeral`): the callback discord.js's
 * `deferReply` sends, sent by the client's REST directly, without the bit field, query and response object it builds
 * on every ask. The interaction's state changes as `deferReply` changes it, so its other methods work as usual.
 *
 * With `readVisibility`, Discord's answer says whether the answer is ephemeral, and that is returned: Discord may
 * make it so whatever Veil asked (a server that turned off external apps for its members). Otherwise it returns
 * what was asked.
 */
export async function deferOriginal(interaction: RepliableInteraction, ephemeral: boolean, readVisibility = false): Promise<boolean> {
	if (interaction.deferred || interaction.replied) throw new Error('the interaction has been acknowledged already');
	const answer = (await interaction.client.rest.post(Routes.interactionCallback(interaction.id, interaction.token), {
		body: { type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: ephemeral ? MessageFlags.Ephemeral : 0 } },
		auth: false,
		...(readVisibility ? { query: new URLSearchParams({ with_response: 'true' }) } : {}),
	})) as Partial<RESTPostAPIInteractionCallbackWithResponseResult> | undefined;
	const applied = ephemeral || answer?.interaction?.response_message_ephemeral === true;
	interaction.deferred = true;
	interaction.ephemeral = applied;
	return applied;
}

/**
 * Replaces an interaction's original response (its deferral) with `edit`: the request discord.js's `editReply`
 * makes, sent by the client's REST directly. `editReply` also builds a payload object, loads three modules' worth of
 * `require` checks and turns Discord's answer into a Message that Veil never reads: about a tenth of an answer's
 * work in the bot, on every answer. Rate limits, retries and errors are the REST client's, as with `editReply`.
 */
export async function editOriginal(interaction: RepliableInteraction, edit: OriginalEdit): Promise<void> {
	const { parse, users, roles, repliedUser } = edit.allowedMentions;
	await interaction.client.rest.patch(Routes.webhookMessage(interaction.applicationId, interaction.token, '@original'), {
		body: {
			content: edit.content,
			components: edit.components,
			allowed_mentions: { parse, users, roles, replied_user: repliedUser },
		},
		auth: false,
	});
	// As editReply does: the response is now an answer, and an error after it follows up rather than replacing it.
	interaction.replied = true;
}
