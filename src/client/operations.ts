/**
 * Methods generated from the endpoint table (Octokit's endpoints-as-data): one function per row, its
 * parameter and result types computed from the row, so a new row is a new typed method with no SDK change,
 * and the SDK cannot drift from the routes the server registers from the same table.
 */
import type { Endpoint, Endpoints, FieldType, ParamSpec, ResponseKind } from "../api/endpoints.js";
import type { ResponseData } from "../api/responses.js";
import type { RequestHeaders, UnconditionalHeaders } from "./headers.js";
import type { Result, Success } from "./types.js";

/** What an operation's `data` holds: the static type of its response kind's schema (src/api/responses.ts). */
export type Data<E extends Endpoint> = ResponseData<E["response"] & ResponseKind>;

type FieldValue<T extends FieldType> = T extends "string"
  ? string
  : T extends "record"
    ? Readonly<Record<string, string>>
    : T extends "objects"
      ? readonly Readonly<Record<string, unknown>>[]
      : T extends "boolean"
        ? boolean
        : string | number;

/** Numbers that travel as text may be given as numbers too (`page: 2` means "2"). */
type Value<S extends ParamSpec> =
  | (S["type"] extends "array"
      ? readonly string[]
      : S["type"] extends "number" | "string|number"
        ? number | string
        : S["type"] extends "boolean"
          ? boolean
          : S["type"] extends "object"
            ? { readonly [K in keyof S["properties"]]?: FieldValue<S["properties"][K] & FieldType> }
            : string)
  | (S extends { nullable: true } ? null : never);

type Specs<E extends Endpoint> = E["params"];
type RequiredNames<E extends Endpoint> = {
  [K in keyof Specs<E>]: Specs<E>[K] extends { required: true } ? K : never;
}[keyof Specs<E>];

/** An operation's parameters, the optional `headers` map included. */
export type Params<E extends Endpoint, H = RequestHeaders> =
  // `object`: a type whose keys are all optional would otherwise accept a string.
  object & { [K in RequiredNames<E>]: Value<Specs<E>[K]> } & {
    [K in Exclude<keyof Specs<E>, RequiredNames<E>>]?: Value<Specs<E>[K]>;
  } & { headers?: H };

/** The parameters argument: optional exactly when the operation has no required parameter. */
export type ParamsArgument<E extends Endpoint> = [RequiredNames<E>] extends [never]
  ? [params?: Params<E>]
  : [params: Params<E>];

/**
 * A generated method. Without conditional headers the answer cannot be 304, so the result is typed as
 * a success; with them (or with a headers value of unknown content) it may be NotModified.
 */
export type Operation<E extends Endpoint> = ([RequiredNames<E>] extends [never]
  ? {
      (params?: Params<E, UnconditionalHeaders>): Promise<Success<Data<E>>>;
      (params?: Params<E>): Promise<Result<Data<E>>>;
    }
  : {
      (params: Params<E, UnconditionalHeaders>): Promise<Success<Data<E>>>;
      (params: Params<E>): Promise<Result<Data<E>>>;
    }) & {
  /** The table row this method was generated from; `client.paginate` reads it. */
  readonly endpoint: E;
  /** `family.name`, as errors name the operation. */
  readonly operation: string;
};

export type Operations<F extends Record<string, Endpoint>> = { readonly [N in keyof F]: Operation<F[N]> };

/** `client.authorization`, `client.events`, and any family the table grows. */
export type Families = { readonly [F in keyof Endpoints]: Operations<Endpoints[F]> };

/** Sends one call of one operation; the client supplies it. */
export type Send = (endpoint: Endpoint, operation: string, params: unknown) => Promise<Result<unknown>>;

/** The runtime side: a function per row that hands its row and the caller's parameters to `send`. */
export function generateFamilies(
  table: Readonly<Record<string, Readonly<Record<string, Endpoint>>>>,
  send: Send,
): Families {
  const families: Record<string, Record<string, unknown>> = {};
  for (const [family, rows] of Object.entries(table)) {
    const methods: Record<string, unknown> = {};
    for (const [name, endpoint] of Object.entries(rows)) {
      const operation = `${family}.${name}`;
      // Never throws: a refused parameter is a rejection of the returned promise, as a failed request is, so callers
      // handle both in one `.catch()` (nothing has been sent then).
      const method = async (params?: unknown) => send(endpoint, operation, params);
      methods[name] = Object.assign(method, { endpoint, operation });
    }
    families[family] = Object.freeze(methods);
  }
  return families as unknown as Families;
}
