#include "linter/engine/baseline.h"

#include <nlohmann/json.hpp>

#include "linter/base/files.h"
#include "linter/base/json_shape.h"
#include "linter/engine/fingerprint.h"

namespace sagelint {

std::string BaselineText(const std::vector<Finding>& findings) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Finding& f : findings) {
    list.push_back({{"fingerprint", f.fingerprint},
                    {"rule", f.rule},
                    {"path", f.root_path},
                    {"resource", f.resource},
                    {"message", f.message}});
  }
  nlohmann::ordered_json doc = {{"schema_version", kBaselineSchema}, {"tool", "sagelint"}, {"findings", list}};
  // Paths and messages quote the scanned files, which need not be UTF-8.
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

bool WriteBaseline(const std::string& path, const std::vector<Finding>& findings, std::string* error) {
  std::string why;
  if (!WriteFileAtomic(path, BaselineText(findings), &why)) {
    *error = "cannot write " + path + ": " + why;
    return false;
  }
  return true;
}

bool ParseBaseline(std::string_view text, const std::string& label, Baseline* baseline, std::string* error) {
  // In a pull request's gate the baseline comes from the change: its shape is
  // checked before a tree is built, and a key given twice is an error.
  std::string why;
  if (!CheckJsonShape(text, kMaxBaselineDepth, true, &why)) {
    *error = label + ": " + why;
    return false;
  }
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  const char* kHint = " (write one with --write-baseline)";
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("findings") || !doc["findings"].is_array()) {
    *error = label + ": not a sagelint baseline" + std::string(kHint);
    return false;
  }
  auto version = doc.find("schema_version");
  if (version == doc.end() || !version->is_number_integer() || (*version != 1 && *version != kBaselineSchema)) {
    *error = label + ": unsupported baseline schema_version " +
             (version == doc.end() ? std::string("(none)") : version->dump()) + "; this sagelint reads 1 and " +
             std::to_string(kBaselineSchema) + kHint;
    return false;
  }
  baseline->schema_version = version->get<int>();
  const auto& list = doc["findings"];
  for (size_t i = 0; i < list.size(); ++i) {
    const auto& f = list[i];
    auto fp = f.is_object() ? f.find("fingerprint") : f.end();
    if (!f.is_object() || fp == f.end() || !fp->is_string()) {
      *error = label + ": findings[" + std::to_string(i) + "] has no \"fingerprint\" string" + kHint;
      return false;
    }
    baseline->fingerprints.insert(fp->get<std::string>());
    auto text = [&](const char* key) {
      auto it = f.find(key);
      return it != f.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    baseline->entries.push_back({fp->get<std::string>(), text("rule"), text("path"), text("resource")});
  }
  return true;
}

bool LoadBaseline(const std::string& path, Baseline* baseline, std::string* error, const FileSource& files) {
  std::string text, why;
  if (!files.Read(path, kMaxBaselineBytes, &text, &why)) {
    *error = path + ": cannot read the baseline: " + why;
    return false;
  }
  return ParseBaseline(text, path, baseline, error);
}

void ApplyBaseline(Baseline baseline, ScanResult* scan) {
  // Schema 1 recorded the path as then displayed: try that, then the path from the scan root.
  auto take = [&](const std::string& fp) {
    auto it = baseline.fingerprints.find(fp);
    if (it == baseline.fingerprints.end()) return false;
    baseline.fingerprints.erase(it);
    return true;
  };
  std::vector<Finding> kept;
  for (Finding& f : scan->findings) {
    bool hidden = baseline.schema_version == 1
                      ? take(LegacyFingerprint(f, f.path)) || take(LegacyFingerprint(f, f.root_path))
                      : take(f.fingerprint);
    if (hidden) {
      ++scan->baselined;
    } else {
      kept.push_back(std::move(f));
    }
  }
  scan->findings = std::move(kept);
  // What is left of the multiset hid nothing: name those entries, in file order.
  for (const StaleBaselineEntry& e : baseline.entries) {
    auto it = baseline.fingerprints.find(e.fingerprint);
    if (it == baseline.fingerprints.end()) continue;
    baseline.fingerprints.erase(it);
    scan->stale_baseline.push_back(e);
  }
}

}  // namespace sagelint
