// The layer rule (issue 31): imports point down or sideways, never up, and never close a cycle.
// Type-only imports count too: a type that travels up is still a dependency on the higher layer.
// A lower layer learns about a higher one only through a registry it owns (an interface the
// higher layer fills by declaration merging, or a register function it calls at start-up).
//
// Read by test/platform/layers.test.ts (in `npm test`) and by `npm run lint` (this file run as a
// script). Only the syntax is read (ts.preProcessFile), so it takes well under a second.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Layers from the bottom up. A file may import its own layer or any lower one. The first
 * matching prefix (relative to the repository root) wins, so list the specific before the broad.
 */
export const LAYERS: ReadonlyArray<{ name: string; why: string; paths: readonly string[] }> = [
  {
    name: 'foundation',
    why: 'configuration, the database client, errors, logging and tracing primitives: everything else stands on them',
    paths: [
      'src/config/',
      'src/db/',
      'src/generated/',
      'src/errors.ts',
      'src/error-codes.ts',
      'src/logger.ts',
      'src/observability/trace-context.ts',
      'src/paths.ts',
      'src/lazy.ts',
      'src/runtime-flags.ts',
      'src/async-storage.ts',
    ],
  },
  {
    name: 'core',
    why: 'the request pipeline and the registries modules plug into: auth, events, jobs, GraphQL, HTTP, the response cache, metrics, the request context and its services',
    paths: ['src/auth/', 'src/events/', 'src/jobs/', 'src/graphql/', 'src/http/', 'src/cache/', 'src/observability/', 'src/context.ts', 'src/services.ts', 'src/runtime.ts'],
  },
  { name: 'modules', why: 'one folder per commerce domain', paths: ['src/modules/'] },
  {
    name: 'plugins',
    why: "the plugin host (src/plugins/: manifests, activation into the modules' registries) and the optional features built on it",
    paths: ['src/plugins/', 'plugins/'],
  },
  {
    name: 'entry',
    why: 'composition roots: the module list (schema.ts), the app built from every layer, and the processes that start it',
    paths: ['src/app.ts', 'src/server.ts', 'src/worker.ts', 'src/cli.ts', 'src/cli-runtime.ts', 'src/seed.ts', 'src/schema.ts'],
  },
];

export interface Edge {
  from: string;
  to: string;
  line: number;
  typeOnly: boolean;
}

export function layerOf(file: string): number {
  const index = LAYERS.findIndex((layer) => layer.paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)));
  if (index < 0) throw new Error(`${file} is in no layer: add it to LAYERS in scripts/layers.ts`);
  return index;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (rel !== 'src/generated') out.push(...sourceFiles(rel));
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/**
 * `./x.js` → `src/…/x.ts` (or `x/index.ts`). Bare package names, and files outside src/ and
 * plugins/ (the published client SDK in client/), are packages any layer may use, not layers.
 */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.js$/, '');
  if (!base.startsWith('src/') && !base.startsWith('plugins/')) return null;
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base])
    if (fs.existsSync(path.join(ROOT, candidate)) && fs.statSync(path.join(ROOT, candidate)).isFile()) return candidate;
  return null;
}

/** Every relative import and re-export of src/ and plugins/, type-only ones included. */
export function importEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const file of [...sourceFiles('src'), ...sourceFiles('plugins')]) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const add = (specifier: ts.Expression | undefined, node: ts.Node, typeOnly: boolean) => {
      if (!specifier || !ts.isStringLiteralLike(specifier)) return;
      const to = resolveImport(file, specifier.text);
      if (to) edges.push({ from: file, to, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, typeOnly });
    };
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node)) {
        const clause = node.importClause;
        const typeOnly =
          !!clause &&
          (clause.isTypeOnly || (!clause.name && !!clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
        add(node.moduleSpecifier, node, typeOnly);
      } else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node, node.isTypeOnly);
      else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression, node, node.isTypeOnly);
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], node, false);
      else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal as ts.Expression, node, true);
      // `declare module '../x.js' { … }` fills a lower layer's registry: that is the allowed way up, not an import.
      if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) return;
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return edges;
}

/** Imports from a higher layer into a lower one. */
export function upwardImports(edges: Edge[]): Edge[] {
  return edges.filter((edge) => layerOf(edge.to) > layerOf(edge.from));
}

/**
 * Import cycles: the strongly connected components with more than one file (Tarjan), each
 * reported with the edges that stay inside it, so the list names every import to cut from.
 */
export function importCycles(edges: Edge[]): Array<{ files: string[]; edges: Edge[] }> {
  const out = new Map<string, Edge[]>();
  for (const edge of edges) out.set(edge.from, [...(out.get(edge.from) ?? []), edge]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  const strongConnect = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const { to } of out.get(v) ?? []) {
      if (!index.has(to)) {
        strongConnect(to);
        low.set(v, Math.min(low.get(v) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v) as number, index.get(to) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = (out.get(v) ?? []).some((e) => e.to === v);
      if (component.length > 1 || selfLoop) components.push(component.sort());
    }
  };
  for (const v of new Set(edges.flatMap((e) => [e.from, e.to]))) if (!index.has(v)) strongConnect(v);
  return components.map((files) => {
    const members = new Set(files);
    return { files, edges: edges.filter((e) => members.has(e.from) && members.has(e.to)) };
  });
}

const describe = (edge: Edge) => `${edge.from}:${edge.line} → ${edge.to}${edge.typeOnly ? ' (type import)' : ''}`;

/** The report both callers print: one line per offending import, `file:line → target`. */
export function layerReport(edges: Edge[] = importEdges()): { upward: string[]; cycles: string[] } {
  const upward = upwardImports(edges).map((edge) => `${describe(edge)}: ${LAYERS[layerOf(edge.from)]?.name} imports ${LAYERS[layerOf(edge.to)]?.name}`);
  const cycles = importCycles(edges).map((cycle) => `cycle of ${cycle.files.length} files:\n${cycle.edges.map((edge) => `    ${describe(edge)}`).join('\n')}`);
  return { upward, cycles };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { upward, cycles } = layerReport();
  for (const line of upward) console.error(`upward import: ${line}`);
  for (const line of cycles) console.error(line);
  console.log(`layers: ${upward.length} upward import(s), ${cycles.length} cycle(s)`);
  if (upward.length || cycles.length) process.exit(1);
}
