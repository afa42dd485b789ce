// The import-cycle check (issue 10): `npm run check:cycles`, a step of `npm test`. Which folders it cruises is set
// there (package.json); the rules below cover the server and the web app.
//
// - No file imports itself back, through any chain.
// - Folders depend one way too: server modules/songs/ may use modules/artists/, and then artists/ never uses songs/,
//   not even for a type. dependency-cruiser leaves a folder and its own subfolders out of this (modules/index.ts
//   registers what modules/songs/ exports, and modules/songs/ reads the deps type of modules/shared-deps.ts).
//
// Type-only imports count (tsPreCompilationDeps): a cycle of types ties two modules together as much as one of values.
// The `.js` suffix of an import resolves to the `.ts` file beside it, as TypeScript resolves it. Tests and their
// fixtures are left out: they may import from anywhere, and nothing imports them.

/** The two rules for the sources under `root`: no cycle between files, none between folders. */
function noCycles(name, root) {
  const within = { path: `^${root}/` };
  return [
    {
      name: `no-${name}-cycles`,
      comment: `No import cycle between files of ${root}.`,
      severity: 'error',
      from: within,
      to: { ...within, circular: true },
    },
    {
      name: `no-${name}-folder-cycles`,
      comment: `No cycle between folders of ${root}: features, and layers such as http/ or ui/, depend one way.`,
      severity: 'error',
      scope: 'folder',
      from: within,
      to: { ...within, circular: true },
    },
  ];
}

/**
 * The server's layers below the feature modules never import a module: they are what modules are built on (stored
 * media, blob stores, HTTP helpers, sessions, the database, counters, app-wide plugins, metrics, maintenance). What a
 * module and one of these both need lives in the lower one. The composition root (src/*.ts), cli/, demo/ and backup/
 * sit above the modules and may import them.
 */
const belowModules = {
  name: 'server-layers-below-modules',
  comment:
    'maintenance/, storage/, http/, media/, sessions/, db/, counters/, plugins/, metrics/ and threads/ never import modules/.',
  severity: 'error',
  from: { path: '^apps/server/src/(maintenance|storage|http|media|sessions|db|counters|plugins|metrics|threads)/' },
  to: { path: '^apps/server/src/modules/' },
};

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [...noCycles('server', 'apps/server/src'), ...noCycles('web', 'apps/web/src'), belowModules],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: {
      path: [
        '(^|/)(node_modules|dist)/',
        '\\.test\\.tsx?$',
        '\\.fixtures\\.ts$',
        '/test-fixtures\\.ts$',
        '^apps/web/src/test/',
      ],
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
