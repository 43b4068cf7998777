// Ground truth for bench/codemap.py on TypeScript, from the TypeScript compiler itself.
//
//   node bench/truth_ts.js TYPESCRIPT_DIR PROJECT_DIR > truth.json
//
// The rule: for every function, class and method declared in the project's non-test files,
// the language service's findReferences lists its references; a reference is a site when its
// identifier is the callee of a call or `new` (directly or as `obj.name`), or a class in
// `extends`/`implements`. Imports, exports, types and other mentions are not sites. A site's
// enclosing symbol is its innermost named function (a method as Class.method, an arrow
// function or function expression as the top-level const it is assigned to); "" at top level.
// The language service and the enclosing symbol: bench/ts_service.js.
"use strict";
const path = require("path");
const { openProject } = require(path.join(__dirname, "ts_service.js"));
const { ts, files, service, program, rel, isTest, enclosing } = openProject(
  process.argv[2],
  process.argv[3],
);

function isSite(id) {
  let node = id;
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) node = parent;
  const up = node.parent;
  if ((ts.isCallExpression(up) || ts.isNewExpression(up)) && up.expression === node) return true;
  if (ts.isExpressionWithTypeArguments(up) && ts.isHeritageClause(up.parent)) return true;
  return false;
}

function declarations(sf) {
  const out = [];
  const visit = (node, owner) => {
    if (ts.isFunctionDeclaration(node) && node.name && !owner) out.push([node.name, node.name.text]);
    else if (ts.isClassDeclaration(node) && node.name) {
      out.push([node.name, node.name.text]);
      for (const m of node.members)
        if (ts.isMethodDeclaration(m) && m.name && ts.isIdentifier(m.name))
          out.push([m.name, `${node.name.text}.${m.name.text}`]);
      return;
    } else if (ts.isVariableStatement(node) && !owner) {
      for (const d of node.declarationList.declarations)
        if (ts.isIdentifier(d.name) && d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer)))
          out.push([d.name, d.name.text]);
      return;
    }
    if (ts.isFunctionLike(node)) return;
    ts.forEachChild(node, (child) => visit(child, owner));
  };
  ts.forEachChild(sf, (child) => visit(child, false));
  return out;
}

const result = [];
for (const file of files) {
  if (isTest(file)) continue;
  const sf = program.getSourceFile(file);
  for (const [nameNode, qualified] of declarations(sf)) {
    const refs = service.findReferences(file, nameNode.getStart(sf)) || [];
    const sites = [];
    for (const group of refs)
      for (const ref of group.references) {
        const rsf = program.getSourceFile(ref.fileName);
        if (!rsf) continue;
        const token = ts.getTokenAtPosition
          ? ts.getTokenAtPosition(rsf, ref.textSpan.start)
          : null;
        if (!token || !ts.isIdentifier(token) || !isSite(token)) continue;
        const line = rsf.getLineAndCharacterOfPosition(ref.textSpan.start).line + 1;
        sites.push([rel(ref.fileName), line, enclosing(token)]);
      }
    const line = sf.getLineAndCharacterOfPosition(nameNode.getStart(sf)).line + 1;
    result.push({ path: rel(file), line, qualified, sites });
  }
}
process.stdout.write(JSON.stringify(result));
