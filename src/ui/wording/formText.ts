/**
 * Sentences for forms: the "Check before answering" warnings, which only the person answering
 * reads. The pure modules return codes with values; the words, in the user's language, are chosen
 * here. Validation messages and schema notes, which servers get too, are in
 * `src/elicitation/form/sentences.ts`.
 */
import type { FormWarning } from '../../elicitation/safety/text';
import type { Localize } from '../../shared/localize';

export function formWarningText(w: FormWarning, l10n: Localize): string {
  switch (w.code) {
    case 'linkInMessage':
      return l10n.t(
        'The message contains a link ({0}). Servers must not put links in a form; do not open it unless you trust this server.',
        w.url,
      );
    case 'linkInField':
      return linkInFieldText(w, l10n);
    case 'secretField':
      return l10n.t('Field “{0}” looks like a secret. Servers must not ask for secrets in a form; use a browser flow instead.', w.field);
    case 'shortened':
      return shortenedText(w, l10n);
    case 'hiddenInDefault':
      return l10n.t(
        'Field “{0}”: the suggested value holds characters you cannot see or that reorder it; it is {1}. Check it before you accept.',
        w.field,
        w.shown,
      );
  }
}

function linkInFieldText(w: Extract<FormWarning, { code: 'linkInField' }>, l10n: Localize): string {
  switch (w.place) {
    case 'title':
      return l10n.t('Field “{0}” contains a link in its title ({1}). Servers must not put links in a form.', w.field, w.url);
    case 'description':
      return l10n.t('Field “{0}” contains a link in its description ({1}). Servers must not put links in a form.', w.field, w.url);
    case 'optionLabel':
      return l10n.t('Field “{0}” contains a link in its option label ({1}). Servers must not put links in a form.', w.field, w.url);
  }
}

function shortenedText(w: Extract<FormWarning, { code: 'shortened' }>, l10n: Localize): string {
  switch (w.part) {
    case 'title':
      return l10n.t("Field “{0}”: the server's title was too long and shortened (…).", w.field);
    case 'description':
      return l10n.t("Field “{0}”: the server's description was too long and shortened (…).", w.field);
    case 'optionLabels':
      return l10n.t("Field “{0}”: the server's option labels were too long and shortened (…).", w.field);
  }
}
