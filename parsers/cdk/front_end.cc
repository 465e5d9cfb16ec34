// The CDK front end's entry points: an app found by its `cdk.json`, and a
// source file of an app named alone (pre-commit).
#include "parsers/cdk/front_end.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "linter/base/paths.h"
#include "parsers/cdk/app.h"

namespace sagelint {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxCdkJsonBytes = 1u << 20;
constexpr size_t kMaxEntryBytes = 4u << 20;
constexpr int kMaxAppDepth = 64;  // directories walked up from a source file to its cdk.json

enum class Language { kNone, kPython, kTypeScript };

Language LanguageOf(std::string_view path) {
  if (path.ends_with(".py")) return Language::kPython;
  if (path.ends_with(".d.ts")) return Language::kNone;
  for (std::string_view s : {".ts", ".js", ".mjs", ".cjs"}) {
    if (path.ends_with(s)) return Language::kTypeScript;
  }
  return Language::kNone;
}

// The entry file the `app` command of cdk.json runs ("python3 app.py",
// "npx ts-node --prefer-ts-exts bin/app.ts", "node bin/app.js"): the first
// word naming a Python, TypeScript or JavaScript file.
std::optional<std::string> EntryOf(std::string_view command) {
  size_t i = 0;
  while (i < command.size()) {
    while (i < command.size() && command[i] == ' ') ++i;
    size_t j = i;
    while (j < command.size() && command[j] != ' ') ++j;
    std::string word(command.substr(i, j - i));
    if (word.size() >= 2 && (word.front() == '"' || word.front() == '\'') && word.back() == word.front()) {
      word = word.substr(1, word.size() - 2);
    }
    if (LanguageOf(word) != Language::kNone && !word.starts_with("-")) return word;
    i = j;
  }
  return std::nullopt;
}

struct AppFiles {
  SourceFile cdk_json;
  std::string entry_abs;
  std::string entry_display;
};

ParseError At(std::string message, SourcePos pos = {1, 1}) { return {std::move(message), pos}; }

// Puts `key` = `value` into map `into`, over a value of that key.
void Override(cfn::Node* into, const std::string& key, cfn::Node value) {
  for (auto& [k, v] : into->entries) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  into->entries.emplace_back(key, std::move(value));
  into->key_pos.push_back(into->entries.back().second.pos);
}

// The context an app's tryGetContext / try_get_context reads, as the CDK CLI
// gives it: `cdk.context.json` (beside cdk.json), under cdk.json's `context`,
// under `--context KEY=VALUE` (a string). A context file that cannot be read
// is a note on cdk.json. Null when none of the three is there.
cfn::Node Context(const fs::path& dir, const cfn::Node* cdk_json_context, const ResolveOptions& opts, FileResult* own) {
  cfn::Node context;
  context.kind = cfn::Node::Kind::kMap;
  context.pos = {1, 1};
  bool any = !opts.cdk_context.empty() || (cdk_json_context && cdk_json_context->is_map());
  const FileSource& files = *opts.files;
  std::string path = (dir / "cdk.context.json").string();
  if (files.IsRegularFile(path)) {
    any = true;
    std::string text, error;
    cfn::Node doc;
    std::vector<cfn::LoadError> errors;
    if (!files.Read(path, kMaxCdkJsonBytes, &text, &error)) {
      own->notes.push_back(At("cdk.context.json cannot be read: " + error + "; its context is not used"));
    } else if (!cfn::LoadDocument(text, 0, cfn::LoadLimits{}, &doc, &errors) || !doc.is_map()) {
      std::string why = errors.empty() ? "it is not a JSON object"
                                       : errors[0].message + " at line " + std::to_string(errors[0].pos.line);
      own->notes.push_back(At("cdk.context.json: " + why + "; its context is not used"));
    } else {
      // Positions are in another file: the values are placed where the code reads them.
      for (auto& [k, v] : doc.entries) Override(&context, k, v);
    }
  }
  if (cdk_json_context && cdk_json_context->is_map()) {
    for (const auto& [k, v] : cdk_json_context->entries) Override(&context, k, v);
  }
  for (const auto& [k, v] : opts.cdk_context) Override(&context, k, cfn::MakeScalar(v, {1, 1}, true));
  return any ? context : cfn::Node{};
}

// Reads cdk.json and the entry it names; errors go to `cdk_json_result`.
std::vector<FileResult> EvaluateApp(const SourceFile& cdk_json, const ResolveOptions& opts, const std::string& named) {
  FileResult own;
  own.path = cdk_json.path;
  own.root_path = cdk_json.root_path;
  own.format = Format::kCdk;
  auto only_own = [&]() {
    std::vector<FileResult> out;
    if (!own.errors.empty() || !own.notes.empty()) out.push_back(std::move(own));
    return out;
  };
  cfn::Node doc;
  std::vector<cfn::LoadError> errors;
  if (!cfn::LoadDocument(cdk_json.text, 0, cfn::LoadLimits{}, &doc, &errors)) {
    for (const cfn::LoadError& e : errors) own.errors.push_back(At(e.message, e.pos));
    return only_own();
  }
  const cfn::Node* app = doc.is_map() ? doc.Get("app") : nullptr;
  if (!app || !app->is_scalar()) return only_own();  // no app command: nothing to evaluate
  std::optional<std::string> entry = EntryOf(app->text);
  if (!entry) {
    own.notes.push_back(At(
        "the app command '" + app->text + "' names no Python, TypeScript or JavaScript file: " + "the app is not read",
        app->pos));
    return only_own();
  }
  const FileSource& files = *opts.files;
  fs::path dir = fs::path(cdk_json.abs_path).parent_path();
  // `node bin/app.js` runs what `tsc` compiled, usually not committed: its source then.
  if (entry->ends_with(".js") && !files.Exists((dir / *entry).string())) {
    std::string source = entry->substr(0, entry->size() - 3) + ".ts";
    if (files.IsRegularFile((dir / source).string())) entry = source;
  }
  std::string entry_abs = (dir / *entry).lexically_normal().string();
  std::optional<std::string> canonical = files.WeaklyCanonical(entry_abs);
  std::optional<std::string> root =
      opts.root.empty() ? std::optional<std::string>(dir.string()) : files.WeaklyCanonical(opts.root);
  if (!canonical || !root || !PathBelow(*canonical, *root)) {
    own.notes.push_back(At("the app's entry " + *entry + " is outside the scan root: the app is not read", app->pos));
    return only_own();
  }
  cdk::AppInput in;
  std::string display_dir = fs::path(cdk_json.path).parent_path().generic_string();
  std::string root_dir = fs::path(cdk_json.root_path).parent_path().generic_string();
  in.entry.path = (display_dir.empty() ? "" : display_dir + "/") + fs::path(*entry).lexically_normal().generic_string();
  in.entry.root_path = (root_dir.empty() ? "" : root_dir + "/") + fs::path(*entry).lexically_normal().generic_string();
  in.entry.abs_path = *canonical;
  std::string error;
  if (!files.IsRegularFile(*canonical) || !files.Read(*canonical, kMaxEntryBytes, &in.entry.text, &error)) {
    own.notes.push_back(
        At("the app's entry " + *entry + " cannot be read" + (error.empty() ? "" : ": " + error), app->pos));
    return only_own();
  }
  in.context = Context(dir, doc.Get("context"), opts, &own);
  in.opts = &opts;
  cdk::App evaluated =
      LanguageOf(*entry) == Language::kPython ? cdk::EvaluatePythonApp(in) : cdk::EvaluateTypeScriptApp(in);
  std::vector<FileResult> out = cdk::Synthesize(evaluated, opts);
  if (!named.empty()) {
    for (FileResult& r : out) r.context = r.path != named;
  }
  for (FileResult& r : only_own()) out.push_back(std::move(r));
  return out;
}

}  // namespace

