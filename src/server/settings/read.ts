/** Flags and environment read through a settings table: a flag wins over the environment, which wins over the default. */
import {
  Combined,
  Fixed,
  inputKey,
  Setting,
  type AnySetting,
  type Raw,
  type Table,
  type TableNode,
  type Values,
} from "./setting.js";

export type Environment = Readonly<Record<string, string | undefined>>;
/** The flags' values by their commander names (`rateLimitWindow`). */
type Input = Readonly<Record<string, Raw | undefined>>;

/** Empty is not given: `FEEDGATE_REDIS=` in a compose file, or `--db ""`, leaves the default. */
const given = (value: Raw | undefined): Raw | undefined => (value === "" ? undefined : value);

/** One setting's value from its flag's value (undefined: not given) and the environment. */
export function readSetting<T>(row: Setting<string, T>, flagValue: Raw | undefined, env: Environment): T {
  return row.read(given(flagValue) ?? given(env[row.env]));
}

function readNode(node: TableNode, input: Input, env: Environment): unknown {
  if (node instanceof Setting) return readSetting(node, input[inputKey(node)], env);
  if (node instanceof Fixed) return node.value;
  if (node instanceof Combined) return node.assemble(readNode(node.rows, input, env) as never);
  return Object.fromEntries(Object.entries(node as Table).map(([key, child]) => [key, readNode(child, input, env)]));
}

/** Every value of `table`, as nested as the table. */
export function readSettings<T extends Table>(table: T, input: Input, env: Environment): Values<T> {
  return readNode(table, input, env) as Values<T>;
}

/** The rows of a table in its order, the rows of combined settings included: for the help and the commander options. */
export function rowsOf(node: TableNode): AnySetting[] {
  if (node instanceof Setting) return [node];
  if (node instanceof Fixed) return [];
  if (node instanceof Combined) return rowsOf(node.rows);
  return Object.values(node as Table).flatMap(rowsOf);
}
