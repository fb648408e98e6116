// `npm run build`'s step after tsc: the console's static files go next to the compiled module that serves them.
import { cpSync } from "node:fs";

cpSync(
  new URL("../src/server/console/assets/", import.meta.url),
  new URL("../dist/server/console/assets/", import.meta.url),
  { recursive: true },
);
