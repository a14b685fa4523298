import type * as Url from './url';

let url: typeof Url | undefined;

/**
 * {@link Url.analyseUrl}, loaded on first use: the url analysis with its IP, IDN and site-name
 * rules lives in `dist/urlSafety.js` (scripts/build.mjs), which only a URL-mode request or a
 * preview needs, so activation does not parse it.
 */
export function analyseUrl(target: string, options?: Url.UrlSafetyOptions): Url.UrlAnalysis {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; `import()` would make every caller async
  url ??= require('./url') as typeof Url;
  return url.analyseUrl(target, options);
}
