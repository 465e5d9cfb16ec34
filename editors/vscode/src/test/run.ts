// The extension under a headless VS Code (the release workflow's job; VS Code
// is downloaded there): opens a template with a GPU notebook instance and
// waits for sagelint's diagnostic.
import * as path from "path";
import { runTests } from "@vscode/test-electron";

async function main(): Promise<void> {
  const extensionDevelopmentPath = path.resolve(__dirname, "../..");
  const extensionTestsPath = path.resolve(__dirname, "./suite");
  const workspace = path.resolve(__dirname, "../../test/workspace");
  await runTests({ extensionDevelopmentPath, extensionTestsPath, launchArgs: [workspace, "--disable-extensions"] });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
