// Tokenises rule files with the TextMate grammar, as VS Code does
// (vscode-textmate over the Oniguruma regex engine), and checks each token
// the language's own lexer found against the scope it gets.
//
// Usage: node grammar.test.js EXPECTED.json
// EXPECTED.json (written by tests/test_vscode_grammar.py):
//   {"grammar": PATH, "keywords": [WORD...],
//    "files": [{"path": PATH, "tokens": [[LINE, COLUMN, LENGTH, KIND], ...]}]}
// with 0-based lines and columns, KIND one of comment, string, number, rule,
// keyword, name. Prints each mismatch and exits 1 if there is any.
"use strict";

const fs = require("fs");
const path = require("path");
const textmate = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const ROOT_SCOPE = "source.splendor-rules";

// What a token of each kind must carry: a scope starting with one of these.
const WANTED = {
  comment: ["comment."],
  string: ["string."],
  number: ["constant.numeric."],
  rule: ["constant.other.rule-id"],
  keyword: ["keyword.", "storage.type.", "constant.language."],
  name: ["variable.", "entity.", "support."],
};

async function registry() {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
  await oniguruma.loadWASM(wasm);
  return (grammarPath) =>
    new textmate.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
        createOnigString: (text) => new oniguruma.OnigString(text),
      }),
      loadGrammar: async (scopeName) =>
        scopeName === ROOT_SCOPE
          ? textmate.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath)
          : null,
    }).loadGrammar(ROOT_SCOPE);
}

// The scopes of each character of each line of a text.
function scopesOf(grammar, text) {
  const lines = text.split("\n");
  let stack = textmate.INITIAL;
  return lines.map((line) => {
    const result = grammar.tokenizeLine(line, stack);
    stack = result.ruleStack;
    const scopes = new Array(line.length).fill(null);
    for (const token of result.tokens) {
      for (let i = token.startIndex; i < Math.min(token.endIndex, line.length); i++) {
        scopes[i] = token.scopes;
      }
    }
    return { line, scopes };
  });
}

function check(file, lines, tokens, keywords) {
  const problems = [];
  lines.forEach(({ line, scopes }, number) => {
    for (let i = 0; i < line.length; i++) {
      if (/\s/.test(line[i])) continue;
      const found = scopes[i] || [ROOT_SCOPE];
      if (found.length < 2) {
        problems.push(`${file}:${number + 1}:${i + 1}: '${line[i]}' has no scope (${line.trim()})`);
        break;
      }
    }
  });
  for (const [number, column, length, kind] of tokens) {
    const { line, scopes } = lines[number];
    const text = line.slice(column, column + length);
    const found = scopes[column] || [ROOT_SCOPE];
    let wanted = WANTED[kind];
    // A name that is also a keyword elsewhere (a column `points`, the
    // `colours` of an expression) is scoped by context: any scope will do.
    if (kind === "name" && keywords.has(text)) wanted = [""];
    const ok = found.some((scope) => scope !== ROOT_SCOPE && wanted.some((w) => scope.startsWith(w)));
    if (!ok) {
      problems.push(
        `${file}:${number + 1}:${column + 1}: ${kind} '${text}' scoped ${found.join(" ")}`
      );
    }
  }
  return problems;
}

async function main() {
  const expected = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const grammar = await (await registry())(path.resolve(expected.grammar));
  const keywords = new Set(expected.keywords);
  let problems = [];
  let count = 0;
  for (const file of expected.files) {
    const text = fs.readFileSync(file.path, "utf8");
    problems = problems.concat(check(file.path, scopesOf(grammar, text), file.tokens, keywords));
    count += file.tokens.length;
  }
  for (const problem of problems) console.log(problem);
  console.log(`grammar: ${expected.files.length} files, ${count} tokens, ${problems.length} problems`);
  process.exit(problems.length ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
