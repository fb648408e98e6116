/**
 * The kinds of row the settings table is made of, and the types derived from it: the values (`Values`, which is the
 * shape of `Config`) and the flags' input (`InputOf`, keyed as commander names each flag's value).
 */

/** A value as a flag (string, or true for a switch), the environment (string) or a test (number, boolean) gives it. */
export type Raw = string | number | boolean;

/** What a parser knows of its row, to name it in an error. */
export interface Named {
  /** How an error names the setting: "authenticated rate limit". */
  readonly name: string;
  readonly env: string;
  /** The flag, for errors that name what to fix (every row has one; a parser called on its own may not). */
  readonly flag?: string;
}

/** A given value (never undefined nor empty: that is the default) -> the setting's value; or an InvalidInputError. */
export type Parser<T> = (raw: Raw, row: Named) => T;

interface RowSpec<F extends string, T> extends Named {
  /** The long flag, `--rate-limit-window`; commander names its value `rateLimitWindow`, the key of the input. */
  readonly flag: F;
  /** The value's placeholder in the help, `<seconds>`; none: a switch, given as the bare flag. */
  readonly arg?: string;
  /** What it does, for the help; the environment variable and the default are added to it. */
  readonly help: string;
  /** What 0 means, where it means none or off ("none", "off"); said in the help. */
  readonly zero?: string;
  readonly parse: Parser<T>;
  /** The flag may be given several times: its values reach the parser joined by spaces. */
  readonly repeatable?: boolean;
}

/** One setting: a flag, an environment variable, a parser, a default, a help line. */
export class Setting<F extends string, T> implements Named {
  readonly flag: F;
  readonly arg: string | undefined;
  readonly env: string;
  readonly name: string;
  readonly help: string;
  readonly zero: string | undefined;
  readonly repeatable: boolean;
  /** The default as the help says it: `120s`, or words for a default that is no value ("every host"). */
  readonly shownDefault: string;
  /** The setting's value from what was given: the default when `raw` is undefined. */
  readonly read: (raw: Raw | undefined) => T;

  constructor(spec: RowSpec<F, T>, shownDefault: string, read: (raw: Raw | undefined) => T) {
    this.flag = spec.flag;
    this.arg = spec.arg;
    this.env = spec.env;
    this.name = spec.name;
    this.help = spec.help;
    this.zero = spec.zero;
    this.repeatable = spec.repeatable ?? false;
    this.shownDefault = shownDefault;
    this.read = read;
  }
}

/**
 * A setting with a default, written as an operator would give it (`120s`, `32`) and parsed like one, so that the help
 * shows it as it is typed and the parser checks it.
 */
export function setting<const F extends string, T>(
  spec: RowSpec<F, T> & { default: Raw; shownDefault?: string },
): Setting<F, T> {
  const fallback = spec.parse(spec.default, spec);
  return new Setting(spec, spec.shownDefault ?? String(spec.default), (raw) =>
    raw === undefined ? fallback : spec.parse(raw, spec),
  );
}

/** A setting that is `unset` (null or undefined) unless given; `shownDefault` says what that means ("every host"). */
export function optionalSetting<const F extends string, T, U extends null | undefined>(
  spec: RowSpec<F, T> & { unset: U; shownDefault: string },
): Setting<F, T | U> {
  return new Setting<F, T | U>(spec, spec.shownDefault, (raw) =>
    raw === undefined ? spec.unset : spec.parse(raw, spec),
  );
}

/** A value of `Config` that no flag sets (GitHub's own, such as its 10 s delivery timeout). */
export class Fixed<T> {
  constructor(readonly value: T) {}
}

/** Rows read together and checked as one, such as `--tls-cert` and `--tls-key`, which come in pairs. */
export class Combined<R extends Table, O> {
  constructor(
    readonly rows: R,
    readonly assemble: (values: Values<R>) => O,
  ) {}
}

export type AnySetting = Setting<string, unknown>;

/** Any combination: its `assemble` takes its own rows' values, which no wider type covers. */
interface AnyCombined {
  readonly rows: Table;
  readonly assemble: (values: never) => unknown;
}

export type TableNode = AnySetting | Fixed<unknown> | AnyCombined | Table;

/** Settings grouped as `Config` nests them (`rateLimit.authenticated`). */
export interface Table {
  readonly [key: string]: TableNode;
}

/** The values a table reads to: the type of `Config`. */
export type Values<T> = {
  -readonly [K in keyof T]: T[K] extends Setting<string, infer V>
    ? V
    : T[K] extends Fixed<infer V>
      ? V
      : T[K] extends Combined<infer _R, infer O>
        ? O
        : Values<T[K]>;
};

/** `rate-limit-window` -> `rateLimitWindow`, as commander names a flag's value. */
type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;

type FlagsOf<T> =
  T extends Setting<infer F, unknown>
    ? F
    : T extends Fixed<unknown>
      ? never
      : T extends Combined<infer R, unknown>
        ? FlagsOf<R>
        : { [K in keyof T]: FlagsOf<T[K]> }[keyof T];

/** What flags give: each setting by its flag's commander name, `{ rateLimitWindow: "60" }`. */
export type InputOf<T> = { [F in FlagsOf<T> as F extends `--${infer N}` ? Camel<N> : never]?: Raw };

/** The name commander gives a flag's value, the key of the input: `--rate-limit-window` -> `rateLimitWindow`. */
export function inputKey(row: AnySetting): string {
  return row.flag.replace(/^--/, "").replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
