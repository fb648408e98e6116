/**
 * What a create or an update of a check run asks for, checked as GitHub checks it
 * (https://docs.github.com/rest/checks/runs#create-a-check-run): a status and a conclusion of GitHub's words, a
 * conclusion or a `completed_at` completing the run, a completed run having a conclusion, an output with its title and
 * summary, and at most 50 annotations a request, each with its path, lines, level and message. No I/O.
 */
import { validationFailed } from "../../errors.js";
import {
  CHECK_CONCLUSIONS,
  CHECK_STATUSES,
  type CheckAnnotation,
  type CheckConclusion,
  type CheckRunChanges,
  type CheckRunRow,
  type CheckStatus,
} from "../../store/store.js";

/** A run's fields as the table's rows take them (create and update share them; an update's name is optional). */
export interface CheckRunInput {
  name?: string;
  details_url?: string;
  external_id?: string;
  status?: string;
  started_at?: string;
  conclusion?: string;
  completed_at?: string;
  output?: { title?: string; summary?: string; text?: string; annotations?: Record<string, unknown>[] };
}

/** GitHub's limit of annotations in one request ("a maximum of 50 per API request"). */
export const MAX_ANNOTATIONS = 50;
const LEVELS = ["notice", "warning", "failure"] as const;

const DOCS = "https://docs.github.com/rest/checks/runs#create-a-check-run";
const refused = (field: string, code = "invalid") => validationFailed([{ resource: "CheckRun", code, field }], DOCS);

function oneOf<T extends string>(words: readonly T[], value: string, field: string): T {
  if (!(words as readonly string[]).includes(value)) throw refused(field);
  return value as T;
}

function timeOf(value: string, field: string): Date {
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(at.getTime())) throw refused(field);
  return at;
}

/** The run's fields after the input, over what it had (`existing`, null for a new run), at `now`. */
export function runChanges(input: CheckRunInput, existing: CheckRunRow | null, now: Date): CheckRunChanges {
  const asked = input.status === undefined ? undefined : oneOf<CheckStatus>(CHECK_STATUSES, input.status, "status");
  const conclusion =
    input.conclusion === undefined
      ? (existing?.conclusion ?? null)
      : oneOf<CheckConclusion>(CHECK_CONCLUSIONS, input.conclusion, "conclusion");
  // "Providing conclusion will automatically set the status parameter to completed"; so does a completed_at.
  const completes = input.conclusion !== undefined || input.completed_at !== undefined;
  const status: CheckStatus = completes ? "completed" : (asked ?? existing?.status ?? "queued");
  if (status === "completed" && conclusion === null) throw refused("conclusion", "missing_field");
  if (input.output && (input.output.title === undefined || input.output.summary === undefined))
    throw refused(input.output.title === undefined ? "output.title" : "output.summary", "missing_field");
  const startedAt =
    input.started_at === undefined ? (existing?.startedAt ?? now) : timeOf(input.started_at, "started_at");
  const completedAt =
    status !== "completed"
      ? null
      : input.completed_at === undefined
        ? (existing?.completedAt ?? now)
        : timeOf(input.completed_at, "completed_at");
  const name = input.name ?? existing?.name ?? "";
  if (name === "") throw refused("name", "missing_field");
  return {
    name,
    status,
    conclusion: status === "completed" ? conclusion : null,
    startedAt,
    completedAt,
    // GitHub keeps "" for a run made without one, as its payloads show.
    externalId: input.external_id ?? existing?.externalId ?? "",
    detailsUrl: input.details_url ?? existing?.detailsUrl ?? null,
    output: input.output
      ? { title: input.output.title ?? null, summary: input.output.summary ?? null, text: input.output.text ?? null }
      : (existing?.output ?? { title: null, summary: null, text: null }),
  };
}

const text = (value: unknown, field: string, required: boolean): string | null => {
  if (value === undefined || value === null) {
    if (required) throw refused(field, "missing_field");
    return null;
  }
  if (typeof value !== "string" || value.includes("\u0000")) throw refused(field);
  return value;
};

const line = (value: unknown, field: string, required: boolean): number | null => {
  if (value === undefined || value === null) {
    if (required) throw refused(field, "missing_field");
    return null;
  }
  if (!Number.isSafeInteger(value) || (value as number) < 1) throw refused(field);
  return value as number;
};

/** The output's annotations, at most 50, each as GitHub requires it; columns only on a single line, as GitHub has. */
export function annotationsOf(input: CheckRunInput): CheckAnnotation[] {
  const given = input.output?.annotations ?? [];
  if (given.length > MAX_ANNOTATIONS) throw refused("output.annotations");
  return given.map((a, i) => {
    const at = (key: string) => `output.annotations[${i}].${key}`;
    const startLine = line(a.start_line, at("start_line"), true)!;
    const endLine = line(a.end_line, at("end_line"), true)!;
    if (endLine < startLine) throw refused(at("end_line"));
    const startColumn = line(a.start_column, at("start_column"), false);
    const endColumn = line(a.end_column, at("end_column"), false);
    if ((startColumn !== null || endColumn !== null) && startLine !== endLine) throw refused(at("start_column"));
    return {
      path: text(a.path, at("path"), true)!,
      startLine,
      endLine,
      startColumn,
      endColumn,
      annotationLevel: oneOf(LEVELS, text(a.annotation_level, at("annotation_level"), true)!, at("annotation_level")),
      title: text(a.title, at("title"), false),
      message: text(a.message, at("message"), true)!,
      rawDetails: text(a.raw_details, at("raw_details"), false),
    };
  });
}
