#include "linter/engine/baseline.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace sagelint {

bool WriteBaseline(const std::string& path, const std::vector<Finding>& findings, std::string* error) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Finding& f : findings) {
    list.push_back({{"fingerprint", f.fingerprint}, {"rule", f.rule}, {"path", f.path}, {"message", f.message}});
  }
  nlohmann::ordered_json doc = {{"schema_version", 1}, {"tool", "sagelint"}, {"findings", list}};
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    *error = "cannot write " + path;
    return false;
  }
  out << doc.dump(2) << "\n";
  return true;
}

bool LoadBaseline(const std::string& path, std::set<std::string>* fingerprints, std::string* error) {
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
  for (const auto& f : doc["findings"]) {
    if (f.is_object() && f.contains("fingerprint") && f["fingerprint"].is_string()) {
      fingerprints->insert(f["fingerprint"].get<std::string>());
    }
  }
  return true;
}

void ApplyBaseline(const std::set<std::string>& fingerprints, ScanResult* scan) {
  std::vector<Finding> kept;
  for (Finding& f : scan->findings) {
    if (fingerprints.count(f.fingerprint)) {
      ++scan->baselined;
    } else {
      kept.push_back(std::move(f));
    }
  }
  scan->findings = std::move(kept);
}

}  // namespace sagelint
