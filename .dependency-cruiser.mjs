// The import-cycle check (issue 10): `npm run check:cycles`, a step of `npm test`.
//
// - No file imports itself back, through any chain, in the server or in the web app.
// - On the server, folders depend one way too: songs/ may use artists/, and then artists/ never uses songs/, not even
//   for a type. (dependency-cruiser leaves a folder and its own subfolders out of this: modules/index.ts registers
//   what modules/songs/ exports, and modules/songs/ reads the shared deps type of modules/shared-deps.ts.)
//
// Type-only imports count (tsPreCompilationDeps): a cycle of types ties two modules together as much as one of values.
// The `.js` suffix of an import resolves to the `.ts` file beside it, as TypeScript resolves it. Tests and their
// fixtures are left out: they may import from anywhere, and nothing imports them.
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-server-cycles',
      comment: 'Server files depend one way: no import cycle anywhere in apps/server/src.',
      severity: 'error',
      from: { path: '^apps/server/src/' },
      to: { path: '^apps/server/src/', circular: true },
    },
    {
      name: 'no-server-folder-cycles',
      comment:
        'Server folders (modules, http, plugins, ...) depend one way: no cycle between folders of apps/server/src.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^apps/server/src/' },
      to: { path: '^apps/server/src/', circular: true },
    },
    {
      name: 'no-web-cycles',
      comment: 'Web files depend one way: no import cycle anywhere in apps/web/src.',
      severity: 'error',
      from: { path: '^apps/web/src/' },
      to: { path: '^apps/web/src/', circular: true },
    },
    {
      name: 'no-web-folder-cycles',
      comment: 'Web folders (features, ui, lib, ...) depend one way: no cycle between folders of apps/web/src.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^apps/web/src/' },
      to: { path: '^apps/web/src/', circular: true },
    },
  ],
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
