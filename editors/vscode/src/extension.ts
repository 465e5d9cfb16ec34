// Starts `sagelint server` (the Language Server, README.md "Editors") for the
// files sagelint reads and the Jupyter notebooks of the workspace. Which
// binary runs is a machine setting only: a repository opened in the editor
// must not choose what runs on the machine.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

// The binary: `sagelint.path` from the user's (machine) settings, else `sagelint` on PATH.
// A value a workspace or folder sets is ignored (the setting is declared machine-scoped,
// and only the global value is read here as well).
export function serverCommand(config: vscode.WorkspaceConfiguration): string {
  const inspected = config.inspect<string>("path");
  const path = inspected?.globalValue?.trim();
  return path ? path : "sagelint";
}

function settings(): { severity: string } {
  const config = vscode.workspace.getConfiguration("sagelint");
  return { severity: config.get<string>("severity", "note") };
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const command = serverCommand(vscode.workspace.getConfiguration("sagelint"));
  const serverOptions: ServerOptions = {
    run: { command, args: ["server"] },
    debug: { command, args: ["server"] },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "yaml" },
      { scheme: "file", language: "json" },
      { scheme: "file", language: "jsonc" },
      { scheme: "file", language: "terraform" },
      { scheme: "file", pattern: "**/*.{tf,tfvars,tf.json}" },
      { scheme: "file", language: "python" },
      { scheme: "file", language: "typescript" },
      { scheme: "file", language: "javascript" },
      { notebook: { notebookType: "jupyter-notebook" }, language: "python" },
      { notebook: { notebookType: "jupyter-notebook" }, language: "markdown" },
    ],
    initializationOptions: settings(),
    synchronize: {
      configurationSection: "sagelint",
      fileEvents: vscode.workspace.createFileSystemWatcher("**/.sagelint.{yaml,yml}"),
    },
  };
  client = new LanguageClient("sagelint", "sagelint", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    vscode.window.showErrorMessage(
      `sagelint: could not start \`${command} server\` (${String(err)}). Install sagelint or set sagelint.path in your user settings.`,
    );
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("sagelint.restart", async () => {
      await client?.stop();
      await start(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration("sagelint.path")) {
        await client?.stop();
        await start(context);
      }
    }),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
