/** The test controls' OpenAPI description (./test-controls.ts registers them, only under `--test-controls`). */
import { Type } from "@sinclair/typebox";
import { jsonResponse, type RouteDoc } from "../openapi/route-doc.js";

const Now = Type.Object({ now: Type.String({ format: "date-time" }) });
const Fault = Type.Object({
  id: Type.Integer(),
  method: Type.Union([Type.String(), Type.Null()]),
  path: Type.String(),
  status: Type.Integer(),
  headers: Type.Record(Type.String(), Type.String()),
  body: Type.Unknown(),
  delayMs: Type.Integer(),
  remaining: Type.Union([Type.Integer(), Type.Null()]),
});
const Snapshot = Type.Object({ id: Type.String() });

const WIPES =
  "Only on a server started with `--test-controls`; any caller may use it, and it changes what every caller sees.";
const doc = (
  operationId: string,
  summary: string,
  description: string,
  success: RouteDoc["success"],
  body?: object,
): RouteDoc => ({
  operationId: `testControls.${operationId}`,
  tag: "testControls",
  summary,
  security: "none",
  description: `${description} ${WIPES}`,
  success,
  conditional: false,
  ...(body ? { body: { content: { "application/json": { schema: body } } } } : {}),
});

export const RESET = doc(
  "reset",
  "Reset to the start",
  "Puts the database back as it was when the server was ready (its seeded world), the clock back to its start, and " +
    "clears faults, rate-limit windows and the delivery record.",
  { 200: jsonResponse(Now, "The clock after the reset") },
);

export const READ_CLOCK = doc("readClock", "Read the clock", "The time every rule of the server reads.", {
  200: jsonResponse(Now, "The clock"),
});

export const SET_CLOCK = doc(
  "setClock",
  "Set or advance the clock",
  '`{"now": "2026-01-01T00:00:00Z"}` sets it; `{"advance": "1h"}` (ms, s, m, h, d, or a number of milliseconds) ' +
    "moves it forward. Webhook retries brought due are sent at once.",
  { 200: jsonResponse(Now, "The clock after the change") },
  Type.Object({
    now: Type.Optional(Type.String()),
    advance: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
  }),
);

export const ADD_FAULT = doc(
  "addFault",
  "Make requests fail",
  "Answers matching requests (`path`: a route pattern such as `/repos/:owner/:repo/events`, or an exact path; " +
    "`method`: any when absent) with `status`, `headers` and `body` after `delayMs`, for `times` requests (every one " +
    'until cleared when absent), before authentication and rate limiting. `preset: "secondary-rate-limit"` ' +
    '(with `retryAfter`) and `preset: "unavailable"` send GitHub\'s own answers.',
  { 201: jsonResponse(Fault, "The fault as added") },
  Type.Object({
    preset: Type.Optional(Type.String()),
    method: Type.Optional(Type.String()),
    path: Type.String(),
    status: Type.Optional(Type.Integer()),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    body: Type.Optional(Type.Unknown()),
    delayMs: Type.Optional(Type.Integer()),
    times: Type.Optional(Type.Integer()),
    retryAfter: Type.Optional(Type.Integer()),
  }),
);

export const LIST_FAULTS = doc("listFaults", "List faults", "The faults still answering, oldest first.", {
  200: jsonResponse(Type.Array(Fault), "The faults"),
});

export const CLEAR_FAULTS = doc("clearFaults", "Clear faults", "Removes every fault.", {
  204: { description: "Cleared", content: {} },
});

export const TAKE_SNAPSHOT = doc(
  "takeSnapshot",
  "Take a snapshot",
  "Copies the database aside; restore it by its id.",
  { 201: jsonResponse(Snapshot, "The snapshot's id") },
);

export const RESTORE_SNAPSHOT = doc(
  "restoreSnapshot",
  "Restore a snapshot",
  "Puts the database back as the snapshot took it (the clock and faults stay). 404 for an id this server did not hand out.",
  { 200: jsonResponse(Snapshot, "The snapshot restored") },
);

export const LIST_DELIVERIES = doc(
  "listDeliveries",
  "Every webhook delivery attempted",
  "Every attempt since the start or the last reset, oldest first, to every hook: as GitHub shows a delivery, with " +
    "`hook_id`, and the request's headers and payload.",
  {
    200: jsonResponse(
      Type.Array(Type.Object({ hook_id: Type.Integer() }, { additionalProperties: true })),
      "The attempts",
    ),
  },
);
