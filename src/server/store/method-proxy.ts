/**
 * A store part seen through a Proxy whose every method is wrapped: the outage boundary (unavailable.ts) and
 * SQLite's lock retries (sqlite/busy-retry.ts) both wrap a part this way.
 */
export type MethodWrap = (call: (args: unknown[]) => unknown) => (...args: unknown[]) => unknown;

/** `part` with each method replaced by `wrap` of it (`call` invokes the original on the part with the arguments). */
export function wrappingMethods<T extends object>(part: T, wrap: MethodWrap): T {
  // By function, not by name: a method replaced on the part (a test watching calls) is wrapped anew.
  const wrapped = new WeakMap<object, (...args: unknown[]) => unknown>();
  return new Proxy(part, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function") return value;
      let method = wrapped.get(value);
      if (!method) {
        method = wrap((args) => Reflect.apply(value, target, args) as unknown);
        wrapped.set(value, method);
      }
      return method;
    },
  });
}
