// The stable machine format (README "Usage", schema_version 1).
#include <cmath>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "linter/cost/alternatives.h"
#include "linter/cost/prices.h"
#include "linter/iam/iam_policy.h"
#include "linter/policy/attributes.h"
#include "linter/report/emit.h"
#include "linter/report/inventory.h"

namespace sagelint {
namespace {

// Money in JSON: cents for monthly figures, four decimals for hourly prices (docs/cost-data.md).
std::optional<double> Rounded(const std::optional<double>& v, double scale) {
  if (!v) return v;
  return std::round(*v * scale) / scale;
}

nlohmann::ordered_json OrNull(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

// The `workloads` block that `sagelint merge` reads (docs/organisation.md):
// every workload but IAM statements, with its spend as the inventory prices it.
nlohmann::ordered_json WorkloadsJson(const std::vector<Workload>& workloads, const PriceTable& prices,
                                     const MachinePaths& paths) {
  using json = nlohmann::ordered_json;
  auto rounded = [](const std::optional<double>& v, double scale) {
    return v ? json(std::round(*v * scale) / scale) : json(nullptr);
  };
  json list = json::array();
  std::set<std::string> apps_in = ScopesWithApps(workloads);
  for (const Workload& w : workloads) {
    if (w.kind == WorkloadKind::kIamStatement) continue;
    WorkloadSpend s = SpendOf(w, prices, &apps_in);
    AttrValue type = Attribute(w, "instance_type", &prices);
    AttrValue count = Attribute(w, "instance_count", &prices);
    json instance_type = !w.instance_groups.empty() ? json(InstancesText(w)) : type.known() ? json(type.text) : json();
    list.push_back(
        {{"kind", KindName(w.kind)},
         {"label", w.label},
         {"path", paths(w.path)},
         {"line", w.range.begin.line},
         {"instance_type", instance_type},
         {"instance_count", !count.known()                             ? json(nullptr)
                            : count.number == std::floor(count.number) ? json(static_cast<long long>(count.number))
                                                                       : json(count.number)},
         {"billed", s.priced_kind},
         {"hourly_usd", rounded(s.hourly, 1e4)},
         {"monthly_usd", rounded(s.monthly, 1e2)},
         {"always_on", s.always_on}});
  }
  return list;
}

}  // namespace

nlohmann::ordered_json FindingJson(const Finding& f, const MachinePaths& paths) {
  using json = nlohmann::ordered_json;
  json j = {
      {"rule", f.rule},
      {"name", f.name},
      {"severity", SeverityName(f.severity)},
      {"path", paths(f.path)},
      {"line", f.range.begin.line},
      {"column", f.range.begin.column},
      {"end_line", f.range.end.valid() ? f.range.end.line : f.range.begin.line},
      {"end_column", f.range.end.valid() ? f.range.end.column : f.range.begin.column},
      {"cell", f.range.cell > 0 ? json(f.range.cell) : json(nullptr)},
      {"cell_line", f.range.cell > 0 ? json(f.range.cell_line) : json(nullptr)},
      {"resource", f.resource},
      {"message", f.message},
      {"suggestion", f.suggestion},
      {"condition", f.condition.empty() ? json(nullptr) : json(f.condition)},
  };
  if (f.iam) {
    // The guardrail statement that prevents this class (the same one `sagelint iam-policy` prints).
    static const GuardrailOptions kOptions = [] {
      GuardrailOptions o;
      o.endpoint_deny_families = TrainingFamiliesWithInferenceAlternative(PriceTable::BuiltIn(), OfferKind::kEndpoint);
      o.transform_deny_families =
          TrainingFamiliesWithInferenceAlternative(PriceTable::BuiltIn(), OfferKind::kTransform);
      return o;
    }();
    // One statement per rule, whatever the finding: made once per rule (a scan has many such findings).
    static std::mutex statements_mu;
    static std::map<std::string, json, std::less<>> statements;
    json statement;
    {
      std::lock_guard<std::mutex> lock(statements_mu);
      auto it = statements.find(f.rule);
      if (it == statements.end()) {
        json made = json::object();
        for (const nlohmann::json& st : GuardrailStatementsFor(f.rule, {}, kOptions)) {
          made = json::parse(st.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
          break;
        }
        it = statements.emplace(f.rule, std::move(made)).first;
      }
      statement = it->second;
    }
    j["iam"] = {
        {"condition_key", f.iam->condition_key}, {"actions", f.iam->actions}, {"statement", std::move(statement)}};
  } else {
    j["iam"] = nullptr;
  }
  if (f.cost) {
    // Without a price the figures are null and the basis says why.
    auto text_or_null = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
    j["cost"] = {{"instance_type", f.cost->instance_type},
                 {"count", f.cost->count},
                 {"hourly_usd", OrNull(Rounded(f.cost->hourly_usd, 10000))},
                 {"monthly_usd", OrNull(Rounded(f.cost->monthly_usd, 100))},
                 {"monthly_savings_usd", OrNull(Rounded(f.cost->monthly_savings_usd, 100))},
                 {"basis", f.cost->basis},
                 {"price_source", text_or_null(f.cost->price_source)},
                 {"price_date", text_or_null(f.cost->price_date)}};
  } else {
    j["cost"] = nullptr;
  }
  if (f.fix) {
    nlohmann::ordered_json edits = nlohmann::ordered_json::array();
    for (const FixEdit& e : f.fix->edits) {
      edits.push_back({{"path", paths(e.path)},
                       {"line", e.range.begin.line},
                       {"column", e.range.begin.column},
                       {"end_line", e.range.end.line},
                       {"end_column", e.range.end.column},
                       {"content", e.content}});
    }
    j["fix"] = {
        {"applicability", ApplicabilityName(f.fix->applicability)}, {"message", f.fix->message}, {"edits", edits}};
  }
  if (!f.fix && !f.fix_unavailable.empty()) j["fix_unavailable"] = f.fix_unavailable;
  j["fingerprint"] = f.fingerprint;
  return j;
}

void EmitJson(std::ostream& out, const ScanResult& scan, const EmitOptions& opts) {
  MachinePaths paths(scan.repository_roots);
  Tally t = CountFindings(scan.findings);
  nlohmann::ordered_json doc = {
      {"schema_version", 1},
      {"tool", {{"name", "sagelint"}, {"version", SAGELINT_VERSION}}},
      // Which repository and revision this is, for `sagelint merge` (docs/organisation.md).
      {"report_name", opts.report_name.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(opts.report_name)},
      {"commit", opts.commit.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(opts.commit)},
      {"findings", kJsonListHere},
      {"summary",
       {{"files_scanned", scan.files_scanned},
        {"findings", t.total()},
        {"errors", t.errors},
        {"warnings", t.warnings},
        {"notes", t.notes},
        {"suppressed", scan.suppressed},
        {"baselined", scan.baselined},
        // The text summary's "est. avoidable spend": per workload its largest saving, summed (in cents).
        {"avoidable_monthly_usd", AvoidableMonthlyUsd(scan.findings)},
        {"unpriced", UnpricedFindings(scan.findings)},
        // Baseline entries that hid no finding (their findings were fixed or changed).
        {"stale_baseline", scan.stale_baseline.size()}}},
      {"workloads", WorkloadsJson(scan.workloads, opts.prices ? *opts.prices : PriceTable::BuiltIn(), paths)},
  };
  if (opts.report_stale_baseline) {
    nlohmann::ordered_json stale = nlohmann::ordered_json::array();
    for (const StaleBaselineEntry& e : scan.stale_baseline) {
      stale.push_back({{"fingerprint", e.fingerprint}, {"rule", e.rule}, {"path", e.path}, {"resource", e.resource}});
    }
    doc["stale_baseline"] = std::move(stale);
  }
  WriteJsonWithList(out, doc, scan.findings.size(), [&](size_t i) { return FindingJson(scan.findings[i], paths); });
}

}  // namespace sagelint
