/**
 * A small JSONC parser (JSON plus `//` and block comments and trailing commas), the dialect
 * VS Code uses for `mcp.json` and settings files. Written here rather than taken as a dependency
 * because the grammar is tiny and we want two things `JSON.parse` does not give portably:
 * error positions as line:column, and the position of every property so configuration errors
 * can point at the offending line.
 */

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

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class SyntaxFailure extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/**
 * Parses JSONC text. Duplicate keys keep the last value, as `JSON.parse` does; a `__proto__`
 * key becomes an ordinary own property rather than changing the object's prototype.
 */
export function parseJsonc(text: string): JsoncResult {
  const parser = new Parser(text);
  try {
    const value = parser.parseDocument();
    const offsets = parser.offsets;
    const lines = new LineIndex(text);
    return {
      ok: true,
      value,
      positionOf: (container, key) => {
        const offset = offsets.get(container)?.get(key);
        return offset === undefined ? undefined : lines.position(offset);
      },
    };
  } catch (e) {
    if (!(e instanceof SyntaxFailure)) throw e;
    return { ok: false, error: { message: e.message, offset: e.offset, ...new LineIndex(text).position(e.offset) } };
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

class Parser {
  /** Start offset of every property name / array element, keyed by container. */
  readonly offsets = new WeakMap<object, Map<string | number, number>>();
  private pos = 0;
  private depth = 0;

  constructor(private readonly text: string) {
    if (text.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  parseDocument(): unknown {
    this.skipTrivia();
    const value = this.parseValue();
    this.skipTrivia();
    if (this.pos < this.text.length) this.fail('Unexpected content after the end of the document');
    return value;
  }

  private fail(message: string, offset = this.pos): never {
    throw new SyntaxFailure(message, offset);
  }

  private describeHere(): string {
    const ch = this.text[this.pos];
    return ch === undefined ? 'end of input' : `character ${JSON.stringify(ch)}`;
  }

  private skipTrivia(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
        this.pos++;
      } else if (c === 0x2f && t[this.pos + 1] === '/') {
        const end = t.indexOf('\n', this.pos);
        this.pos = end === -1 ? t.length : end + 1;
      } else if (c === 0x2f && t[this.pos + 1] === '*') {
        const end = t.indexOf('*/', this.pos + 2);
        if (end === -1) this.fail('Unterminated block comment');
        this.pos = end + 2;
      } else {
        return;
      }
    }
  }

  private parseValue(): unknown {
    const ch = this.text[this.pos];
    switch (ch) {
      case '{':
        return this.nested(() => this.parseObject());
      case '[':
        return this.nested(() => this.parseArray());
      case '"':
        return this.parseString();
      case 't':
        return this.parseLiteral('true', true);
      case 'f':
        return this.parseLiteral('false', false);
      case 'n':
        return this.parseLiteral('null', null);
      default:
        if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.parseNumber();
        return this.fail(`Expected a value but found ${this.describeHere()}`);
    }
  }

  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_DEPTH) this.fail('Nesting is too deep');
    const value = parse();
    this.depth--;
    return value;
  }

  private parseObject(): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    const offsets = new Map<string | number, number>();
    this.offsets.set(obj, offsets);
    this.pos++; // '{'
    this.skipTrivia();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return obj;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') this.fail(`Expected a property name or '}' but found ${this.describeHere()}`);
      const keyOffset = this.pos;
      const key = this.parseString();
      this.skipTrivia();
      if (this.text[this.pos] !== ':') this.fail(`Expected ':' but found ${this.describeHere()}`);
      this.pos++;
      this.skipTrivia();
      const value = this.parseValue();
      Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
      offsets.set(key, keyOffset);
      this.skipTrivia();
      if (this.text[this.pos] === ',') {
        this.pos++;
        this.skipTrivia();
        if (this.text[this.pos] === '}') break; // trailing comma
      } else if (this.text[this.pos] !== '}') {
        this.fail(`Expected ',' or '}' but found ${this.describeHere()}`);
      } else {
        break;
      }
    }
    this.pos++; // '}'
    return obj;
  }

  private parseArray(): unknown[] {
    const arr: unknown[] = [];
    const offsets = new Map<string | number, number>();
    this.offsets.set(arr, offsets);
    this.pos++; // '['
    this.skipTrivia();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return arr;
    }
    for (;;) {
      offsets.set(arr.length, this.pos);
      arr.push(this.parseValue());
      this.skipTrivia();
      if (this.text[this.pos] === ',') {
        this.pos++;
        this.skipTrivia();
        if (this.text[this.pos] === ']') break; // trailing comma
      } else if (this.text[this.pos] !== ']') {
        this.fail(`Expected ',' or ']' but found ${this.describeHere()}`);
      } else {
        break;
      }
    }
    this.pos++; // ']'
    return arr;
  }

  private parseString(): string {
    const start = this.pos;
    const t = this.text;
    let out = '';
    let chunkStart = ++this.pos;
    for (;;) {
      if (this.pos >= t.length) this.fail('Unterminated string', start);
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) {
        out += t.slice(chunkStart, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) this.fail('Control characters must be escaped in strings');
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += t.slice(chunkStart, this.pos);
      const esc = t[this.pos + 1];
      if (esc === 'u') {
        const hex = t.slice(this.pos + 2, this.pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Invalid \\u escape');
        out += String.fromCharCode(parseInt(hex, 16));
        this.pos += 6;
      } else {
        const decoded = esc === undefined ? undefined : ESCAPES[esc];
        if (decoded === undefined) this.fail('Invalid escape sequence');
        out += decoded;
        this.pos += 2;
      }
      chunkStart = this.pos;
    }
  }

  private parseNumber(): number {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (!match) return this.fail('Invalid number');
    this.pos += match[0].length;
    return Number(match[0]);
  }

  private parseLiteral<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail(`Expected a value but found ${this.describeHere()}`);
    this.pos += word.length;
    return value;
  }
}
