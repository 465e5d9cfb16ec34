#include "linter/server/server.h"

#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <vector>

#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "linter/base/strings.h"
#include "linter/cli/config.h"
#include "linter/cli/scan_options.h"
#include "linter/cost/prices.h"
#include "linter/engine/baseline.h"
#include "linter/engine/discover.h"
#include "linter/engine/front_ends.h"
#include "linter/model/catalog.h"
#include "linter/report/cost_line.h"
#include "linter/server/jsonrpc.h"
#include "linter/server/overlay_files.h"
#include "linter/server/text_document.h"

namespace sagelint {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

// JSON-RPC and LSP error codes.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;
constexpr int kServerNotInitialized = -32002;

// A document larger than this is kept (later edits apply to it) but not scanned.
constexpr size_t kMaxDocumentBytes = 32u << 20;

void Log(const std::string& what) { std::cerr << "sagelint server: " << Printable(what) << "\n"; }

std::string PercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The absolute path of a file: URI; empty for any other scheme (an untitled buffer).
std::string PathOfUri(std::string_view uri) {
  if (!uri.starts_with("file://")) return "";
  std::string_view rest = uri.substr(7);
  if (rest.starts_with("localhost/")) rest.remove_prefix(9);
  if (!rest.starts_with("/")) return "";
  return AbsoluteNormal(PercentDecode(rest));
}

std::string UriOfPath(const std::string& path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out = "file://";
  for (char c : AbsoluteNormal(path)) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

json Position(LspPosition p) { return {{"line", p.line}, {"character", p.character}}; }
json Range(LspPosition a, LspPosition b) { return {{"start", Position(a)}, {"end", Position(b)}}; }
LspPosition PositionFrom(const json& j) { return {j.at("line").get<int>(), j.at("character").get<int>()}; }

// One entry of didChange's contentChanges.
ContentChange ChangeFrom(const json& c) {
  ContentChange change;
  change.text = c.at("text").get<std::string>();
  if (c.contains("range")) change.range = {{PositionFrom(c["range"].at("start")), PositionFrom(c["range"].at("end"))}};
  return change;
}

bool Before(LspPosition a, LspPosition b) { return a.line < b.line || (a.line == b.line && a.character < b.character); }

// Where the project's documentation lives, if the build was told (a link to
// a placeholder repository would mislead).
std::string RuleDocUrl(const std::string& rule) {
  std::string home = SAGELINT_HOMEPAGE;
  if (home.empty() || home.find("your-org") != std::string::npos || !rule.starts_with("SM")) return "";
  if (home.back() == '/') home.pop_back();
  return home + "/blob/main/rules/" + rule + ".md";
}

// A finding as a diagnostic shows it: the message, the condition, the help
// and the cost line, as the text report prints them.
std::string DiagnosticMessage(const Finding& f) {
  std::string m = f.message;
  if (!f.condition.empty()) m += "\nwhen: " + f.condition;
  if (!f.suggestion.empty()) m += "\nhelp: " + f.suggestion;
  if (f.fix) m += "\nfix: " + f.fix->message + (f.fix->applicability == Applicability::kSafe ? "" : " (unsafe)");
  if (f.cost) {
    std::string line = CostLine(*f.cost);
    if (!line.empty()) m += "\ncost: " + line;
  }
  return m;
}

int LspSeverity(Severity s) {
  switch (s) {
    case Severity::kError:
      return 1;
    case Severity::kWarning:
      return 2;
    case Severity::kNote:
      return 3;
  }
  return 3;
}

}  // namespace

// What Server::State holds: named types (not file-local), as members of a class with linkage.
namespace server_state {

// What a finding's diagnostic was placed at, kept for code actions.
struct Placed {
  Finding finding;
  std::string uri;  // the document (a notebook cell's own URI) it is shown in
  LspPosition begin, end;
};

// A finding's diagnostic: the rule ID as its code, linked to the rule's
// documentation where the build knows where that is.
json DiagnosticOf(const Placed& p) {
  const Finding& f = p.finding;
  json d = {{"range", Range(p.begin, p.end)},
            {"severity", LspSeverity(f.severity)},
            {"code", f.rule},
            {"source", "sagelint"},
            {"message", DiagnosticMessage(f)}};
  std::string href = RuleDocUrl(f.rule);
  if (!href.empty()) d["codeDescription"] = {{"href", href}};
  d["data"] = {{"fingerprint", f.fingerprint}};
  return d;
}

struct Document {
  std::string uri;
  std::string path;      // absolute; empty for a URI that is not a file
  std::string notebook;  // the notebook's URI for a cell; empty for a text document
  std::shared_ptr<std::string> text = std::make_shared<std::string>();
  int version = 0;
};

struct Notebook {
  std::string uri, path;
  int version = 0;
  std::string metadata_json;
  std::vector<std::string> cells;  // cell document URIs, in order
  std::vector<bool> code;          // per cell: a code cell (else markup)
  AssembledNotebook assembled;     // as last scanned
};

// What the configuration at a scan root gives every scan under it.
struct RootContext {
  std::string error;  // the configuration could not be used: nothing is scanned
  Config config;
  std::vector<Policy> policies;
  DatasetSizes datasets;
  std::optional<PriceTable> prices;
  std::optional<RuleSet> rules;
  std::optional<Baseline> baseline;
};

}  // namespace server_state

using server_state::Document;
using server_state::Notebook;
using server_state::Placed;
using server_state::RootContext;

namespace {

bool IsConfigFile(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  return name == ".sagelint.yaml" || name == ".sagelint.yml";
}

bool IsTerraform(const std::string& path) {
  const FrontEnd* fe = FrontEndForPath(path);
  return fe && fe->reads_modules();
}

bool IsNotebook(const std::string& path) { return path.size() > 6 && path.ends_with(".ipynb"); }

// The most sibling notebooks a notebook's scan reads for context.
constexpr size_t kMaxSiblingNotebooks = 64;

// The instance type written around byte `at` of `line` ("ml.p3.2xlarge") and
// where it starts, if any.
std::optional<std::pair<std::string, size_t>> InstanceTypeAt(std::string_view line, size_t at) {
  auto part = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-'; };
  for (size_t p = line.find("ml."); p != std::string_view::npos; p = line.find("ml.", p + 1)) {
    if (p > 0 && part(line[p - 1])) continue;
    size_t e = p;
    while (e < line.size() && part(line[e])) ++e;
    while (e > p && (line[e - 1] == '.' || line[e - 1] == '-')) --e;
    if (at >= p && at <= e && std::count(line.begin() + p, line.begin() + e, '.') == 2) {
      return std::pair{std::string(line.substr(p, e - p)), p};
    }
  }
  return std::nullopt;
}

std::string Hourly(double usd) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "$%.4g", usd);
  return buf;
}

}  // namespace

