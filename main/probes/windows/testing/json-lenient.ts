/**
 * A JSON parser that accepts a document cut off at any point: on reaching the end it closes the
 * open arrays/objects and drops the member that was being read. The raw-JSON samples (05, 10, 12)
 * are excerpts that stop mid-token; this recovers everything that was complete.
 */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

class Cut extends Error {}

export interface LenientParse {
  value: Json | undefined;
  /** The text ended before the value was complete. */
  truncated: boolean;
}

export function parseJsonLenient(text: string): LenientParse {
  const p = new Parser(text);
  try {
    const v = p.value();
    return { value: v, truncated: p.cut };
  } catch (e) {
    if (e instanceof Cut) return { value: undefined, truncated: true };
    throw e;
  }
}

class Parser {
  private i = 0;
  cut = false;
  constructor(private readonly s: string) {}

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i] ?? '')) this.i++;
  }

  private peek(): string {
    this.ws();
    if (this.i >= this.s.length) throw new Cut();
    return this.s[this.i] ?? '';
  }

  value(): Json {
    const c = this.peek();
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(
      this.s.slice(this.i, this.i + 40),
    );
    if (!m) throw new SyntaxError(`unexpected ${JSON.stringify(c)} at ${this.i}`);
    this.i += m[0].length;
    // A number right at the end may itself be cut ("1318555025607" of a longer one).
    if (this.i >= this.s.length) throw new Cut();
    return JSON.parse(m[0]) as Json;
  }

  private object(): { [k: string]: Json } {
    this.i++;
    const out: { [k: string]: Json } = {};
    for (;;) {
      let c: string;
      try {
        c = this.peek();
      } catch {
        this.cut = true;
        return out;
      }
      if (c === '}') {
        this.i++;
        return out;
      }
      if (c === ',') {
        this.i++;
        continue;
      }
      try {
        const key = this.string();
        if (this.peek() !== ':') throw new SyntaxError(`expected ':' at ${this.i}`);
        this.i++;
        out[key] = this.value();
      } catch (e) {
        if (!(e instanceof Cut)) throw e;
        this.cut = true;
        return out;
      }
      if (this.cut) return out;
    }
  }

  private array(): Json[] {
    this.i++;
    const out: Json[] = [];
    for (;;) {
      let c: string;
      try {
        c = this.peek();
      } catch {
        this.cut = true;
        return out;
      }
      if (c === ']') {
        this.i++;
        return out;
      }
      if (c === ',') {
        this.i++;
        continue;
      }
      try {
        out.push(this.value());
      } catch (e) {
        if (!(e instanceof Cut)) throw e;
        this.cut = true;
        return out;
      }
      if (this.cut) return out;
    }
  }

  private string(): string {
    if (this.peek() !== '"') throw new SyntaxError(`expected string at ${this.i}`);
    const start = this.i;
    this.i++;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === '\\') this.i += 2;
      else if (c === '"') {
        this.i++;
        return JSON.parse(this.s.slice(start, this.i)) as string;
      } else this.i++;
    }
    throw new Cut();
  }
}
