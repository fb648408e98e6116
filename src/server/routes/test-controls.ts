/**
 * `/_feedgate/...`: the test double's controls over HTTP, for tests in any language (PyGithub, octokit.rb, gh). Only
 * registered under `--test-controls` (and by `feedgate/testing`); on any other server these paths are the ordinary 404.
 */
import type { FastifyInstance } from "fastify";
import { durationMs } from "../clock.js";
import { ApiError, GENERAL_DOCS } from "../errors.js";
import { InvalidInputError } from "../failures.js";
import { documented } from "../openapi/route-doc.js";
import { SnapshotNotFoundError, type TestControls } from "../services/test-controls.js";
import { toWireDelivery } from "../convert/hook.js";
import {
  ADD_FAULT,
  CLEAR_FAULTS,
  LIST_DELIVERIES,
  LIST_FAULTS,
  READ_CLOCK,
  RESET,
  RESTORE_SNAPSHOT,
  SET_CLOCK,
  TAKE_SNAPSHOT,
} from "./test-controls-openapi.js";

export const TEST_CONTROLS_PREFIX = "/_feedgate";

const bodyObject = (body: unknown): Record<string, unknown> => {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new InvalidInputError("must be a JSON object", { field: "body" });
  return body as Record<string, unknown>;
};

/** `{"now": time}` or `{"advance": duration}`, exactly one. */
function clockChange(body: Record<string, unknown>): { now: Date } | { advance: number } {
  const { now, advance, ...rest } = body;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined)
    throw new InvalidInputError("is not a field of the clock (now, advance)", { field: unknown });
  if ((now === undefined) === (advance === undefined))
    throw new InvalidInputError("give either now or advance", { field: "now" });
  if (now !== undefined) {
    const time = typeof now === "string" && /^\d{4}-\d{2}-\d{2}T/.test(now) ? new Date(now) : new Date(Number.NaN);
    if (Number.isNaN(time.getTime()))
      throw new InvalidInputError(
        `must be an ISO 8601 time such as 2026-01-01T00:00:00Z, got ${JSON.stringify(now).slice(0, 60)}`,
        { field: "now" },
      );
    return { now: time };
  }
  const ms = typeof advance === "string" || typeof advance === "number" ? durationMs(advance) : null;
  if (ms === null || ms < 0)
    throw new InvalidInputError(
      `must be a duration such as 90s, 30m, 1h or 2d, or milliseconds, got ${JSON.stringify(advance).slice(0, 60)}`,
      { field: "advance" },
    );
  return { advance: ms };
}

export function testControlRoutes(app: FastifyInstance, controls: TestControls): void {
  const clock = controls.clock;
  const now = () => ({ now: clock.now().toISOString() });
  const options = (doc: Parameters<typeof documented>[0]) => ({
    config: { rateLimit: false },
    schema: documented(doc),
  });

  app.post(`${TEST_CONTROLS_PREFIX}/reset`, options(RESET), async () => {
    await controls.reset();
    return now();
  });

  app.get(`${TEST_CONTROLS_PREFIX}/clock`, options(READ_CLOCK), async () => now());
  app.put(`${TEST_CONTROLS_PREFIX}/clock`, options(SET_CLOCK), async (request) => {
    const change = clockChange(bodyObject(request.body));
    if ("now" in change) clock.set(change.now);
    else clock.advance(change.advance);
    return now();
  });

  app.post(`${TEST_CONTROLS_PREFIX}/faults`, options(ADD_FAULT), async (request, reply) => {
    const { preset, retryAfter, ...spec } = bodyObject(request.body);
    const fault =
      preset === undefined && retryAfter === undefined
        ? controls.faults.add(spec)
        : preset === "secondary-rate-limit"
          ? controls.faults.secondaryRateLimit({ ...spec, retryAfter } as never)
          : preset === "unavailable" && retryAfter === undefined
            ? controls.faults.unavailable(spec as never)
            : (() => {
                throw new InvalidInputError("must be secondary-rate-limit (with retryAfter) or unavailable", {
                  field: "preset",
                });
              })();
    return reply.code(201).send(fault);
  });
  app.get(`${TEST_CONTROLS_PREFIX}/faults`, options(LIST_FAULTS), async () => controls.faults.list());
  app.delete(`${TEST_CONTROLS_PREFIX}/faults`, options(CLEAR_FAULTS), async (_request, reply) => {
    controls.faults.clear();
    return reply.code(204).send();
  });

  app.post(`${TEST_CONTROLS_PREFIX}/snapshots`, options(TAKE_SNAPSHOT), async (_request, reply) =>
    reply.code(201).send({ id: await controls.snapshot() }),
  );
  app.post<{ Params: { id: string } }>(
    `${TEST_CONTROLS_PREFIX}/snapshots/:id/restore`,
    options(RESTORE_SNAPSHOT),
    async (request) => {
      try {
        await controls.restore(request.params.id);
      } catch (error) {
        if (error instanceof SnapshotNotFoundError)
          throw new ApiError(404, `Not Found: ${error.message}`, { documentationUrl: GENERAL_DOCS });
        throw error;
      }
      return { id: request.params.id };
    },
  );

  app.get(`${TEST_CONTROLS_PREFIX}/deliveries`, options(LIST_DELIVERIES), async () =>
    controls.deliveries().map((attempt) => ({ hook_id: attempt.hookId, ...toWireDelivery(attempt) })),
  );
}
