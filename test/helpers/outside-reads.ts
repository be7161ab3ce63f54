/**
 * Finds the places where the repository's code or docs reach for a path outside the repository, so
 * that a clone with nothing beside it has everything its tests, bench, scripts and docs need.
 *
 * Code is parsed (TypeScript's parser, for .ts and .js alike) and the path expressions in it are
 * evaluated as far as their constant parts go: string literals and templates, consts of the same
 * file, `import.meta.url` / `dirname` / `filename`, `__dirname`, `process.cwd()` (the repository
 * root: npm runs every script there), `new URL(a, base)`, `path.join` / `resolve` / `dirname`,
 * `fileURLToPath`, `??`, `||` and `?:` (every branch). A place is reported when
 * - an import, `import()` or `require()` names a file outside the repository;
 * - a file URL (`new URL(..., import.meta.url)`, a `file:` literal) or a path built from the
 *   module's own location or the working directory climbs out of it;
 * - an `fs` call, or a `child_process` call's program, arguments or `cwd`, gets such a path (a
 *   relative one counts from the root);
 * - any string literal is an absolute path (or `file:` URL) to something that exists outside the repository and
 *   outside the system's own directories (`/usr`, `/proc`, `/tmp`, ...: packages and the kernel, not
 *   a checkout beside this one) — whatever it is passed to.
 * Docs: a link that leaves the repository, or a `../` path (read from the root, as the README's
 * commands are) that does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface Finding {
  /** Relative to the repository root. */
  file: string;
  line: number;
  form: 'import' | 'file-url' | 'path' | 'fs' | 'child-process' | 'absolute' | 'doc-link' | 'doc-path';
  /** The source text of the expression. */
  text: string;
  /** Where it points. */
  resolved: string;
}

/** What the machine's own directories are: reading them is using the system, not a sibling of the repository. */
const SYSTEM_DIRS = ['/bin', '/dev', '/etc', '/lib', '/lib64', '/proc', '/run', '/sbin', '/sys', '/tmp', '/usr', '/var'];

const FS_MODULES = new Set(['fs', 'node:fs', 'fs/promises', 'node:fs/promises']);
const PATH_MODULES = new Set(['path', 'node:path']);
const URL_MODULES = new Set(['url', 'node:url']);
const CHILD_MODULES = new Set(['child_process', 'node:child_process']);
const CODE_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/;
/** Stands for the parts of a string the scanner cannot know. */
const UNKNOWN = '\0';

/**
 * A value a path expression can take: text known up to its UNKNOWN parts, or a location on disk.
 * `fromAbsolute` marks a location written as an absolute path (judged against SYSTEM_DIRS) rather
 * than reached from the repository (judged against the root alone).
 */
type Value = { kind: 'text'; text: string } | { kind: 'loc'; path: string; fromAbsolute: boolean };

const text = (t: string): Value => ({ kind: 'text', text: t });
const loc = (p: string, fromAbsolute: boolean): Value => ({ kind: 'loc', path: p, fromAbsolute });

const isInside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
const isSystem = (p: string) => SYSTEM_DIRS.some((d) => p === d || p.startsWith(`${d}/`));

/** Resolves like a URL does: a base that does not end with `/` is a file, its folder is the base. */
function urlResolve(base: string, spec: string): string {
  const dir = base.endsWith('/') ? base : path.dirname(base);
  const out = path.resolve(dir, spec);
  return spec.endsWith('/') && !out.endsWith('/') ? `${out}/` : out;
}

/** The known beginning of a text that may be a path (up to the last `/` before an unknown part). */
function knownPrefix(t: string): string {
  const cut = t.indexOf(UNKNOWN);
  if (cut < 0) return t;
  return t.slice(0, t.lastIndexOf('/', cut) + 1);
}

const looksLikePath = (t: string) => t === '.' || t === '..' || t.startsWith('/') || t.startsWith('./') || t.startsWith('../') || t.startsWith('file:');

interface Context {
  root: string;
  file: string;
  source: ts.SourceFile;
  /** Names bound by `const/let/var x = ...` in the file (the last one wins; shadowing is ignored). */
  bindings: Map<string, ts.Expression>;
  /** Local names of imports: `fs`, `readFileSync`, `join`, ... with the module they come from and the imported name. */
  imports: Map<string, { module: string; name: string }>;
  exists: (p: string) => boolean;
  findings: Finding[];
  /** In web/: absolute import specifiers are URL paths of the portal, not files. */
  web: boolean;
}

