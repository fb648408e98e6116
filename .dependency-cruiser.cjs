/**
 * The import rules `npm test` keeps (npm run lint:imports): no circle, no Node-only module in the code browsers run,
 * and no import that runs back up a layer. Layers, lowest first: a module may import its own layer and those below.
 */
const LAYERS = [
  ["wire facts", "^src/api/"],
  [
    "foundations",
    "^src/server/(failures|errors|client-errors|config|bounded-cache|clock)[.]ts$|^src/server/(settings|git)/",
  ],
  ["stores and counters", "^src/server/(store|counters)/"],
  ["converters", "^src/server/convert/"],
  ["webhook delivery", "^src/server/webhooks/"],
  ["services", "^src/server/services/"],
  ["streams", "^src/server/streams/"],
  [
    "process parts",
    "^src/server/(metrics|logging|tls|compiled-schemas|request-id)[.]ts$|^src/server/repeats/|^src/server/openapi/(route-doc|security)[.]ts$",
  ],
  ["plugins", "^src/server/plugins/(?!openapi[.]ts$)"],
  ["routes and console", "^src/server/(routes|console)/"],
  // The OpenAPI document describes the routes (each describes itself beside its definition), so it sits above them.
  [
    "API description",
    "^src/server/openapi-description[.]ts$|^src/server/openapi/(?!(route-doc|security)[.]ts$)|^src/server/plugins/openapi[.]ts$",
  ],
  ["assembly", "^src/server/(app|composition|main|metrics-server)[.]ts$"],
  ["command line and test double", "^src/(cli|testing)/"],
];

const upward = LAYERS.flatMap(([name, path], index) => {
  const above = LAYERS.slice(index + 1).map(([, abovePath]) => `(${abovePath})`);
  return above.length === 0
    ? []
    : [
        {
          name: `no-upward-from-${name.replaceAll(" ", "-")}`,
          comment: `${name} must not import a layer above it (see .dependency-cruiser.cjs LAYERS and docs/layout.md)`,
          severity: "error",
          from: { path },
          to: { path: above.join("|") },
        },
      ];
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "an import circle: cut out what both need into its own module",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "wire-facts-stand-alone",
      comment:
        "src/api is shared by server and SDK and runs in browsers: it imports only itself and packages, never Node",
      severity: "error",
      from: { path: "^src/api/" },
      to: { pathNot: "^src/api/|^node_modules/" },
    },
    {
      name: "sdk-stands-on-wire-facts",
      comment:
        "the SDK (src/client) imports the wire facts and itself, never the server, the CLI or Node's own modules",
      severity: "error",
      from: { path: "^src/client/" },
      to: { pathNot: "^src/(api|client)/|^node_modules/" },
    },
    {
      name: "config-imports-nothing-of-the-server",
      comment:
        "settings are plain data that every part of the server may read; a bad value is an InvalidInputError " +
        "(failures.ts, which imports nothing), as every other bad input",
      severity: "error",
      from: { path: "^src/server/config[.]ts$|^src/server/settings/" },
      to: { path: "^src/server/", pathNot: "^src/server/(config|failures)[.]ts$|^src/server/settings/" },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Type-only imports count: a circle of types is still a circle for whoever reads the code.
    tsPreCompilationDeps: true,
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
  },
};
