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
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require(path.join(process.argv[2], "typescript"));
const root = path.resolve(process.argv[3]);

function walk(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "node_modules") walk(full, out);
    else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

const files = walk(root, []);
const options = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noEmit: true,
};
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: () => "1",
  getScriptSnapshot: (f) =>
    fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, "utf8")) : undefined,
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());
const program = service.getProgram();
const rel = (f) => path.relative(root, f).split(path.sep).join("/");
const isTest = (f) => /(^|\/)(tests?|__tests__|benchmarks)\//.test(rel(f)) || /\.test\.tsx?$/.test(f);

function enclosing(node) {
  const names = [];
  for (let cur = node.parent; cur; cur = cur.parent) {
    if (ts.isFunctionDeclaration(cur) && cur.name) names.unshift(cur.name.text);
    else if ((ts.isMethodDeclaration(cur) || ts.isConstructorDeclaration(cur)) && cur.parent) {
      const cls = cur.parent.name ? cur.parent.name.text : "";
      const meth = ts.isConstructorDeclaration(cur) ? "constructor" : cur.name.getText();
      names.unshift(cls ? `${cls}.${meth}` : meth);
      break;
    } else if (
      (ts.isArrowFunction(cur) || ts.isFunctionExpression(cur)) &&
      ts.isVariableDeclaration(cur.parent) &&
      ts.isVariableDeclarationList(cur.parent.parent) &&
      ts.isVariableStatement(cur.parent.parent.parent) &&
      ts.isSourceFile(cur.parent.parent.parent.parent)
    ) {
      names.unshift(cur.parent.name.getText());
      break;
    }
  }
  return names.join(".");
}

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
