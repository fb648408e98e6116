/**
 * Fastify's own schema compilers (Ajv for input, fast-json-stringify for output), shared by every app in the process.
 *
 * Fastify compiles each route's schemas again for every instance it builds, most of an instance's start. The test double (`feedgate/testing`) starts an instance per test file or per test, and the test suites
 * build hundreds; the schemas are the same each time (they come from the endpoint table). So the compiled functions
 * are kept per process, keyed by the schema's JSON and its part of the request or response: an identical schema
 * compiles once, and an instance built later reuses the function. A compiled function holds no state of its own
 * between calls, so sharing one between apps shares nothing an app could observe.
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
type Compile = (route: RouteSchema) => unknown;
type CompilerFactory = (externalSchemas: unknown, options: unknown) => Compile;

/** A factory whose compilers remember what they compiled, per set of shared schemas and options. */
function remembering(factory: CompilerFactory): CompilerFactory {
  const compilers = new Map<string, Compile>();
  return (externalSchemas, options) => {
    const key = JSON.stringify([externalSchemas, options]);
    let compile = compilers.get(key);
    if (compile === undefined) {
      const build = factory(externalSchemas, options);
      const compiled = new Map<string, unknown>();
      // The endpoint table's schemas are made once per process (api/schemas.ts, api/responses.ts), so most come again
      // as the same object: found by identity first, without writing a large schema out as JSON for every route.
      const byObject = new WeakMap<object, Map<string, unknown>>();
      compile = (route) => {
        const partKey = `${route.httpPart ?? route.httpStatus}\u0000${route.contentType ?? ""}`;
        const object = typeof route.schema === "object" && route.schema !== null ? route.schema : null;
        let ofObject = object && byObject.get(object);
        let fn = ofObject?.get(partKey);
        if (fn !== undefined) return fn;
        const schemaKey = `${partKey}\u0000${JSON.stringify(route.schema)}`;
        fn = compiled.get(schemaKey);
        if (fn === undefined) compiled.set(schemaKey, (fn = build(route)));
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
