// The TypeScript referee for bench/codemap_referee.py: the compiler's own language service.
//
//   node bench/referee_ts.js MODULES_DIR PROJECT_DIR SEED PER_KIND [PACKAGE] > answer.json
//
// Targets are drawn (a seeded shuffle) among the project's non-test functions, classes and
// methods (`#private` ones included); for each, findReferences lists every reference, and each
// gets its kind from where it stands: call (callee of a call or `new`), base (extends /
// implements), annotation (a type position), import (an import or export specifier), property
// (`obj.name` not called), value (anything else). The definition itself is left out.
"use strict";
const path = require("path");
const { openProject } = require(path.join(__dirname, "ts_service.js"));
const seed = Number(process.argv[4] || 30);
const perKind = Number(process.argv[5] || 8);
const selfName = process.argv[6] || "";  // the package's own name: its tests import "name/sub"
const root = path.resolve(process.argv[3]);
const paths = selfName
  ? { [selfName]: ["src/index.ts"], [`${selfName}/*`]: ["src/*/index.ts", "src/*"] }
  : {};
const { ts, files, service, program, rel, isTest, enclosing } = openProject(process.argv[2], root, {
  options: { baseUrl: root, paths },
  sorted: true,
});

function kindOf(id) {
  let node = id;
  const parent = node.parent;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isImportClause(parent))
    return "import";
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) node = parent;
  const up = node.parent;
  if ((ts.isCallExpression(up) || ts.isNewExpression(up)) && up.expression === node) return "call";
  if (ts.isExpressionWithTypeArguments(up) && ts.isHeritageClause(up.parent)) return "base";
  for (let cur = id.parent; cur; cur = cur.parent) {
    if (ts.isTypeNode(cur) && !ts.isExpressionWithTypeArguments(cur)) return "annotation";
    if (ts.isStatement(cur) || ts.isExpression(cur)) break;
  }
  if (node !== id) return "property";
  return "value";
}

function declarations(sf) {
  const out = [];
  const visit = (node) => {
    if (ts.isFunctionDeclaration(node) && node.name) out.push(["function", node.name, node.name.text]);
    else if (ts.isClassDeclaration(node) && node.name) {
      out.push(["class", node.name, node.name.text]);
      for (const m of node.members)
        if (ts.isMethodDeclaration(m) && m.name && (ts.isIdentifier(m.name) || ts.isPrivateIdentifier(m.name)))
          out.push([ts.isPrivateIdentifier(m.name) ? "private" : "method", m.name, `${node.name.text}.${m.name.text}`]);
      return;
    }
    if (ts.isFunctionLike(node)) return;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sf, visit);
  return out;
}

function shuffle(items, state) {  // a seeded Fisher-Yates (mulberry32)
  const rand = () => {
    state |= 0; state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

const pools = {};
for (const file of files) {
  if (isTest(file)) continue;
  const sf = program.getSourceFile(file);
  for (const [kind, nameNode, qualified] of declarations(sf))
    (pools[kind] = pools[kind] || []).push([file, sf, nameNode, qualified, kind]);
}
const result = [];
for (const kind of ["function", "class", "method", "private"]) {
  for (const [file, sf, nameNode, qualified] of shuffle(pools[kind] || [], seed).slice(0, perKind)) {
    const refs = service.findReferences(file, nameNode.getStart(sf)) || [];
    const sites = [];
    for (const group of refs)
      for (const ref of group.references) {
        const rsf = program.getSourceFile(ref.fileName);
        if (!rsf || ref.isDefinition || rel(ref.fileName).startsWith("..")) continue;
        const token = ts.getTokenAtPosition(rsf, ref.textSpan.start);
        if (!token || !(ts.isIdentifier(token) || ts.isPrivateIdentifier(token))) continue;
        const line = rsf.getLineAndCharacterOfPosition(ref.textSpan.start).line + 1;
        sites.push([rel(ref.fileName), line, kindOf(token), enclosing(token)]);
      }
    const line = sf.getLineAndCharacterOfPosition(nameNode.getStart(sf)).line + 1;
    result.push({ path: rel(file), line, qualified, kind, sites });
  }
}
process.stdout.write(JSON.stringify({ version: `typescript ${ts.version}`, targets: result }));
