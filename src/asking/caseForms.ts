import { LabelBuilder, ModalBuilder, TextInputBuilder, TextInputStyle, type ModalSubmitInteraction } from 'discord.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';

/** The note a member may add to a report or a review request, and its longest. */
const NOTE_INPUT = 'note';
export const NOTE_MAX_LENGTH = 300;

/** The short form of a report or a review request: one optional note of up to 300 characters, for the moderators. */
export function noteForm(customId: string, kind: 'report' | 'review', locale: SupportedLocale): ModalBuilder {
	return new ModalBuilder()
		.setCustomId(customId)
		.setTitle(t(locale, kind === 'report' ? 'cases.noteForm.reportTitle' : 'cases.noteForm.reviewTitle'))
		.addLabelComponents(
			new LabelBuilder()
				.setLabel(t(locale, 'cases.noteForm.label'))
				.setDescription(t(locale, kind === 'report' ? 'cases.noteForm.reportHint' : 'cases.noteForm.reviewHint'))
				.setTextInputComponent(
					new TextInputBuilder().setCustomId(NOTE_INPUT).setStyle(TextInputStyle.Paragraph).setMaxLength(NOTE_MAX_LENGTH).setRequired(false),
				),
		);
}

/** The note as submitted, trimmed and within its length; undefined when left empty. */
export function noteOf(interaction: ModalSubmitInteraction): string | undefined {
	return interaction.fields.getTextInputValue(NOTE_INPUT).trim().slice(0, NOTE_MAX_LENGTH) || undefined;
}
