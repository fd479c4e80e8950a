/**
 * The few value checks the bundle manifest needs (manifest.ts), hand-written rather than zod: a
 * `scan --bundle` validates one small manifest, and building zod's schemas cost more start-up time
 * than the whole scan of the demo bundle. Each check reads untrusted JSON and either keeps a fresh
 * value or says why not, in the words zod used (they reach the user in "section ignored"
 * warnings). manifest.test.ts holds the result to the former zod schema, input by input.
 */

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };
export type Check<T> = (v: unknown) => Checked<T>;

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

function received(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  // JSON.parse reads 1e400 as Infinity; it is a number, but not one a field may hold.
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return typeof v;
}

const wrongType = (expected: string, v: unknown): { ok: false; message: string } =>
  fail(`Invalid input: expected ${expected}, received ${received(v)}`);

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const string: Check<string> = (v) =>
  typeof v === 'string' ? ok(v) : wrongType('string', v);
export const boolean: Check<boolean> = (v) =>
  typeof v === 'boolean' ? ok(v) : wrongType('boolean', v);
export const number: Check<number> = (v) =>
  typeof v === 'number' && Number.isFinite(v) ? ok(v) : wrongType('number', v);
export const int: Check<number> = (v) =>
  typeof v === 'number' && Number.isSafeInteger(v) ? ok(v) : wrongType('int', v);
export const nonNegative: Check<number> = (v) => {
  const n = number(v);
  return n.ok && n.value < 0 ? fail('Too small: expected number to be >=0') : n;
};

export function oneOf<const T extends readonly string[]>(values: T): Check<T[number]> {
  return (v) =>
    typeof v === 'string' && values.includes(v)
      ? ok(v as T[number])
      : fail(`Invalid option: expected one of ${values.map((x) => `"${x}"`).join('|')}`);
}

export function literal<const T extends boolean>(value: T): Check<T> {
  return (v) => (v === value ? ok(value) : fail(`Invalid input: expected ${String(value)}`));
}

/** Absent or `null` (a fact the collector could not obtain): undefined. */
export function opt<T>(check: Check<T>): Check<T | undefined> {
  return (v) => (v === null || v === undefined ? ok(undefined) : check(v));
}

/** Absent: undefined; `null` is a wrong type. */
export function optional<T>(check: Check<T>): Check<T | undefined> {
  return (v) => (v === undefined ? ok(undefined) : check(v));
}

/** Absent or `null`: the empty string. */
export const text: Check<string> = (v) => (v === null || v === undefined ? ok('') : string(v));

/** Absent: a fresh default (the value itself is not checked then). */
export function withDefault<T>(check: Check<T>, make: () => T): Check<T> {
  return (v) => (v === undefined ? ok(make()) : check(v));
}

/** Absent or `null`: null. */
export function orNull<T>(check: Check<T>): Check<T | null> {
  return (v) => (v === null || v === undefined ? ok(null) : check(v));
}

/** `null` stays null (absent is the check's business). */
export function nullable<T>(check: Check<T>): Check<T | null> {
  return (v) => (v === null ? ok(null) : check(v));
}

/** A value the check refuses becomes `fallback` instead of failing. */
export function orElse<T, const F>(check: Check<T>, fallback: F): Check<T | F> {
  return (v) => {
    const r = check(v);
    return r.ok ? r : ok(fallback);
  };
}

export function map<T, U>(check: Check<T>, f: (value: T) => U): Check<U> {
  return (v) => {
    const r = check(v);
    return r.ok ? ok(f(r.value)) : r;
  };
}

/** The first alternative that accepts the value. */
export function either<A, B>(a: Check<A>, b: Check<B>): Check<A | B> {
  return (v) => {
    const r = a(v);
    if (r.ok) return r;
    const s = b(v);
    return s.ok ? s : fail('Invalid input');
  };
}

/** Every item must pass; a fresh array. */
export function arrayOf<T>(item: Check<T>): Check<T[]> {
  return (v) => {
    if (!Array.isArray(v)) return wrongType('array', v);
    const out: T[] = [];
    for (const x of v as unknown[]) {
      const r = item(x);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return ok(out);
  };
}

/** A list whose malformed items are dropped, so one bad item does not cost its siblings. */
export function lenientList<T>(item: Check<T>): Check<T[]> {
  return (v) => {
    if (!Array.isArray(v)) return wrongType('array', v);
    const out: T[] = [];
    for (const x of v as unknown[]) {
      const r = item(x);
      if (r.ok) out.push(r.value);
    }
    return ok(out);
  };
}

/**
 * A JSON object as a map: a shallow copy. A `__proto__` key (JSON.parse makes it an own
 * property) is left out, so that no later assignment can swap an object's prototype.
 */
export const record: Check<Record<string, unknown>> = (v) => {
  if (!isObject(v)) return wrongType('record', v);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) if (k !== '__proto__') out[k] = v[k];
  return ok(out);
};

/** A map whose entries the check refuses are left out. */
export function lenientMap<T>(entry: Check<T>): Check<Record<string, T>> {
  return map(record, (m) => {
    const out: Record<string, T> = {};
    for (const [k, v] of Object.entries(m)) {
      const r = entry(v);
      if (r.ok) out[k] = r.value;
    }
    return out;
  });
}

type Shape = Record<string, Check<unknown>>;
type ValueOf<C> = C extends Check<infer T> ? T : never;
/** Fields that may come out undefined are optional keys (as a collector writes them). */
type Out<S extends Shape> = {
  [K in keyof S as undefined extends ValueOf<S[K]> ? never : K]: ValueOf<S[K]>;
} & { [K in keyof S as undefined extends ValueOf<S[K]> ? K : never]?: ValueOf<S[K]> };

/**
 * An object with these fields, in this order; other keys are dropped. A field comes out when the
 * input has the key or its check makes a value of an absent one (a default). The first refused
 * field fails the object, with that field's reason.
 */
export function object<S extends Shape>(shape: S): Check<Out<S>> {
  const keys = Object.keys(shape);
  return (v) => {
    if (!isObject(v)) return wrongType('object', v);
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const r = (shape[k] as Check<unknown>)(v[k]);
      if (!r.ok) return r;
      if (r.value !== undefined || k in v) out[k] = r.value;
    }
    return ok(out as Out<S>);
  };
}
