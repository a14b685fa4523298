/** The display-text helpers live in shared/displayText.ts, where config/ and util/ can use them too. */
export * from '../../shared/displayText';