export interface ScanOptions {
  /** Whether a path exists (the absolute-literal rule); the disk by default. */
  exists?: (p: string) => boolean;
}

/** The findings of one source file; `file` is its path relative to `root`. */
export function scanCode(code: string, file: string, root: string, options: ScanOptions = {}): Finding[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, /\.m?js$|\.cjs$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const c: Context = {
    root: path.resolve(root), file, source, bindings: new Map(), imports: new Map(),
    exists: options.exists ?? ((p) => fs.existsSync(p)), findings: [], web: file.split('/')[0] === 'web',
  };
  collect(c, source);
  visit(c, source);
  return c.findings;
}

function collect(c: Context, node: ts.Node) {
  if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) c.bindings.set(node.name.text, node.initializer);
  if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.importClause) {
    const module = node.moduleSpecifier.text;
    const { name, namedBindings } = node.importClause;
    if (name) c.imports.set(name.text, { module, name: 'default' });
    if (namedBindings && ts.isNamespaceImport(namedBindings)) c.imports.set(namedBindings.name.text, { module, name: '*' });
    if (namedBindings && ts.isNamedImports(namedBindings)) {
      for (const el of namedBindings.elements) c.imports.set(el.name.text, { module, name: (el.propertyName ?? el.name).text });
    }
  }
  ts.forEachChild(node, (n) => collect(c, n));
}

const line = (c: Context, node: ts.Node) => c.source.getLineAndCharacterOfPosition(node.getStart(c.source)).line + 1;

function report(c: Context, node: ts.Node, form: Finding['form'], resolved: string) {
  c.findings.push({ file: c.file, line: line(c, node), form, text: node.getText(c.source).slice(0, 160), resolved });
}

/** Reports `value` if it is a location outside the repository that is not the system's. */
function judge(c: Context, node: ts.Node, form: Finding['form'], value: Value, relativeTo: 'root' | 'file') {
  let where: string;
  let fromAbsolute: boolean;
  if (value.kind === 'loc') {
    where = knownPrefix(value.path);
    fromAbsolute = value.fromAbsolute;
  } else {
    const t = value.text.startsWith('file:') ? safeFileUrl(value.text) : value.text;
    if (t === undefined || !looksLikePath(t)) return;
    const known = knownPrefix(t);
    if (known === '' || known.startsWith(UNKNOWN)) return;
    fromAbsolute = known.startsWith('/');
    where = fromAbsolute ? known : path.resolve(relativeTo === 'root' ? c.root : path.dirname(path.join(c.root, c.file)), known);
  }
  if (where === '' || where.includes(UNKNOWN)) return;
  const normal = path.resolve(where);
  if (isInside(c.root, normal)) return;
  if (fromAbsolute && isSystem(normal)) return;
  report(c, node, form, normal);
}

function safeFileUrl(t: string): string | undefined {
  try {
    return fileURLToPath(knownPrefix(t) || t);
  } catch {
    return undefined;
  }
}

/** Which import an expression stands for: `fs` in `fs.readFileSync`, or `readFileSync` itself. */
function importOf(c: Context, e: ts.Expression): { module: string; name: string } | undefined {
  if (ts.isIdentifier(e)) return c.imports.get(e.text);
  if (ts.isPropertyAccessExpression(e)) {
    const owner = importOf(c, e.expression);
    if (owner && (owner.name === 'default' || owner.name === '*' || owner.name === 'promises')) return { module: owner.module, name: e.name.text };
  }
  return undefined;
}

function visit(c: Context, node: ts.Node) {
  if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
    judgeSpecifier(c, node.moduleSpecifier, node.moduleSpecifier.text);
  } else if (ts.isCallExpression(node)) {
    visitCall(c, node);
  } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL') {
    for (const v of evaluate(c, node)) if (v.kind === 'loc') judge(c, node, 'file-url', v, 'file');
  } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) {
    // The beginning of a string only: after a substitution, `/x` continues whatever came before.
    judgeAbsoluteLiteral(c, node, node.text);
  }
  ts.forEachChild(node, (n) => visit(c, n));
}