struct Server::State {
  std::function<bool(const std::string&)> send;
  bool initialized = false;
  bool shutdown = false;
  bool exited = false;
  Severity min_severity = Severity::kNote;
  std::map<std::string, Document> docs;               // by URI: text documents and notebook cells
  std::map<std::string, Notebook> notebooks;          // by URI
  std::set<std::string> dirty;                        // URIs of text documents and notebooks to scan
  std::map<std::string, std::vector<Placed>> placed;  // by text document or notebook URI
  std::map<std::string, RootContext> contexts;        // by configuration path ("" = none), per scan root
  std::map<std::string, std::string> published;       // by URI: the diagnostics and version sent last
  OverlayFiles overlay;

  void Send(const json& message) { send(message.dump(-1, ' ', false, json::error_handler_t::replace)); }
  void Respond(const json& id, json result) { Send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}); }
  void Error(const json& id, int code, const std::string& message) {
    Send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
  }
  void Notify(const std::string& method, json params) {
    Send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
  }
  void ShowMessage(int type, const std::string& message) {
    Notify("window/showMessage", {{"type", type}, {"message", message}});
  }

  void Dispatch(const std::string& method, const json& params, const json* id);
  json Initialize(const json& params);
  void ReadSettings(const json& settings);
  void OpenText(const json& params);
  void ChangeText(const json& params);
  void SaveText(const json& params);
  void CloseText(const json& params);
  void OpenNotebook(const json& params);
  void ChangeNotebook(const json& params);
  void CloseNotebook(const json& params);
  json CodeActions(const json& params);
  json Hover(const json& params);

  void MarkDirty(const Document& d);
  void ConfigChanged();
  RootContext& ContextFor(const std::string& path);
  std::optional<ScanResult> ScanPaths(const std::vector<std::string>& paths);
  std::vector<std::string> WithSiblingNotebooks(const std::string& path);
  void ScanText(const std::vector<std::string>& uris);
  void ScanNotebook(Notebook& nb);
  void Publish(const std::string& uri, int version, const std::vector<const Placed*>& shown);
  std::string TextOf(const std::string& path);
  std::optional<json> FixEdit(const FixEdit& e, json* changes);
  std::optional<json> IgnoreEdit(const Placed& p);
};

Server::Server(std::function<bool(const std::string&)> send) : state_(std::make_unique<State>()) {
  state_->send = std::move(send);
}
Server::~Server() = default;

bool Server::exited() const { return state_->exited; }
int Server::exit_code() const { return state_->shutdown ? 0 : 1; }
bool Server::shutdown_requested() const { return state_->shutdown; }
size_t Server::documents() const { return state_->docs.size(); }

void Server::ReportUnreadable(const std::string& why) {
  Log(why);
  state_->Error(nullptr, kParseError, why);
}

void Server::Handle(std::string_view body) {
  State& s = *state_;
  json message = json::parse(body, nullptr, false);
  if (message.is_discarded()) {
    Log("a message that is not JSON");
    s.Error(nullptr, kParseError, "the message is not JSON");
    return;
  }
  const json* id = nullptr;
  if (message.is_object() && message.contains("id")) {
    id = &message["id"];
    if (!id->is_number_integer() && !id->is_string()) {
      s.Error(nullptr, kInvalidRequest, "the id is neither a number nor a string");
      return;
    }
  }
  if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) {
    if (message.is_object() && id && (message.contains("result") || message.contains("error"))) return;  // a response
    Log("a message that is no request");
    s.Error(id ? *id : json(nullptr), kInvalidRequest, "not a JSON-RPC request or notification");
    return;
  }
  std::string method = message["method"];
  json params = message.value("params", json::object());
  try {
    s.Dispatch(method, params, id);
  } catch (const json::exception& e) {
    Log(method + ": bad parameters: " + e.what());
    if (id) s.Error(*id, kInvalidParams, method + ": " + e.what());
  } catch (const std::exception& e) {
    Log(method + ": internal error: " + e.what());
    if (id) s.Error(*id, kInternalError, method + ": " + e.what());
  }
}

