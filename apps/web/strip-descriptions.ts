import type { Plugin } from 'vite';

/** The contract's endpoint definitions, whose descriptions document the API for people and the server's OpenAPI. */
const ENDPOINTS = /packages\/contract\/src\/endpoints\/[^/]+\.ts$/;

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

/** The `description` properties of the objects handed to `endpoint(...)`, as [start, end) ranges of the code. */
function descriptionRanges(node: Node, ranges: [number, number][]): void {
  if (node.type === 'CallExpression' && isNode(node.callee) && node.callee.name === 'endpoint') {
    const [definition] = node.arguments as Node[];
    for (const property of (definition?.type === 'ObjectExpression' ? definition.properties : []) as Node[]) {
      if (isNode(property.key) && property.key.name === 'description') ranges.push([property.start, property.end]);
    }
  }
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) if (isNode(child)) descriptionRanges(child, ranges);
  }
}

/**
 * The web app reads an endpoint's method, path and access, never its description: the build blanks the descriptions
 * out (spaces, so every position and the source maps stay right), and the strings they alone used are then dropped as
 * unused. About 3 KB of gzip in the first page's budget.
 */
export function stripEndpointDescriptions(): Plugin {
  return {
    name: 'tonearm:strip-endpoint-descriptions',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!ENDPOINTS.test(id)) return null;
      const ranges: [number, number][] = [];
      descriptionRanges(this.parse(code) as unknown as Node, ranges);
      if (ranges.length === 0) return null;
      let stripped = code;
      for (const [start, end] of ranges) {
        // The property and its comma become spaces; line breaks stay where they were.
        const comma = stripped[end] === ',' ? end + 1 : end;
        stripped =
          stripped.slice(0, start) + stripped.slice(start, comma).replace(/[^\n]/g, ' ') + stripped.slice(comma);
      }
      return { code: stripped, map: null };
    },
  };
}
