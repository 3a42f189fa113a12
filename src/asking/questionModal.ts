import { LabelBuilder, ModalBuilder, TextInputBuilder, TextInputStyle } from 'discord.js';
import { PROMPT_MAX_LENGTH } from './checkPrompt.js';

/** What a one-question form says: its title, and its one field's label, hint and id. */
interface QuestionForm {
	readonly title: string;
	readonly label: string;
	readonly hint: string;
	/** The text input's own id, read back with `fields.getTextInputValue`. */
	readonly inputId: string;
}

/** A form with one paragraph field of 1 to 4000 characters: the Follow up prompt and Ask Veil's question. */
export function questionModal(customId: string, form: QuestionForm): ModalBuilder {
	return new ModalBuilder()
		.setCustomId(customId)
		.setTitle(form.title)
		.addLabelComponents(
			new LabelBuilder()
				.setLabel(form.label)
				.setDescription(form.hint)
				.setTextInputComponent(
					new TextInputBuilder()
						.setCustomId(form.inputId)
						.setStyle(TextInputStyle.Paragraph)
						.setMinLength(1)
						.setMaxLength(PROMPT_MAX_LENGTH)
						.setRequired(true),
				),
		);
}