void Server::State::Dispatch(const std::string& method, const json& params, const json* id) {
  if (method == "exit") {
    exited = true;
    return;
  }
  if (!initialized && method != "initialize") {
    if (id) Error(*id, kServerNotInitialized, "the server is not initialized");
    return;
  }
  if (shutdown && id) {
    Error(*id, kInvalidRequest, "the server is shutting down");
    return;
  }
  if (id) {
    if (method == "initialize") {
      if (initialized) return Error(*id, kInvalidRequest, "initialize was sent twice");
      initialized = true;
      return Respond(*id, Initialize(params));
    }
    if (method == "shutdown") {
      shutdown = true;
      return Respond(*id, nullptr);
    }
    if (method == "textDocument/codeAction") return Respond(*id, CodeActions(params));
    if (method == "textDocument/hover") return Respond(*id, Hover(params));
    return Error(*id, kMethodNotFound, "unknown method " + method);
  }
  if (method == "textDocument/didOpen") return OpenText(params);
  if (method == "textDocument/didChange") return ChangeText(params);
  if (method == "textDocument/didSave") return SaveText(params);
  if (method == "textDocument/didClose") return CloseText(params);
  if (method == "notebookDocument/didOpen") return OpenNotebook(params);
  if (method == "notebookDocument/didChange") return ChangeNotebook(params);
  if (method == "notebookDocument/didSave") return;  // the cells' texts are what is scanned
  if (method == "notebookDocument/didClose") return CloseNotebook(params);
  if (method == "workspace/didChangeConfiguration") return ReadSettings(params.value("settings", json::object()));
  if (method == "workspace/didChangeWatchedFiles") {
    for (const json& change : params.value("changes", json::array())) {
      if (IsConfigFile(PathOfUri(change.value("uri", "")))) ConfigChanged();
    }
    return;
  }
  // Other notifications ("initialized", "$/cancelRequest", "$/setTrace", …) need nothing.
}

