/**
 * Fastify's own schema compilers (Ajv for input, fast-json-stringify for output), shared by every app in the process.
 *
 * Fastify compiles each route's schemas again for every instance it builds, most of an instance's start. The test double (`feedgate/testing`) starts an instance per test file or per test, and the test suites
 * build hundreds; the schemas are the same each time (they come from the endpoint table). So the compiled functions
 * are kept per process, keyed by the schema's JSON and its part of the request or response: an identical schema
 * compiles once, and an instance built later reuses the function. A compiled function holds no state of its own
 * between calls, so sharing one between apps shares nothing an app could observe.
 *
 * A schema is compiled when it is first used, not when its route is registered: most of a start's CPU went to
 * compiling schemas of routes that a process, a test file above all, never calls. Fastify is handed a stand-in that
 * compiles on its first call and then calls the compiled function, so a request validates and serializes exactly as
 * before. The price is that a schema Ajv or fast-json-stringify refuses fails its first request instead of the start:
 * `compilePendingSchemas()` compiles every one, and a test calls it over all the routes.
 *
 * The compilers are Fastify's defaults, given the options Fastify would give them; only the memo is added. Giving
 * them as `compilersFactory` marks them "custom" to Fastify, whose one difference is that it stops lower-casing
 * header schemas: no route here has one.
 */
import AjvCompiler from "@fastify/ajv-compiler";
import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";
import type { FastifyServerOptions } from "fastify";

/** What Fastify hands a compiler for one schema: the validator's part or the serializer's status and content type. */
interface RouteSchema {
  schema: unknown;
  httpPart?: string;
  httpStatus?: string;
  contentType?: string;
}
type Compiled = (...args: unknown[]) => unknown;
type Compile = (route: RouteSchema) => Compiled;
type CompilerFactory = (externalSchemas: unknown, options: unknown) => Compile;

/** Stand-ins not yet called, each compiling its schema when forced. */
const pending = new Set<() => Compiled>();

/** Compiles every schema registered so far and not yet used: what a start would have compiled, with its errors. */
export function compilePendingSchemas(): void {
  for (const force of [...pending]) force();
}

/**
 * A function that compiles on its first call and is then the compiled one. Fastify reads two properties of an Ajv
 * validator besides calling it: `schemaEnv` (whether to pass the parent object, so that Ajv may change the root
 * value) before the call, and `errors` after a failed one; both are the compiled function's own.
 */
function compiledOnFirstUse(build: () => Compiled): Compiled {
  let compiled: Compiled | undefined;
  const force = () => {
    if (compiled === undefined) {
      compiled = build();
      pending.delete(force);
    }
    return compiled;
  };
  pending.add(force);
  const standIn = function (this: unknown, ...args: unknown[]) {
    return (compiled ?? force()).apply(this, args);
  };
  Object.defineProperties(standIn, {
    schemaEnv: { get: () => (force() as { schemaEnv?: unknown }).schemaEnv },
    errors: { get: () => (compiled as { errors?: unknown } | undefined)?.errors },
  });
  return standIn;
}

/** A factory whose compilers remember what they compiled, per set of shared schemas and options. */
function remembering(factory: CompilerFactory): CompilerFactory {
  const compilers = new Map<string, Compile>();
  return (externalSchemas, options) => {
    const key = JSON.stringify([externalSchemas, options]);
    let compile = compilers.get(key);
    if (compile === undefined) {
      const build = factory(externalSchemas, options);
      const compiled = new Map<string, Compiled>();
      // The endpoint table's schemas are made once per process (api/schemas.ts, api/responses.ts), so most come again
      // as the same object: found by identity first, without writing a large schema out as JSON for every route.
      const byObject = new WeakMap<object, Map<string, Compiled>>();
      compile = (route) => {
        const partKey = `${route.httpPart ?? route.httpStatus}\u0000${route.contentType ?? ""}`;
        const object = typeof route.schema === "object" && route.schema !== null ? route.schema : null;
        let ofObject = object && byObject.get(object);
        let fn = ofObject?.get(partKey);
        if (fn !== undefined) return fn;
        const schemaKey = `${partKey}\u0000${JSON.stringify(route.schema)}`;
        fn = compiled.get(schemaKey);
        if (fn === undefined) compiled.set(schemaKey, (fn = compiledOnFirstUse(() => build(route))));
        if (object) {
          if (!ofObject) byObject.set(object, (ofObject = new Map()));
          ofObject.set(partKey, fn);
        }
        return fn;
      };
      compilers.set(key, compile);
    }
    return compile;
  };
}

export const sharedSchemaCompilers: NonNullable<FastifyServerOptions["schemaController"]> = {
  compilersFactory: {
    buildValidator: remembering(AjvCompiler() as unknown as CompilerFactory) as never,
    buildSerializer: remembering(SerializerSelector() as unknown as CompilerFactory) as never,
  },
};
