/**
 * The commander options of settings, made from their rows (server/settings/table.ts): the flag, its placeholder
 * and a help naming the environment variable and the default, so that no command writes a setting's help by hand.
 */
import type { Command } from "commander";
import { helpOf } from "../server/settings/help.js";
import { readSetting, rowsOf, type Environment } from "../server/settings/read.js";
import { inputKey, type AnySetting, type Setting, type Table } from "../server/settings/setting.js";

/**
 * Adds `row`'s flag. No commander default: the environment, read later, must win over the default, and commander
 * would set the default as if it were given.
 */
export function settingOption(command: Command, row: AnySetting): Command {
  const flags = row.arg === undefined ? row.flag : `${row.flag} ${row.arg}`;
  if (!row.repeatable) return command.option(flags, helpOf(row));
  return command.option(flags, helpOf(row), (value: string, given?: string) => (given ? `${given} ${value}` : value));
}

/** Every setting of `table`, in its order (`feedgate serve`). */
export function settingOptions(command: Command, table: Table): Command {
  for (const row of rowsOf(table)) settingOption(command, row);
  return command;
}

/** `row`'s value for `command`: its flag, else its environment variable, else its default. */
export function settingValue<T>(command: Command, row: Setting<string, T>, env: Environment): T {
  return readSetting(row, command.getOptionValue(inputKey(row)), env);
}