bool IsCdkJson(std::string_view path) { return path == "cdk.json" || path.ends_with("/cdk.json"); }

bool MentionsCdk(std::string_view text) {
  return text.find("aws_cdk") != std::string_view::npos || text.find("aws-cdk") != std::string_view::npos;
}

std::optional<std::string> FindCdkApp(const std::string& abs_path, const ResolveOptions& opts) {
  const FileSource& files = *opts.files;
  std::optional<std::string> root = opts.root.empty() ? std::nullopt : files.WeaklyCanonical(opts.root);
  fs::path dir = fs::path(abs_path).parent_path();
  for (int depth = 0; depth < kMaxAppDepth && !dir.empty(); ++depth) {
    if (root && !PathBelow(dir.string(), *root)) break;
    fs::path candidate = dir / "cdk.json";
    if (files.IsRegularFile(candidate.string())) return candidate.string();
    if (root && dir.string() == *root) break;
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  return std::nullopt;
}

std::vector<FileResult> ParseCdkApp(const SourceFile& cdk_json, bool named, const ResolveOptions& opts) {
  (void)named;
  return EvaluateApp(cdk_json, opts, "");
}

std::vector<FileResult> ParseCdkSource(const SourceFile& file, bool named, const ResolveOptions& opts) {
  std::optional<std::string> app = FindCdkApp(file.abs_path, opts);
  Language language = LanguageOf(file.path);
  if (!app) {
    // Outside an app: Python is SDK code like any other; TypeScript is not read.
    if (language == Language::kPython) return {ParsePython(file, opts)};
    return {};
  }
  if (!named) return {};  // the app's cdk.json brings it
  SourceFile cdk_json;
  cdk_json.abs_path = *app;
  std::string error;
  if (!opts.files->Read(*app, kMaxCdkJsonBytes, &cdk_json.text, &error)) return {};
  // Display and root paths of cdk.json from the named file's, by their directories.
  fs::path rel = fs::path(*app).parent_path().lexically_relative(fs::path(file.abs_path).parent_path());
  cdk_json.path = (fs::path(file.path).parent_path() / rel / "cdk.json").lexically_normal().generic_string();
  cdk_json.root_path = (fs::path(file.root_path).parent_path() / rel / "cdk.json").lexically_normal().generic_string();
  // The app's results for other files are context only; an app that never
  // reads the named file leaves it unreported.
  return EvaluateApp(cdk_json, opts, file.path);
}

}  // namespace sagelint
