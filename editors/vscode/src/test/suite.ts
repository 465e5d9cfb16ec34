// Runs inside VS Code (see run.ts): the extension starts `sagelint server`
// (on PATH in the job) and the diagnostic of the workspace's template appears.
import * as assert from "assert";
import * as path from "path";
import * as vscode from "vscode";

async function diagnosticsOf(uri: vscode.Uri, timeoutMs: number): Promise<vscode.Diagnostic[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = vscode.languages.getDiagnostics(uri).filter((d) => d.source === "sagelint");
    if (found.length > 0) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return [];
}

export async function run(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, "the test workspace is open");
  const uri = vscode.Uri.file(path.join(folder.uri.fsPath, "notebook.yaml"));
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
  const diagnostics = await diagnosticsOf(uri, 60000);
  assert.deepStrictEqual(
    diagnostics.map((d) => [typeof d.code === "object" ? d.code.value : d.code, d.range.start.line]),
    [["SM103", 5]],
  );
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
    "vscode.executeCodeActionProvider",
    uri,
    diagnostics[0].range,
  );
  assert.ok(actions.some((a) => a.title === "Ignore SM103 on this line"));
}
