#include "linter/merge/merge.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "linter/base/json_shape.h"
#include "linter/base/strings.h"
#include "linter/model/rule.h"

namespace sagelint {
namespace {

using json = nlohmann::json;

// Deeper than any report sagelint writes (a finding's IAM statement is the deepest).
constexpr int kMaxReportDepth = 32;

// A member as a type, or nothing when it is absent or of another type: a
// report is read defensively, so an odd field never stops the merge.
const json* JsonMember(const json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}
std::string Text(const json& j, const char* key) {
  const json* v = JsonMember(j, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}
std::optional<double> Number(const json& j, const char* key) {
  const json* v = JsonMember(j, key);
  if (!v || !v->is_number()) return std::nullopt;
  return v->get<double>();
}
int Count(const json& j, const char* key) {
  std::optional<double> v = Number(j, key);
  return v && *v >= 0 && *v < 1e9 ? static_cast<int>(*v) : 0;
}

// The report file's name without its folders and ".json": a report without report_name.
std::string FileStem(const std::string& file) {
  std::string name = file.substr(file.find_last_of('/') == std::string::npos ? 0 : file.find_last_of('/') + 1);
  if (EndsWithNoCase(name, ".json")) name.resize(name.size() - 5);
  return name;
}

// What a parse error says, with where: "truncated at byte 1201" or the parser's words.
std::string ParseFailure(const json::parse_error& e, size_t size) {
  if (e.byte >= size) return "not complete JSON: it ends at byte " + std::to_string(size) + " (truncated?)";
  std::string what = e.what();
  // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..." -> from "line".
  size_t at = what.find("at line");
  return "not JSON: " + (at == std::string::npos ? what : what.substr(at + 3));
}

struct Accumulator {
  MergeResult m;
  std::map<std::string, RuleTotal> rules;
  std::map<std::string, std::set<std::string>> rule_repos;
  std::vector<MergedWorkload> workloads;
};

// Adds one schema 1 sagelint report; a field of an unexpected type counts as absent.
void AddReport(Accumulator& acc, const ReportText& r, const json& doc) {
  MergedRepo repo;
  repo.file = r.file;
  repo.name = Trim(Text(doc, "report_name"));
  if (repo.name.empty()) repo.name = FileStem(r.file);
  repo.commit = Text(doc, "commit");
  const json* summary = JsonMember(doc, "summary");
  static const json kEmpty = json::object();
  const json& s = summary && summary->is_object() ? *summary : kEmpty;
  repo.errors = Count(s, "errors");
  repo.warnings = Count(s, "warnings");
  repo.notes = Count(s, "notes");
  repo.avoidable_monthly = Number(s, "avoidable_monthly_usd").value_or(0);
  if (const json* findings = JsonMember(doc, "findings"); findings && findings->is_array()) {
    for (const json& f : *findings) {
      std::string rule = Text(f, "rule");
      if (rule.empty()) continue;
      if (rule == tool_rule::kParseError) ++repo.parse_errors;
      RuleTotal& t = acc.rules[rule];
      t.rule = rule;
      if (t.name.empty()) t.name = Text(f, "name");
      ++t.findings;
      if (const json* cost = JsonMember(f, "cost"))
        t.avoidable_monthly += Number(*cost, "monthly_savings_usd").value_or(0);
      acc.rule_repos[rule].insert(repo.name);
    }
  }
  if (const json* workloads = JsonMember(doc, "workloads"); workloads && workloads->is_array()) {
    double monthly = 0;
    for (const json& w : *workloads) {
      ++repo.workloads;
      const json* billed = JsonMember(w, "billed");
      std::optional<double> hourly = Number(w, "hourly_usd");
      if (billed && billed->is_boolean() && billed->get<bool>() && !hourly) ++repo.unpriced;
      const json* always_on = JsonMember(w, "always_on");
      std::optional<double> month = Number(w, "monthly_usd");
      if (!always_on || !always_on->is_boolean() || !always_on->get<bool>() || !month) continue;
      monthly += *month;
      MergedWorkload mw;
      mw.repository = repo.name;
      mw.kind = Text(w, "kind");
      mw.label = Text(w, "label");
      mw.path = Text(w, "path");
      mw.line = Count(w, "line");
      mw.instance_type = Text(w, "instance_type");
      mw.instance_count = Number(w, "instance_count");
      mw.monthly = *month;
      acc.workloads.push_back(std::move(mw));
    }
    repo.always_on_monthly = monthly;
  }
  acc.m.repositories.push_back(std::move(repo));
}

}  // namespace

std::vector<std::string> ParseRepoList(std::string_view text) {
  std::vector<std::string> names;
  for (const std::string& raw : SplitList(text, '\n')) {
    std::string line = Trim(raw);
    if (line.empty() || line[0] == '#') continue;
    if (std::find(names.begin(), names.end(), line) == names.end()) names.push_back(line);
  }
  return names;
}

MergeResult MergeReports(const std::vector<ReportText>& reports,
                         const std::optional<std::vector<std::string>>& expected) {
  Accumulator acc;
  std::set<std::string> seen_names;  // every report that names its repository, of any schema
  for (const ReportText& r : reports) {
    if (!r.error.empty()) {
      acc.m.skipped.push_back({r.file, r.error});
      continue;
    }
    std::string shape_error;
    if (!CheckJsonShape(r.text, kMaxReportDepth, false, &shape_error)) {
      acc.m.skipped.push_back({r.file, "not a sagelint scan report: " + shape_error});
      continue;
    }
    json doc;
    try {
      doc = json::parse(r.text);
    } catch (const json::parse_error& e) {
      acc.m.skipped.push_back({r.file, ParseFailure(e, r.text.size())});
      continue;
    }
    const json* tool = JsonMember(doc, "tool");
    const json* version = JsonMember(doc, "schema_version");
    if (!tool || Text(*tool, "name") != "sagelint" || !version || !version->is_number()) {
      acc.m.skipped.push_back({r.file, "not a sagelint scan report (no tool.name \"sagelint\" and schema_version)"});
      continue;
    }
    std::string name = Trim(Text(doc, "report_name"));
    if (version->dump() != "1") {
      acc.m.other_schema.push_back({r.file, "schema_version " + version->dump() + " (this sagelint reads 1)" +
                                                (name.empty() ? std::string() : "; repository " + name)});
      if (!name.empty()) seen_names.insert(name);
      continue;
    }
    if (!JsonMember(doc, "findings") || !JsonMember(doc, "summary")) {
      // `sagelint inventory --format json` and `rules --format json` are not scans.
      acc.m.skipped.push_back({r.file, "not a sagelint scan report (no findings and summary)"});
      continue;
    }
    AddReport(acc, r, doc);
  }

  MergeResult& m = acc.m;
  std::map<std::string, int> per_name;
  for (const MergedRepo& repo : m.repositories) ++per_name[repo.name];
  for (MergedRepo& repo : m.repositories) {
    repo.duplicate = per_name[repo.name] > 1;
    seen_names.insert(repo.name);
    m.always_on_monthly += repo.always_on_monthly.value_or(0);
    m.avoidable_monthly += repo.avoidable_monthly;
    m.errors += repo.errors;
    m.warnings += repo.warnings;
    m.notes += repo.notes;
    m.unpriced += repo.unpriced;
    m.parse_errors += repo.parse_errors;
  }
  for (const auto& [name, n] : per_name) {
    if (n > 1) m.duplicates.push_back(name);
  }
  std::stable_sort(m.repositories.begin(), m.repositories.end(), [](const MergedRepo& a, const MergedRepo& b) {
    double sa = a.always_on_monthly.value_or(-1), sb = b.always_on_monthly.value_or(-1);
    if (sa != sb) return sa > sb;
    if (a.avoidable_monthly != b.avoidable_monthly) return a.avoidable_monthly > b.avoidable_monthly;
    return a.name < b.name;
  });
  for (auto& [id, total] : acc.rules) {
    total.repositories = static_cast<int>(acc.rule_repos[id].size());
    m.rules.push_back(total);
  }
  std::stable_sort(m.rules.begin(), m.rules.end(), [](const RuleTotal& a, const RuleTotal& b) {
    if (a.avoidable_monthly != b.avoidable_monthly) return a.avoidable_monthly > b.avoidable_monthly;
    if (a.findings != b.findings) return a.findings > b.findings;
    return a.rule < b.rule;
  });
  std::stable_sort(acc.workloads.begin(), acc.workloads.end(), [](const MergedWorkload& a, const MergedWorkload& b) {
    if (a.monthly != b.monthly) return a.monthly > b.monthly;
    if (a.repository != b.repository) return a.repository < b.repository;
    if (a.path != b.path) return a.path < b.path;
    return a.line < b.line;
  });
  if (acc.workloads.size() > kCostliestWorkloads) acc.workloads.resize(kCostliestWorkloads);
  m.costliest = std::move(acc.workloads);
  if (expected) {
    for (const std::string& name : *expected) {
      if (!seen_names.count(name)) m.missing.push_back(name);
    }
  }
  return m;
}

}  // namespace sagelint