json Server::State::Initialize(const json& params) {
  if (params.contains("initializationOptions")) ReadSettings(params["initializationOptions"]);
  json notebook_selector = json::array(
      {{{"notebook", {{"notebookType", "jupyter-notebook"}}}}, {{"notebook", {{"pattern", "**/*.ipynb"}}}}});
  json capabilities = {
      {"positionEncoding", "utf-16"},
      {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
      {"notebookDocumentSync", {{"notebookSelector", notebook_selector}}},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
      {"hoverProvider", true},
  };
  return {{"capabilities", capabilities}, {"serverInfo", {{"name", "sagelint"}, {"version", SAGELINT_VERSION}}}};
}

// Settings: {"severity": "note"|"warning"|"error"} (or under "sagelint"):
// the lowest severity shown.
void Server::State::ReadSettings(const json& settings) {
  if (!settings.is_object()) return;
  const json& s = settings.contains("sagelint") && settings["sagelint"].is_object() ? settings["sagelint"] : settings;
  if (!s.contains("severity") || !s["severity"].is_string()) return;
  std::optional<Severity> level = SeverityFromName(s["severity"].get<std::string>());
  if (!level) {
    Log("settings: unknown severity " + s["severity"].get<std::string>() + " (note, warning or error)");
    return;
  }
  if (*level == min_severity) return;
  min_severity = *level;
  for (const auto& [uri, d] : docs) MarkDirty(d);
}

void Server::State::MarkDirty(const Document& d) {
  if (!d.notebook.empty()) {
    dirty.insert(d.notebook);
    return;
  }
  dirty.insert(d.uri);
  // The other open files of a Terraform module are evaluated with this one.
  if (!d.path.empty() && IsTerraform(d.path)) {
    for (const auto& [uri, other] : docs) {
      if (other.notebook.empty() && !other.path.empty() && DirOf(other.path) == DirOf(d.path) &&
          IsTerraform(other.path)) {
        dirty.insert(uri);
      }
    }
  }
}

void Server::State::ConfigChanged() {
  contexts.clear();
  for (const auto& [uri, d] : docs) MarkDirty(d);
}

void Server::State::OpenText(const json& params) {
  const json& td = params.at("textDocument");
  Document d;
  d.uri = td.at("uri").get<std::string>();
  d.path = PathOfUri(d.uri);
  d.version = td.value("version", 0);
  *d.text = td.at("text").get<std::string>();
  if (!d.path.empty()) overlay.Set(d.path, d.text);
  auto [it, added] = docs.insert_or_assign(d.uri, std::move(d));
  MarkDirty(it->second);
  if (IsConfigFile(it->second.path)) ConfigChanged();
}

void Server::State::ChangeText(const json& params) {
  const json& td = params.at("textDocument");
  auto it = docs.find(td.at("uri").get<std::string>());
  if (it == docs.end()) {
    Log("didChange of a document that is not open: " + td.at("uri").get<std::string>());
    return;
  }
  Document& d = it->second;
  for (const json& c : params.at("contentChanges")) ApplyChange(*d.text, ChangeFrom(c));
  d.version = td.value("version", d.version + 1);
  MarkDirty(d);
  if (IsConfigFile(d.path)) ConfigChanged();
}

void Server::State::SaveText(const json& params) {
  auto it = docs.find(params.at("textDocument").at("uri").get<std::string>());
  if (it == docs.end()) return;
  if (IsConfigFile(it->second.path)) return ConfigChanged();
  MarkDirty(it->second);
}

void Server::State::CloseText(const json& params) {
  std::string uri = params.at("textDocument").at("uri").get<std::string>();
  auto it = docs.find(uri);
  if (it == docs.end()) return;
  Document d = std::move(it->second);
  docs.erase(it);
  if (!d.path.empty()) overlay.Remove(d.path);
  dirty.erase(uri);
  placed.erase(uri);
  published.erase(uri);
  Notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
  if (IsConfigFile(d.path)) ConfigChanged();
  if (!d.path.empty() && IsTerraform(d.path)) {
    for (const auto& [other_uri, other] : docs) {
      if (other.notebook.empty() && DirOf(other.path) == DirOf(d.path) && IsTerraform(other.path)) {
        dirty.insert(other_uri);
      }
    }
  }
}

namespace {

void OpenCell(std::map<std::string, Document>& docs, const std::string& notebook, const json& td) {
  Document d;
  d.uri = td.at("uri").get<std::string>();
  d.notebook = notebook;
  d.version = td.value("version", 0);
  *d.text = td.at("text").get<std::string>();
  docs.insert_or_assign(d.uri, std::move(d));
}

}  // namespace

void Server::State::OpenNotebook(const json& params) {
  const json& nd = params.at("notebookDocument");
  Notebook nb;
  nb.uri = nd.at("uri").get<std::string>();
  nb.path = PathOfUri(nb.uri);
  nb.version = nd.value("version", 0);
  if (nd.contains("metadata") && nd["metadata"].is_object()) nb.metadata_json = nd["metadata"].dump();
  for (const json& cell : nd.at("cells")) {
    nb.cells.push_back(cell.at("document").get<std::string>());
    nb.code.push_back(cell.value("kind", 2) == 2);
  }
  for (const json& td : params.value("cellTextDocuments", json::array())) OpenCell(docs, nb.uri, td);
  dirty.insert(nb.uri);
  notebooks.insert_or_assign(nb.uri, std::move(nb));
}

void Server::State::ChangeNotebook(const json& params) {
  std::string uri = params.at("notebookDocument").at("uri").get<std::string>();
  auto it = notebooks.find(uri);
  if (it == notebooks.end()) {
    Log("notebookDocument/didChange of a notebook that is not open: " + uri);
    return;
  }
  Notebook& nb = it->second;
  nb.version = params["notebookDocument"].value("version", nb.version + 1);
  const json& change = params.value("change", json::object());
  if (change.contains("metadata") && change["metadata"].is_object()) nb.metadata_json = change["metadata"].dump();
  const json& cells = change.value("cells", json::object());
  if (cells.contains("structure")) {
    const json& structure = cells["structure"];
    const json& array = structure.at("array");
    size_t start = std::min(array.at("start").get<size_t>(), nb.cells.size());
    size_t count = std::min(array.at("deleteCount").get<size_t>(), nb.cells.size() - start);
    std::vector<std::string> uris;
    std::vector<bool> code;
    for (const json& cell : array.value("cells", json::array())) {
      uris.push_back(cell.at("document").get<std::string>());
      code.push_back(cell.value("kind", 2) == 2);
    }
    nb.cells.erase(nb.cells.begin() + start, nb.cells.begin() + start + count);
    nb.code.erase(nb.code.begin() + start, nb.code.begin() + start + count);
    nb.cells.insert(nb.cells.begin() + start, uris.begin(), uris.end());
    nb.code.insert(nb.code.begin() + start, code.begin(), code.end());
    for (const json& td : structure.value("didOpen", json::array())) OpenCell(docs, nb.uri, td);
    for (const json& td : structure.value("didClose", json::array())) {
      std::string cell = td.at("uri").get<std::string>();
      docs.erase(cell);
      published.erase(cell);
      Notify("textDocument/publishDiagnostics", {{"uri", cell}, {"diagnostics", json::array()}});
    }
  }
  for (const json& content : cells.value("textContent", json::array())) {
    auto d = docs.find(content.at("document").at("uri").get<std::string>());
    if (d == docs.end()) continue;
    for (const json& c : content.at("changes")) ApplyChange(*d->second.text, ChangeFrom(c));
    d->second.version = content["document"].value("version", d->second.version + 1);
  }
  dirty.insert(nb.uri);
}

void Server::State::CloseNotebook(const json& params) {
  std::string uri = params.at("notebookDocument").at("uri").get<std::string>();
  auto it = notebooks.find(uri);
  if (it == notebooks.end()) return;
  if (!it->second.path.empty()) overlay.Remove(it->second.path);
  for (const std::string& cell : it->second.cells) {
    docs.erase(cell);
    published.erase(cell);
    Notify("textDocument/publishDiagnostics", {{"uri", cell}, {"diagnostics", json::array()}});
  }
  placed.erase(uri);
  dirty.erase(uri);
  notebooks.erase(it);
}

RootContext& Server::State::ContextFor(const std::string& path) {
  std::string config_path = FindConfig(path, overlay);
  auto found = contexts.find(config_path);
  if (found != contexts.end()) return found->second;
  RootContext& c = contexts[config_path];
  try {
    if (!config_path.empty()) {
      ConfigError err;
      std::optional<Config> config = LoadConfig(config_path, &err, overlay);
      if (!config) throw std::runtime_error(err.message);
      c.config = std::move(*config);
    }
    std::string root = c.config.path.empty() ? std::string() : ScanRootOf(c.config.dir, overlay);
    std::string error;
    if (!LoadPolicies(c.config.policies, DisplayPath(c.config.path), c.config.policy_files, c.config.dir, &c.policies,
                      &error, overlay, root)) {
      throw std::runtime_error(error);
    }
    for (const auto& [uri, size] : c.config.datasets) {
      c.datasets.AddPrefix(uri, *ParseSize(size), "datasets: in " + DisplayPath(c.config.path));
    }
    auto inside = [&](const std::string& named) -> std::string {
      fs::path p = named;
      std::string full = p.is_absolute() ? p.string() : (fs::path(c.config.dir) / p).string();
      std::optional<std::string> resolved = ResolveInside(overlay, full, root);
      if (!resolved) throw std::runtime_error(DisplayPath(c.config.path) + ": " + named + " is outside the scan root");
      return *resolved;
    };
    if (!c.config.prices.empty()) {
      c.prices = PriceTable::Load(inside(c.config.prices), c.config.region, &error, overlay);
      if (!c.prices) throw std::runtime_error("prices: " + error);
    } else if (c.config.region != "us-east-1") {
      throw std::runtime_error("no prices for " + c.config.region +
                               ": the built-in price table is us-east-1; name a price table with `prices:`");
    }
    if (!c.config.baseline.empty()) {
      Baseline b;
      if (!LoadBaseline(inside(c.config.baseline), &b, &error)) throw std::runtime_error("baseline: " + error);
      c.baseline = std::move(b);
    }
    ScanOptions so;
    so.config = c.config;
    so.policies = c.policies;
    so.datasets = c.datasets;
    c.rules = BuildRuleSet(so);
  } catch (const std::exception& e) {
    c.error = e.what();
    Log(c.error);
    ShowMessage(1, std::string("sagelint: ") + e.what());
  }
  return c;
}

std::optional<ScanResult> Server::State::ScanPaths(const std::vector<std::string>& paths) {
  RootContext& c = ContextFor(paths.front());
  if (!c.error.empty()) return std::nullopt;
  ScanOptions so;
  so.paths = paths;
  so.config = c.config;
  so.resolve.cfn_parameters = c.config.parameters;
  so.resolve.tf_variables = c.config.variables;
  so.jobs = 1;
  so.prices = c.prices ? &*c.prices : nullptr;
  so.keep_workloads = false;
  so.files = &overlay;
  ScanSetup setup = BuildScanSetup(so);
  setup.fixes_in_files = true;
  ScanResult result = Scan(setup, *c.rules);
  if (c.baseline) ApplyBaseline(Baseline(*c.baseline), &result);
  for (const std::string& s : result.skipped) Log("skipped " + s);
  return result;
}

// A notebook is read with the other notebooks of its directory (saved or
// not), as a scan of the directory reads them: an endpoint one notebook
// deploys and another deletes is cleaned up (rules/SM213.md).
std::vector<std::string> Server::State::WithSiblingNotebooks(const std::string& path) {
  std::vector<std::string> paths{path};
  if (!IsNotebook(path)) return paths;
  std::vector<DirEntry> entries;
  std::string error;
  std::string dir = DirOf(path);
  if (!overlay.List(dir, &entries, &error)) return paths;
  std::vector<std::string> siblings;
  for (const DirEntry& e : entries) {
    std::string sibling = (fs::path(dir) / e.name).string();
    if (e.type == FileType::kRegular && IsNotebook(e.name) && sibling != path) siblings.push_back(sibling);
  }
  std::sort(siblings.begin(), siblings.end());
  if (siblings.size() > kMaxSiblingNotebooks) siblings.resize(kMaxSiblingNotebooks);
  paths.insert(paths.end(), siblings.begin(), siblings.end());
  return paths;
}

void Server::State::Publish(const std::string& uri, int version, const std::vector<const Placed*>& shown) {
  json diagnostics = json::array();
  for (const Placed* p : shown) {
    json d = DiagnosticOf(*p);
    diagnostics.push_back(std::move(d));
  }
  // A document whose diagnostics and version are those published last is not
  // sent again: a change to one cell of a large notebook publishes that cell.
  std::string key = diagnostics.dump() + "@" + std::to_string(version);
  std::string& last = published[uri];
  if (last == key) return;
  last = std::move(key);
  json params = {{"uri", uri}, {"diagnostics", std::move(diagnostics)}};
  if (version >= 0) params["version"] = version;
  Notify("textDocument/publishDiagnostics", std::move(params));
}

// Scans text documents together (the open files of one Terraform module) and
// publishes each one's diagnostics.
void Server::State::ScanText(const std::vector<std::string>& uris) {
  std::vector<std::string> paths;
  for (const std::string& uri : uris) {
    const Document& d = docs.at(uri);
    if (d.text->size() > kMaxDocumentBytes) {
      Log(uri + ": not scanned, larger than " + std::to_string(kMaxDocumentBytes >> 20) + " MiB");
      continue;
    }
    if (!d.path.empty() && FrontEndForPath(d.path)) {
      for (const std::string& p : WithSiblingNotebooks(d.path)) paths.push_back(p);
    }
  }
  std::optional<ScanResult> result;
  if (!paths.empty()) result = ScanPaths(paths);
  for (const std::string& uri : uris) {
    const Document& d = docs.at(uri);
    std::vector<Placed>& out = placed[uri];
    out.clear();
    if (result) {
      LineIndex index(*d.text);
      for (const Finding& f : result->findings) {
        if (f.severity < min_severity || AbsoluteNormal(f.path) != d.path) continue;
        Placed p{f, uri, {}, {}};
        p.begin = index.FromByteColumn(*d.text, f.range.begin.line, f.range.begin.column);
        p.end = f.range.end.valid() ? index.FromByteColumn(*d.text, f.range.end.line, f.range.end.column)
                                    : index.LineEnd(*d.text, p.begin.line);
        if (Before(p.end, p.begin) || p.end == p.begin) p.end = index.LineEnd(*d.text, p.begin.line);
        out.push_back(std::move(p));
      }
    }
    std::vector<const Placed*> shown;
    for (const Placed& p : out) shown.push_back(&p);
    Publish(uri, d.version, shown);
  }
}

void Server::State::ScanNotebook(Notebook& nb) {
  std::vector<NotebookCellText> cells;
  for (size_t i = 0; i < nb.cells.size(); ++i) {
    auto d = docs.find(nb.cells[i]);
    cells.push_back({nb.code[i], d == docs.end() ? std::string() : *d->second.text});
  }
  nb.assembled = AssembleNotebook(cells, nb.metadata_json);
  std::vector<Placed>& out = placed[nb.uri];
  out.clear();
  if (!nb.path.empty() && nb.assembled.json.size() <= kMaxDocumentBytes) {
    overlay.Set(nb.path, std::make_shared<const std::string>(nb.assembled.json));
    std::optional<ScanResult> result = ScanPaths(WithSiblingNotebooks(nb.path));
    if (result) {
      LineIndex json_index(nb.assembled.json);
      for (const Finding& f : result->findings) {
        if (f.severity < min_severity || AbsoluteNormal(f.path) != nb.path) continue;
        // The cell and line the finding's JSON position stands for.
        auto cell_position = [&](SourcePos pos, LspPosition* out_pos) -> int {
          int line = pos.line - 1;
          if (line < 0 || line >= static_cast<int>(nb.assembled.lines.size())) return -1;
          NotebookLine from = nb.assembled.lines[line];
          if (from.cell < 0) return -1;
          const std::string& text = cells[from.cell].text;
          LineIndex index(text);
          std::string_view cell_line = index.Line(text, from.line);
          size_t bytes = std::min(CellColumn(json_index.Line(nb.assembled.json, line), pos.column), cell_line.size());
          *out_pos = {from.line, Utf16Length(cell_line.substr(0, bytes))};
          return from.cell;
        };
        Placed p{f, "", {}, {}};
        int cell = cell_position(f.range.begin, &p.begin);
        if (cell < 0 && f.range.cell > 0 && f.range.cell <= static_cast<int>(cells.size())) {
          cell = f.range.cell - 1;  // a position the front end gave in the cell's own terms
          p.begin = {std::max(0, f.range.cell_line - 1), 0};
        }
        if (cell < 0) cell = 0;  // about the notebook as a whole: shown at its first cell
        if (nb.cells.empty()) continue;
        LspPosition end;
        if (!f.range.end.valid() || cell_position(f.range.end, &end) != cell || !Before(p.begin, end)) {
          LineIndex index(cells[cell].text);
          end = index.LineEnd(cells[cell].text, p.begin.line);
        }
        p.end = end;
        p.uri = nb.cells[cell];
        out.push_back(std::move(p));
      }
    }
  }
  for (const std::string& cell : nb.cells) {
    std::vector<const Placed*> shown;
    for (const Placed& p : out) {
      if (p.uri == cell) shown.push_back(&p);
    }
    auto d = docs.find(cell);
    Publish(cell, d == docs.end() ? -1 : d->second.version, shown);
  }
}

void Server::Flush() {
  State& s = *state_;
  while (!s.dirty.empty()) {
    std::string uri = *s.dirty.begin();
    try {
      auto nb = s.notebooks.find(uri);
      if (nb != s.notebooks.end()) {
        s.dirty.erase(s.dirty.begin());
        s.ScanNotebook(nb->second);
        continue;
      }
      auto d = s.docs.find(uri);
      if (d == s.docs.end()) {
        s.dirty.erase(s.dirty.begin());
        continue;
      }
      // The dirty open files of the same Terraform module are one scan.
      std::vector<std::string> together{uri};
      if (!d->second.path.empty() && IsTerraform(d->second.path)) {
        for (const std::string& other : s.dirty) {
          auto o = s.docs.find(other);
          if (other != uri && o != s.docs.end() && o->second.notebook.empty() &&
              DirOf(o->second.path) == DirOf(d->second.path) && IsTerraform(o->second.path)) {
            together.push_back(other);
          }
        }
      }
      for (const std::string& t : together) s.dirty.erase(t);
      s.ScanText(together);
    } catch (const std::exception& e) {
      s.dirty.erase(uri);
      Log(uri + ": scan failed: " + e.what());
    }
  }
}

std::string Server::State::TextOf(const std::string& path) {
  std::string text, error;
  if (!overlay.Read(path, kMaxSourceBytes, &text, &error)) return "";
  return text;
}

// A fix's edit as an LSP TextEdit, added to `changes` (by URI); false when it
// cannot be shown in the documents the editor has (a notebook edit that is
// more than one cell's text).
std::optional<json> Server::State::FixEdit(const sagelint::FixEdit& e, json* changes) {
  std::string path = AbsoluteNormal(e.path);
  for (auto& [uri, nb] : notebooks) {
    if (nb.path != path) continue;
    // An edit inside one source string of the assembled notebook: that cell's text.
    const std::string& text = nb.assembled.json;
    int line = e.range.begin.line - 1;
    if (e.range.end.line != e.range.begin.line || line < 0 || line >= static_cast<int>(nb.assembled.lines.size())) {
      return std::nullopt;
    }
    NotebookLine from = nb.assembled.lines[line];
    if (from.cell < 0 || from.cell >= static_cast<int>(nb.cells.size())) return std::nullopt;
    json content = json::parse("\"" + e.content + "\"", nullptr, false);
    if (content.is_discarded()) return std::nullopt;
    LineIndex json_index(text);
    std::string_view json_line = json_index.Line(text, line);
    auto d = docs.find(nb.cells[from.cell]);
    if (d == docs.end()) return std::nullopt;
    LineIndex index(*d->second.text);
    std::string_view cell_line = index.Line(*d->second.text, from.line);
    auto at = [&](int column) {
      size_t bytes = std::min(CellColumn(json_line, column), cell_line.size());
      return LspPosition{from.line, Utf16Length(cell_line.substr(0, bytes))};
    };
    json edit = {{"range", Range(at(e.range.begin.column), at(e.range.end.column))},
                 {"newText", content.get<std::string>()}};
    (*changes)[nb.cells[from.cell]].push_back(edit);
    return edit;
  }
  std::string text = TextOf(path);
  std::string uri = UriOfPath(path);
  for (const auto& [doc_uri, d] : docs) {
    if (d.path == path) uri = doc_uri;  // the client's own spelling of an open document
  }
  LineIndex index(text);
  json edit = {{"range", Range(index.FromByteColumn(text, e.range.begin.line, e.range.begin.column),
                               index.FromByteColumn(text, e.range.end.line, e.range.end.column))},
               {"newText", e.content}};
  (*changes)[uri].push_back(edit);
  return edit;
}

// "Ignore SMxxx on this line": a `sagelint:ignore=` comment on the line
// above the finding, indented as it is, or the rule added to one there.
std::optional<json> Server::State::IgnoreEdit(const Placed& p) {
  auto d = docs.find(p.uri);
  if (d == docs.end()) return std::nullopt;
  std::string marker = "#";
  if (d->second.notebook.empty()) {
    const FrontEnd* fe = FrontEndForPath(d->second.path);
    if (fe) fe = FrontEndForContent(*fe, *d->second.text);
    if (!fe) return std::nullopt;
    CommentSyntax syntax = fe->CommentsIn(d->second.path);
    if (syntax == CommentSyntax::kNone) return std::nullopt;
    marker = syntax.marker;
  } else {
    auto nb = notebooks.find(d->second.notebook);
    if (nb == notebooks.end()) return std::nullopt;
    auto cell = std::find(nb->second.cells.begin(), nb->second.cells.end(), p.uri);
    if (cell == nb->second.cells.end() || !nb->second.code[cell - nb->second.cells.begin()]) return std::nullopt;
  }
  const std::string& text = *d->second.text;
  LineIndex index(text);
  std::string_view line = index.Line(text, p.begin.line);
  if (p.begin.line > 0) {
    std::string_view above = index.Line(text, p.begin.line - 1);
    size_t at = above.find("sagelint:ignore=");
    if (at != std::string_view::npos) {
      size_t end = at + 16;
      while (end < above.size() && (std::isalnum(static_cast<unsigned char>(above[end])) || above[end] == ',')) ++end;
      LspPosition pos{p.begin.line - 1, Utf16Length(above.substr(0, end))};
      return json{{"range", Range(pos, pos)}, {"newText", "," + p.finding.rule}};
    }
  }
  size_t indent = line.find_first_not_of(" \t");
  std::string lead(line.substr(0, indent == std::string_view::npos ? line.size() : indent));
  LspPosition pos{p.begin.line, 0};
  return json{{"range", Range(pos, pos)}, {"newText", lead + marker + " sagelint:ignore=" + p.finding.rule + "\n"}};
}

json Server::State::CodeActions(const json& params) {
  std::string uri = params.at("textDocument").at("uri").get<std::string>();
  LspPosition from = PositionFrom(params.at("range").at("start"));
  LspPosition to = PositionFrom(params.at("range").at("end"));
  auto d = docs.find(uri);
  if (d == docs.end()) return json::array();
  auto found = placed.find(d->second.notebook.empty() ? uri : d->second.notebook);
  if (found == placed.end()) return json::array();
  json actions = json::array();
  for (const Placed& p : found->second) {
    if (p.uri != uri || Before(to, p.begin) || Before(p.end, from)) continue;
    json diagnostic = DiagnosticOf(p);
    if (p.finding.fix && !p.finding.fix->edits.empty()) {
      const Fix& fix = *p.finding.fix;
      json changes = json::object();
      bool whole = true;
      for (const sagelint::FixEdit& e : fix.edits) whole = whole && FixEdit(e, &changes);
      if (whole) {
        bool safe = fix.applicability == Applicability::kSafe;
        actions.push_back({{"title", p.finding.rule + ": " + fix.message + (safe ? "" : " (unsafe fix)")},
                           {"kind", "quickfix"},
                           {"diagnostics", {diagnostic}},
                           {"isPreferred", safe},
                           {"edit", {{"changes", changes}}}});
      }
    }
    if (std::optional<json> ignore = IgnoreEdit(p)) {
      actions.push_back({{"title", "Ignore " + p.finding.rule + " on this line"},
                         {"kind", "quickfix"},
                         {"diagnostics", {diagnostic}},
                         {"edit", {{"changes", {{p.uri, json::array({*ignore})}}}}}});
    }
  }
  return actions;
}

json Server::State::Hover(const json& params) {
  std::string uri = params.at("textDocument").at("uri").get<std::string>();
  LspPosition pos = PositionFrom(params.at("position"));
  auto d = docs.find(uri);
  if (d == docs.end()) return nullptr;
  const std::string& text = *d->second.text;
  LineIndex index(text);
  std::string_view line = index.Line(text, pos.line);
  std::optional<std::pair<std::string, size_t>> found = InstanceTypeAt(line, ByteOffsetOfUtf16(line, pos.character));
  if (!found) return nullptr;
  const std::string* type = &found->first;
  std::string path = d->second.path;
  if (!d->second.notebook.empty()) {
    auto nb = notebooks.find(d->second.notebook);
    if (nb != notebooks.end()) path = nb->second.path;
  }
  RootContext* c = path.empty() ? nullptr : &ContextFor(path);
  const PriceTable& prices = c && c->prices ? *c->prices : PriceTable::BuiltIn();
  std::optional<InstanceInfo> info = LookupInstance(*type);
  std::string md = "**" + *type + "**";
  if (info) {
    std::vector<std::string> parts;
    if (info->accelerated()) {
      std::string acc =
          (info->accelerator_count ? std::to_string(*info->accelerator_count) + " × " : "") +
          (info->accelerator_name.empty() ? AcceleratorDisplayName(info->accelerator) : info->accelerator_name);
      if (info->accelerator_memory_gib) acc += " (" + FormatNumber(*info->accelerator_memory_gib) + " GiB each)";
      parts.push_back(acc);
    } else if (info->accelerator == Accelerator::kElasticInference) {
      parts.push_back(AcceleratorDisplayName(info->accelerator));
    } else {
      parts.push_back("no accelerator");
    }
    if (info->vcpu) parts.push_back(std::to_string(*info->vcpu) + " vCPU");
    if (info->memory_gib) parts.push_back(FormatNumber(*info->memory_gib) + " GiB memory");
    if (info->previous_generation && !info->successors.empty()) {
      parts.push_back("previous generation (successor: " + info->successors.front() + ")");
    }
    md += " — ";
    for (size_t i = 0; i < parts.size(); ++i) md += (i ? ", " : "") + parts[i];
  } else {
    md += " — not in sagelint's instance catalog";
  }
  md += "\n\n| used for | price per hour |\n|---|---|\n";
  bool any = false;
  for (PriceComponent pc : {PriceComponent::kNotebook, PriceComponent::kStudio, PriceComponent::kTraining,
                            PriceComponent::kProcessing, PriceComponent::kTransform, PriceComponent::kHosting}) {
    std::optional<double> usd = prices.Hourly(*type, pc);
    md += "| " + std::string(ComponentName(pc)) + " | " + (usd ? Hourly(*usd) : std::string("no price")) + " |\n";
    any = any || usd.has_value();
  }
  if (!any) md += "\n" + prices.UnpricedReason(*type) + "\n";
  md += "\nprices: " + prices.region() + (prices.as_of().empty() ? "" : ", " + prices.as_of()) +
        (prices.built_in() ? " (built-in table)" : "");
  size_t begin = found->second;
  return {{"contents", {{"kind", "markdown"}, {"value", md}}},
          {"range", Range({pos.line, Utf16Length(line.substr(0, begin))},
                          {pos.line, Utf16Length(line.substr(0, begin + type->size()))})}};
}

int RunServer(int in_fd, int out_fd) {
  ::signal(SIGPIPE, SIG_IGN);  // a client gone away is a failed write, not a signal
  MessageReader reader(in_fd);
  bool gone = false;
  Server server([&](const std::string& body) {
    if (!gone && !WriteMessage(out_fd, body)) {
      gone = true;
      Log("cannot write to the client: it went away");
    }
    return !gone;
  });
  for (;;) {
    std::string body, error;
    MessageReader::Result r = reader.Next(&body, &error);
    if (r == MessageReader::Result::kEnd) {
      if (!server.shutdown_requested()) Log("the client closed the connection without shutdown");
      return server.exit_code();
    }
    if (r == MessageReader::Result::kBad) {
      server.ReportUnreadable(error);
    } else {
      server.Handle(body);
    }
    if (server.exited()) return server.exit_code();
    if (gone) return 1;
    // Changes that come in a burst are scanned once, when the burst is over.
    if (!reader.Pending()) server.Flush();
    if (gone) return 1;
  }
}

}  // namespace sagelint