function judgeSpecifier(c: Context, node: ts.Node, spec: string) {
  if (spec.startsWith('./') || spec.startsWith('../') || (spec.startsWith('/') && !c.web) || spec.startsWith('file:')) judge(c, node, 'import', text(spec), 'file');
}

function visitCall(c: Context, call: ts.CallExpression) {
  const callee = call.expression;
  if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) {
    for (const v of call.arguments[0] ? evaluate(c, call.arguments[0]) : []) {
      if (v.kind === 'text') judgeSpecifier(c, call, v.text);
      else judge(c, call, 'import', v, 'file');
    }
    return;
  }
  const imported = importOf(c, callee);
  if (!imported) return;
  if (PATH_MODULES.has(imported.module) || URL_MODULES.has(imported.module)) {
    for (const v of evaluate(c, call)) if (v.kind === 'loc') judge(c, call, 'path', v, 'root');
  } else if (FS_MODULES.has(imported.module)) {
    for (const arg of call.arguments.slice(0, 2)) for (const v of evaluate(c, arg)) judge(c, arg, 'fs', v, 'root');
  } else if (CHILD_MODULES.has(imported.module)) {
    const [program, args, options] = call.arguments;
    const parts: ts.Expression[] = [];
    if (program) parts.push(program);
    if (args && ts.isArrayLiteralExpression(args)) parts.push(...args.elements);
    const cwd = options && ts.isObjectLiteralExpression(options) ? options.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'cwd') : undefined;
    if (cwd && ts.isPropertyAssignment(cwd)) parts.push(cwd.initializer);
    for (const part of parts) for (const v of evaluate(c, part)) judge(c, part, 'child-process', v, 'root');
  }
}

/** Any literal that is the absolute path of something outside the repository and the system: a machine's checkout or share. */
function judgeAbsoluteLiteral(c: Context, node: ts.Node, literal: string) {
  const t = literal.startsWith('file:') ? safeFileUrl(literal) : literal;
  if (t === undefined || !t.startsWith('/') || t.startsWith('//')) return;
  const candidate = path.resolve(t.split(/[\s'"`$?#]/)[0]!);
  if (candidate === '/' || isInside(c.root, candidate) || isSystem(candidate)) return;
  if (c.exists(candidate)) report(c, node, 'absolute', candidate);
}

const MAX_VALUES = 16;

/** The values `e` can take, as far as its constant parts go; unknown parts become UNKNOWN in text. */
function evaluate(c: Context, e: ts.Expression, depth = 0): Value[] {
  if (depth > 20) return [text(UNKNOWN)];
  const next = (x: ts.Expression) => evaluate(c, x, depth + 1);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [text(e.text)];
  if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e) || ts.isSatisfiesExpression(e) || ts.isAwaitExpression(e)) return next(e.expression);
  if (ts.isTemplateExpression(e)) {
    let acc: Value[] = [text(e.head.text)];
    for (const span of e.templateSpans) acc = concat(concat(acc, next(span.expression)), [text(span.literal.text)]);
    return acc;
  }
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken) return concat(next(e.left), next(e.right));
    if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) return [...next(e.left), ...next(e.right)].slice(0, MAX_VALUES);
    return [text(UNKNOWN)];
  }
  if (ts.isConditionalExpression(e)) return [...next(e.whenTrue), ...next(e.whenFalse)].slice(0, MAX_VALUES);
  if (ts.isIdentifier(e)) {
    if (e.text === '__dirname') return [loc(path.dirname(path.join(c.root, c.file)), false)];
    if (e.text === '__filename') return [loc(path.join(c.root, c.file), false)];
    const bound = c.bindings.get(e.text);
    return bound ? next(bound) : [text(UNKNOWN)];
  }
  if (ts.isPropertyAccessExpression(e)) {
    if (ts.isMetaProperty(e.expression) && e.expression.keywordToken === ts.SyntaxKind.ImportKeyword) {
      const self = path.join(c.root, c.file);
      if (e.name.text === 'url' || e.name.text === 'filename') return [loc(self, false)];
      if (e.name.text === 'dirname') return [loc(path.dirname(self), false)];
    }
    if (e.name.text === 'href' || e.name.text === 'pathname') return next(e.expression).map((v) => (v.kind === 'loc' ? v : text(UNKNOWN)));
    return [text(UNKNOWN)];
  }
  if (ts.isNewExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'URL' && e.arguments?.length) return newUrl(c, e.arguments, next);
  if (ts.isCallExpression(e)) return call(c, e, next);
  return [text(UNKNOWN)];
}

