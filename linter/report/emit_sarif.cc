// SARIF 2.1.0, for code scanning: rules from the rule table, one result per finding.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "linter/cost/prices.h"
#include "linter/model/rule.h"
#include "linter/report/emit.h"

namespace sagelint {
namespace {

std::string_view Level(Severity s) { return s == Severity::kNote ? "note" : SeverityName(s); }

// The base a SARIF location names: %SRCROOT% for the first base (the
// repository root), then one per other base (another repository, or the
// current directory for files in none).
std::string BaseId(size_t base) { return base == 0 ? "%SRCROOT%" : "%SRCROOT" + std::to_string(base) + "%"; }

// A directory as the absolute file URI SARIF's originalUriBaseIds need (ending in '/').
std::string DirectoryUri(const std::string& dir) {
  std::string uri = "file://" + UriPath(dir);
  if (uri.back() != '/') uri += '/';
  return uri;
}

nlohmann::ordered_json ArtifactLocation(const std::string& display, const MachinePaths& paths) {
  MachinePaths::Located at = paths.Locate(display);
  return {{"uri", UriPath(at.path)}, {"uriBaseId", BaseId(at.base)}};
}

// A fix as SARIF states it: a description and, per file, the regions replaced.
nlohmann::ordered_json SarifFix(const Fix& fix, const MachinePaths& paths) {
  using json = nlohmann::ordered_json;
  json changes = json::array();
  for (const FixEdit& e : fix.edits) {
    json replacement = {{"deletedRegion",
                         {{"startLine", e.range.begin.line},
                          {"startColumn", e.range.begin.column},
                          {"endLine", e.range.end.line},
                          {"endColumn", e.range.end.column}}},
                        {"insertedContent", {{"text", e.content}}}};
    json location = ArtifactLocation(e.path, paths);
    auto same_file = [&](const json& c) { return c["artifactLocation"] == location; };
    auto it = std::find_if(changes.begin(), changes.end(), same_file);
    if (it == changes.end()) {
      changes.push_back({{"artifactLocation", location}, {"replacements", json::array()}});
      it = changes.end() - 1;
    }
    (*it)["replacements"].push_back(replacement);
  }
  return {{"description", {{"text", fix.message + " (" + std::string(ApplicabilityName(fix.applicability)) + ")"}}},
          {"artifactChanges", changes}};
}

}  // namespace

void EmitSarif(std::ostream& out, const ScanResult& scan, const EmitOptions&) {
  using json = nlohmann::ordered_json;
  json rules = json::array();
  std::map<std::string, int> index;
  for (const RuleInfo& r : AllRules()) {
    index[std::string(r.id)] = static_cast<int>(rules.size());
    rules.push_back({{"id", r.id},
                     {"name", r.name},
                     {"shortDescription", {{"text", r.summary}}},
                     {"fullDescription", {{"text", r.summary}}},
                     {"help", {{"text", r.summary}, {"markdown", std::string(RuleDoc(r.id))}}},
                     {"defaultConfiguration", {{"level", Level(r.severity)}}},
                     {"properties", {{"tags", json::array({"cost", "sagemaker"})}}}});
  }
  for (const CustomRuleInfo& c : scan.custom_rules) {
    index[c.id] = static_cast<int>(rules.size());
    rules.push_back({{"id", c.id},
                     {"name", c.id},
                     {"shortDescription", {{"text", c.message}}},
                     {"defaultConfiguration", {{"level", Level(c.severity)}}},
                     {"properties", {{"tags", json::array({"policy"})}}}});
  }
  MachinePaths paths(scan.repository_roots);
  // Every path is located first: the bases they use are stated before the results.
  for (const Finding& f : scan.findings) {
    paths.Locate(f.path);
    if (f.fix) {
      for (const FixEdit& e : f.fix->edits) paths.Locate(e.path);
    }
  }
  json bases = json::object();
  std::vector<std::string> dirs = paths.Bases();
  for (size_t i = 0; i < dirs.size(); ++i) {
    bases[BaseId(i)] = {
        {"uri", DirectoryUri(dirs[i])},
        {"description",
         {{"text", i < scan.repository_roots.size() ? "the repository root"
                                                    : "the directory sagelint ran in (files outside a repository)"}}}};
  }
  auto result_of = [&](const Finding& f) {
    json region = {{"startLine", f.range.begin.line}, {"startColumn", f.range.begin.column}};
    if (f.range.end.valid()) {
      region["endLine"] = f.range.end.line;
      region["endColumn"] = std::max(f.range.end.column, 1);
    }
    json result = {{"ruleId", f.rule}};
    if (index.count(f.rule)) result["ruleIndex"] = index[f.rule];
    std::string text = f.message;
    if (!f.suggestion.empty()) text += ". Fix: " + f.suggestion;
    result["level"] = Level(f.severity);
    result["message"] = {{"text", text}};
    result["locations"] = json::array(
        {{{"physicalLocation", {{"artifactLocation", ArtifactLocation(f.path, paths)}, {"region", region}}}}});
    result["partialFingerprints"] = {{"sagelint/v2", f.fingerprint}};
    if (f.fix) result["fixes"] = json::array({SarifFix(*f.fix, paths)});
    json props = {{"resource", f.resource}};
    json finding = FindingJson(f, paths);
    if (!finding["cost"].is_null()) props["cost"] = finding["cost"];
    if (!finding["iam"].is_null()) props["iam"] = finding["iam"];
    if (!f.condition.empty()) props["condition"] = f.condition;
    result["properties"] = props;
    return result;
  };
  json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({{{"tool",
                                      {{"driver",
                                        {{"name", "sagelint"},
                                         {"informationUri", SAGELINT_HOMEPAGE},
                                         {"version", SAGELINT_VERSION},
                                         {"semanticVersion", SAGELINT_VERSION},
                                         {"rules", rules}}}}},
                                     {"originalUriBaseIds", bases},
                                     {"results", kJsonListHere},
                                     // Findings whose instance has no price (summary.unpriced in JSON).
                                     {"properties", {{"unpriced", UnpricedFindings(scan.findings)}}}}})}};
  // A build that does not know where the project lives names no place (never a placeholder).
  if (std::string_view(SAGELINT_HOMEPAGE).empty()) doc["runs"][0]["tool"]["driver"].erase("informationUri");
  WriteJsonWithList(out, doc, scan.findings.size(), [&](size_t i) { return result_of(scan.findings[i]); });
}

}  // namespace sagelint
