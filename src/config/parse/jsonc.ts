/**
 * JSONC (JSON plus `//` and block comments and trailing commas), the dialect VS Code uses for
 * `mcp.json` and settings files. The one JSONC parser of the extension is `jsonc-parser`, VS Code's
 * own, which the comment-keeping edits of serverMove.ts need anyway; this module adds what its
 * `parse` does not give: the first error as line:column with a sentence, the position of every
 * property so configuration errors can point at the offending line, a nesting bound, and objects
 * whose `__proto__` key is an ordinary property.
 */
import { createScanner, printParseErrorCode, visit, type ParseErrorCode, type SyntaxKind } from 'jsonc-parser';

// jsonc-parser declares its token kinds as a const enum, which isolated modules cannot read: the values, from its d.ts.
const OPEN_BRACE = 1 as SyntaxKind;
const CLOSE_BRACE = 2 as SyntaxKind;
const OPEN_BRACKET = 3 as SyntaxKind;
const CLOSE_BRACKET = 4 as SyntaxKind;
const EOF = 17 as SyntaxKind;

/** A 1-based line and column (the column counts UTF-16 code units, as editors do). */
export interface JsoncPosition {
  readonly line: number;
  readonly column: number;
}

/** Why and where parsing stopped. */
export interface JsoncError extends JsoncPosition {
  readonly message: string;
  /** 0-based offset into the text. */
  readonly offset: number;
}

/** The outcome of {@link parseJsonc}. */
export type JsoncResult =
  | {
      readonly ok: true;
      readonly value: unknown;
      /**
       * Where a property name (objects) or element (arrays) of a parsed container starts.
       * `container` must be an object or array taken from `value`.
       */
      readonly positionOf: (container: object, key: string | number) => JsoncPosition | undefined;
    }
  | { readonly ok: false; readonly error: JsoncError };

/** Deep enough for any real config, shallow enough that hostile input cannot exhaust the stack. */
const MAX_DEPTH = 200;

interface Open {
  readonly value: Record<string, unknown> | unknown[];
  readonly offsets: Map<string | number, number>;
  /** The property whose value comes next (objects only). */
  key?: string;
}

/**
 * Parses JSONC text. Duplicate keys keep the last value, as `JSON.parse` does; a `__proto__`
 * key becomes an ordinary own property rather than changing the object's prototype.
 */
export function parseJsonc(source: string): JsoncResult {
  // jsonc-parser does not skip a byte order mark; offsets below are into `text`, positions into `source`.
  const bom = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  const text = source.slice(bom);
  const fail = (message: string, offset: number): JsoncResult => ({
    ok: false,
    error: { message, offset: offset + bom, ...new LineIndex(source).position(offset + bom) },
  });

  // jsonc-parser recurses once per level: bound the depth before it runs.
  const tooDeep = deeperThan(text, MAX_DEPTH);
  if (tooDeep !== undefined) return fail('Nesting is too deep', tooDeep);

  const offsets = new WeakMap<object, Map<string | number, number>>();
  const stack: Open[] = [];
  let root: unknown;
  let first: { code: ParseErrorCode; offset: number; container: '}' | ']' | undefined } | undefined;
  const put = (value: unknown, offset: number): void => {
    const top = stack.at(-1);
    if (!top) {
      root = value;
    } else if (Array.isArray(top.value)) {
      top.offsets.set(top.value.length, offset);
      top.value.push(value);
    } else if (top.key !== undefined) {
      Object.defineProperty(top.value, top.key, { value, writable: true, enumerable: true, configurable: true });
    }
  };
  const open = (value: Open['value'], offset: number): void => {
    put(value, offset);
    const map = new Map<string | number, number>();
    offsets.set(value, map);
    stack.push({ value, offsets: map });
  };
  visit(
    text,
    {
      onObjectBegin: (offset) => open({}, offset),
      onArrayBegin: (offset) => open([], offset),
      onObjectEnd: () => void stack.pop(),
      onArrayEnd: () => void stack.pop(),
      onObjectProperty: (name, offset) => {
        const top = stack.at(-1);
        if (!top) return;
        top.key = name;
        top.offsets.set(name, offset);
      },
      onLiteralValue: (value: unknown, offset) => put(value, offset),
      onError: (code, offset) => {
        const top = stack.at(-1);
        first ??= { code, offset, container: top === undefined ? undefined : Array.isArray(top.value) ? ']' : '}' };
      },
    },
    { allowTrailingComma: true, disallowComments: false },
  );
  if (first) return fail(sentence(first.code, first.container, text, first.offset), first.offset);
  const lines = new LineIndex(source);
  return {
    ok: true,
    value: root,
    positionOf: (container, key) => {
      const offset = offsets.get(container)?.get(key);
      return offset === undefined ? undefined : lines.position(offset + bom);
    },
  };
}

/** The offset of the first bracket nested deeper than `max`, or undefined. Strings and comments are the scanner's. */
function deeperThan(text: string, max: number): number | undefined {
  const scanner = createScanner(text, false);
  let depth = 0;
  for (let kind = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    if (kind === OPEN_BRACE || kind === OPEN_BRACKET) {
      if (++depth > max) return scanner.getTokenOffset();
    } else if (kind === CLOSE_BRACE || kind === CLOSE_BRACKET) {
      depth--;
    }
  }
  return undefined;
}

/** The error in words, naming what was found where the parser stopped. */
function sentence(code: ParseErrorCode, container: '}' | ']' | undefined, text: string, offset: number): string {
  const ch = text[offset];
  const found = ch === undefined ? 'end of input' : `character ${JSON.stringify(ch)}`;
  switch (printParseErrorCode(code)) {
    case 'UnexpectedEndOfString':
      return 'Unterminated string';
    case 'UnexpectedEndOfComment':
      return 'Unterminated block comment';
    case 'InvalidCharacter':
      return 'Control characters must be escaped in strings';
    case 'InvalidUnicode':
      return 'Invalid \\u escape';
    case 'InvalidEscapeCharacter':
      return 'Invalid escape sequence';
    case 'InvalidNumberFormat':
    case 'UnexpectedEndOfNumber':
      return 'Invalid number';
    case 'PropertyNameExpected':
      return `Expected a property name or '}' but found ${found}`;
    case 'ColonExpected':
      return `Expected ':' but found ${found}`;
    case 'CommaExpected':
      return `Expected ',' or '${container ?? '}'}' but found ${found}`;
    case 'CloseBraceExpected':
      return `Expected ',' or '}' but found ${found}`;
    case 'CloseBracketExpected':
      return `Expected ',' or ']' but found ${found}`;
    case 'EndOfFileExpected':
      return 'Unexpected content after the end of the document';
    case 'ValueExpected':
    case 'InvalidSymbol':
    default:
      return `Expected a value but found ${found}`;
  }
}

/** Maps offsets to line:column by binary search over line starts. */
class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) === 0x0a) this.starts.push(i + 1);
    }
  }

  position(offset: number): JsoncPosition {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.starts[lo] ?? 0) + 1 };
  }
}
