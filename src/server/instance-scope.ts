/**
 * One Fastify app serving many instances (./shared-app.ts): the routes and plugins are registered once, with
 * stand-ins for the services, and each request finds its own instance's services through the instance it arrived
 * at. A stand-in forwards every property read, call and write to the same path in the services of the instance the
 * code runs for (AsyncLocalStorage: set around each request, and around the registration, for the first instance).
 *
 * What a stand-in hands back is a stand-in again when it is an object or a function, read again at each use, and
 * the value itself otherwise (a number, a string, a boolean, undefined): so a plugin that keeps `options.store` keeps
 * "the current instance's store", while one that reads `services.faults === undefined` while it is registered reads
 * the first instance's answer, which every instance of the same settings shares.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export class InstanceScope<T extends object> {
  private readonly storage = new AsyncLocalStorage<T>();

  /** Runs `work`, and everything it starts (promises, timers, callbacks), for `instance`. */
  run<R>(instance: T, work: () => R): R {
    return this.storage.run(instance, work);
  }

  current(): T {
    const instance = this.storage.getStore();
    if (instance === undefined) throw new Error("a shared app's stand-in was used outside any instance's request");
    return instance;
  }

  /** A stand-in for the current instance's `T`, typed as one. */
  standIn(): T {
    return standIn(() => this.current()) as T;
  }
}

type Resolve = () => object;

const isReference = (value: unknown): value is object =>
  (typeof value === "object" && value !== null) || typeof value === "function";

/**
 * The stand-in for what `parent()[key]` is (`parent` alone for the root). Its target is a function so that it can
 * stand in for a function too (a clock, a seal): calling it calls the current function with its own `this`.
 */
function standIn(parent: Resolve, key?: PropertyKey): unknown {
  const resolve: Resolve = key === undefined ? parent : () => Reflect.get(parent(), key) as object;
  const children = new Map<PropertyKey, unknown>();
  // An arrow function: callable, with no own property a Proxy must report (a function's `prototype` is one).
  const read = (property: PropertyKey) => {
    const known = children.get(property);
    if (known !== undefined) return known;
    const value = Reflect.get(resolve(), property);
    if (!isReference(value)) return value;
    const child = standIn(resolve, property);
    children.set(property, child);
    return child;
  };
  return new Proxy(() => undefined, {
    get: (_target, property) => read(property),
    set(_target, property, value) {
      return Reflect.set(resolve(), property, value);
    },
    has(_target, property) {
      return Reflect.has(resolve(), property);
    },
    // A spread (`{ ...config.rateLimit }`) copies the current instance's keys.
    ownKeys() {
      return Reflect.ownKeys(resolve());
    },
    // A spread copies stand-ins again (or values): what it copied still follows the instance it is used for.
    getOwnPropertyDescriptor(_target, property) {
      const descriptor = Reflect.getOwnPropertyDescriptor(resolve(), property);
      // Reported configurable, as a Proxy must report a property its target lacks.
      return (
        descriptor && { value: read(property), writable: true, enumerable: descriptor.enumerable, configurable: true }
      );
    },
    apply(_target, _this, args) {
      if (key === undefined) throw new TypeError("an instance's services are not a function");
      const owner = parent();
      return Reflect.apply(Reflect.get(owner, key) as (...args: unknown[]) => unknown, owner, args);
    },
  });
}
