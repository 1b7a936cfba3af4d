// The VS Code client of the splendor-rules language server: it starts
// `splendor-rules lsp` (the command and arguments are settings) and talks to
// it over stdin and stdout for every .rules file.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("splendorRules");
  const server = {
    command: settings.get("server.command", "splendor-rules"),
    args: settings.get("server.args", ["lsp"]),
    transport: TransportKind.stdio,
  };
  client = new LanguageClient(
    "splendorRules",
    "Splendor rules",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "splendor-rules" }] }
  );
  context.subscriptions.push(client);
  return client.start().catch((error) => {
    vscode.window.showErrorMessage(
      `Splendor rules: cannot start '${server.command} ${server.args.join(" ")}' ` +
        `(install it with: pip install 'splendor-rules[lsp]'): ${error.message || error}`
    );
  });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
