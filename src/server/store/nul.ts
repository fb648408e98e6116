/**
 * PostgreSQL refuses NUL in text (it is SQLite's ordinary character), so there a name holding one names nothing: a
 * look-up answers "not found" without asking, where asking would fail.
 */
export const holdsNul = (...texts: string[]) => texts.some((text) => text.includes("\0"));
