/**
 * The words of the sampling consent, the reply review and the notices when no model can answer,
 * in the user's language. The forms themselves are built in sampling/consentForm.ts.
 */
import type { SamplingWording } from '../../sampling/consentForm';
import type { Localize } from '../../shared/localize';

export function samplingWording(l10n: Localize): SamplingWording {
  return {
    consent: (model, messages, unchanged) =>
      unchanged > 0
        ? l10n.t(
            'This server wants a language model ({0}) to answer {1} messages; the first {2} are sent as they are. Check and edit the request: nothing is sent until you accept.',
            model,
            messages,
            unchanged,
          )
        : l10n.t(
            'This server wants a language model ({0}) to answer the messages below. Check and edit the request: nothing is sent until you accept.',
            model,
          ),
    contextIgnored: () => l10n.t('The server also asked to include context from MCP servers; this client does not add any.'),
    review: (model) =>
      l10n.t(
        '{0} answered. Check and edit the reply: it goes to the server only when you accept; decline and the server gets nothing.',
        model,
      ),
    modelField: () => l10n.t('Model'),
    systemPromptField: () => l10n.t('System prompt'),
    messageField: (index, role) => (role === 'user' ? l10n.t('Message {0} (user)', index) : l10n.t('Message {0} (assistant)', index)),
    replyField: () => l10n.t('Reply'),
  };
}
