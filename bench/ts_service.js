// The TypeScript compiler's language service over a project's .ts/.tsx files, shared by
// bench/truth_ts.js and bench/referee_ts.js: the files found, the service and its program, a
// file's project-relative path, which files are tests, and a reference's enclosing symbol.
"use strict";
const fs = require("fs");
const path = require("path");

function walk(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "node_modules") walk(full, out);
    else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

// A site's enclosing symbol is its innermost named function (a method as Class.method, an arrow
// function or function expression as the top-level const it is assigned to); "" at top level.
function enclosing(ts, node) {
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

// `options`: compiler options beyond the shared ones; `sorted`: the files in path order
// (otherwise as the folders list them).
function openProject(typescriptDir, projectDir, { options = {}, sorted = false } = {}) {
  const ts = require(path.join(typescriptDir, "typescript"));
  const root = path.resolve(projectDir);
  const files = walk(root, []);
  if (sorted) files.sort();
  const settings = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    ...options,
  };
  const host = {
    getScriptFileNames: () => files,
    getScriptVersion: () => "1",
    getScriptSnapshot: (f) =>
      fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, "utf8")) : undefined,
    getCurrentDirectory: () => root,
    getCompilationSettings: () => settings,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const rel = (f) => path.relative(root, f).split(path.sep).join("/");
  const isTest = (f) =>
    /(^|\/)(tests?|__tests__|benchmarks)\//.test(rel(f)) || /\.test\.tsx?$/.test(f);
  return {
    ts, root, files, service, program: service.getProgram(), rel, isTest,
    enclosing: (node) => enclosing(ts, node),
  };
}

module.exports = { openProject };
