#include "linter/engine/baseline.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "linter/engine/fingerprint.h"

namespace sagelint {

bool WriteBaseline(const std::string& path, const std::vector<Finding>& findings, std::string* error) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Finding& f : findings) {
    list.push_back({{"fingerprint", f.fingerprint},
                    {"rule", f.rule},
                    {"path", f.root_path},
                    {"resource", f.resource},
                    {"message", f.message}});
  }
  nlohmann::ordered_json doc = {{"schema_version", kBaselineSchema}, {"tool", "sagelint"}, {"findings", list}};
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    *error = "cannot write " + path;
    return false;
  }
  out << doc.dump(2) << "\n";
  return true;
}

bool LoadBaseline(const std::string& path, Baseline* baseline, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot read the baseline";
    return false;
  }
  std::ostringstream s;
  s << in.rdbuf();
  nlohmann::json doc = nlohmann::json::parse(s.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("findings") || !doc["findings"].is_array()) {
    *error = path + ": not a sagelint baseline (write one with --write-baseline)";
    return false;
  }
  const nlohmann::json& version = doc["schema_version"];
  if (!version.is_number_integer() || (version.get<int>() != 1 && version.get<int>() != kBaselineSchema)) {
    *error = path + ": baseline schema_version " + (version.is_null() ? std::string("missing") : version.dump()) +
             " is not one this sagelint reads (1 or " + std::to_string(kBaselineSchema) + ")";
    return false;
  }
  baseline->schema_version = version.get<int>();
  for (const auto& f : doc["findings"]) {
    if (!f.is_object() || !f.contains("fingerprint") || !f["fingerprint"].is_string()) {
      *error = path + ": a baseline entry has no fingerprint";
      return false;
    }
    baseline->fingerprints.insert(f["fingerprint"].get<std::string>());
  }
  return true;
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
}

}  // namespace sagelint