function concat(left: Value[], right: Value[]): Value[] {
  const out: Value[] = [];
  for (const l of left) {
    for (const r of right) {
      const rt = r.kind === 'text' ? r.text : UNKNOWN;
      out.push(l.kind === 'loc' ? loc(l.path + rt, l.fromAbsolute) : text(l.text + rt));
    }
  }
  return out.slice(0, MAX_VALUES);
}

function newUrl(c: Context, args: ts.NodeArray<ts.Expression>, next: (x: ts.Expression) => Value[]): Value[] {
  const specs = next(args[0]!);
  const bases = args[1] ? next(args[1]) : [text('')];
  const out: Value[] = [];
  for (const spec of specs) {
    if (spec.kind === 'loc') {
      out.push(spec);
      continue;
    }
    if (spec.text.startsWith('file:')) {
      const p = safeFileUrl(spec.text);
      if (p !== undefined) out.push(loc(p, true));
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(spec.text) || spec.text.startsWith(UNKNOWN)) continue;
    for (const base of bases) {
      if (base.kind === 'loc') out.push(spec.text.startsWith('/') ? loc(spec.text, true) : loc(urlResolve(base.path, spec.text), base.fromAbsolute));
      else if (base.text.startsWith('file:')) {
        const p = safeFileUrl(base.text);
        if (p !== undefined) out.push(loc(urlResolve(p, spec.text), true));
      }
    }
  }
  return out.length ? out.slice(0, MAX_VALUES) : [text(UNKNOWN)];
}

function call(c: Context, e: ts.CallExpression, next: (x: ts.Expression) => Value[]): Value[] {
  const callee = e.expression;
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'process' && callee.name.text === 'cwd') {
    return [loc(c.root, false)];
  }
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'toString') return next(callee.expression);
  if (ts.isIdentifier(callee) && callee.text === 'String' && e.arguments[0]) return next(e.arguments[0]);
  const imported = importOf(c, callee);
  if (!imported) return [text(UNKNOWN)];
  const args = e.arguments.map((a) => next(a));
  const fn = imported.name;
  if (URL_MODULES.has(imported.module) && (fn === 'fileURLToPath' || fn === 'pathToFileURL') && args[0]) {
    return args[0].map((v) => (v.kind === 'loc' ? v : v.text.startsWith('file:') ? locOrUnknown(safeFileUrl(v.text)) : v.text.startsWith('/') ? loc(v.text, true) : text(UNKNOWN)));
  }
  if (!PATH_MODULES.has(imported.module)) return [text(UNKNOWN)];
  if (fn === 'dirname' && args[0]) return args[0].map((v) => (v.kind === 'loc' ? loc(path.dirname(v.path), v.fromAbsolute) : text(UNKNOWN)));
  if (fn === 'join' || fn === 'resolve') return joined(c, fn, args);
  return [text(UNKNOWN)];
}

const locOrUnknown = (p: string | undefined): Value => (p === undefined ? text(UNKNOWN) : loc(p, true));

/** `path.join` / `path.resolve` over every combination of the arguments' values. */
function joined(c: Context, fn: 'join' | 'resolve', args: Value[][]): Value[] {
  let acc: Value[] = fn === 'resolve' ? [loc(c.root, false)] : [text('')];
  for (const arg of args) {
    const out: Value[] = [];
    for (const a of acc) {
      for (const v of arg) {
        if (v.kind === 'loc') out.push(fn === 'resolve' || (a.kind === 'text' && a.text === '') ? v : text(UNKNOWN));
        else if (v.text.startsWith(UNKNOWN)) out.push(a.kind === 'loc' ? loc(path.join(a.path, UNKNOWN), a.fromAbsolute) : text(UNKNOWN));
        else if (a.kind === 'loc') out.push(fn === 'resolve' && v.text.startsWith('/') ? loc(v.text, true) : loc(path.join(a.path, v.text), a.fromAbsolute));
        else if (fn === 'resolve' && v.text.startsWith('/')) out.push(loc(v.text, true));
        else out.push(a.text === '' && v.text.startsWith('/') ? loc(v.text, true) : text(a.text === '' ? v.text : path.join(a.text, v.text)));
      }
    }
    acc = out.slice(0, MAX_VALUES);
  }
  return acc;
}

const LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
/** A relative path that climbs (`../`), where it starts: not inside a word or after other dots. */
const CLIMB = /(?<![\w./-])((?:\.\.\/)+[\w.@-][\w./@-]*)/g;
const ABSOLUTE = /(?<![\w.:/-])(\/[\w.@-]+(?:\/[\w.@-]+)+)/g;

/** The findings of one Markdown document; `file` is its path relative to `root`. */
export function scanMarkdown(doc: string, file: string, root: string, options: ScanOptions = {}): Finding[] {
  const exists = options.exists ?? ((p: string) => fs.existsSync(p));
  const base = path.resolve(root);
  const dir = path.dirname(path.join(base, file));
  const out: Finding[] = [];
  doc.split('\n').forEach((lineText, i) => {
    const add = (form: Finding['form'], t: string, resolved: string) => out.push({ file, line: i + 1, form, text: t, resolved });
    for (const m of lineText.matchAll(LINK)) {
      const target = m[1]!.split('#')[0]!;
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const resolved = target.startsWith('/') ? target : path.resolve(dir, target);
      if (!isInside(base, resolved) && !(target.startsWith('/') && isSystem(resolved))) add('doc-link', m[0], resolved);
    }
    for (const m of lineText.matchAll(CLIMB)) {
      const resolved = path.resolve(base, m[1]!);
      if (!isInside(base, resolved) && !lineText.includes(`](${m[1]}`)) add('doc-path', m[1]!, resolved);
    }
    out.push(...absolutePlaces(lineText, file, i + 1, base, exists));
  });
  return out;
}

/** Absolute paths in a line of text that name an existing place outside the repository and the system. */
function absolutePlaces(lineText: string, file: string, line: number, base: string, exists: (p: string) => boolean): Finding[] {
  const out: Finding[] = [];
  for (const m of lineText.matchAll(ABSOLUTE)) {
    const resolved = path.resolve(m[1]!);
    if (!isInside(base, resolved) && !isSystem(resolved) && exists(resolved)) out.push({ file, line, form: 'absolute', text: m[1]!, resolved });
  }
  return out;
}

/** Absolute paths of existing outside places in a file that is neither code nor Markdown (HTML, CSS, JSON, notices). */
export function scanText(body: string, file: string, root: string, options: ScanOptions = {}): Finding[] {
  const exists = options.exists ?? ((p: string) => fs.existsSync(p));
  const base = path.resolve(root);
  return body.split('\n').flatMap((lineText, i) => absolutePlaces(lineText, file, i + 1, base, exists));
}

const BINARY = /\.(jpe?g|png|gif|webp|bin|zip|rar|glb|fbx|wasm|ico)$/i;

function filesUnder(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .filter((f) => !f.split('/').some((part) => part === 'node_modules' || part.startsWith('.')));
}

/** Every finding in the code folders and the docs of the repository at `root`. */
export function scanRepository(root: string, codeDirs = ['src', 'tools', 'test', 'bench', 'scripts', 'web'], docs = ['README.md', 'docs']): Finding[] {
  const out: Finding[] = [];
  for (const file of codeDirs.flatMap((d) => filesUnder(root, d))) {
    if (BINARY.test(file)) continue;
    const body = fs.readFileSync(path.join(root, file), 'utf8');
    out.push(...(CODE_FILE.test(file) ? scanCode(body, file, root) : file.endsWith('.md') ? scanMarkdown(body, file, root) : scanText(body, file, root)));
  }
  for (const entry of docs) {
    const files = fs.statSync(path.join(root, entry), { throwIfNoEntry: false })?.isDirectory() ? filesUnder(root, entry) : [entry];
    for (const file of files.filter((f) => f.endsWith('.md'))) out.push(...scanMarkdown(fs.readFileSync(path.join(root, file), 'utf8'), file, root));
  }
  return out;
}
