// The stable machine format (README "Usage", schema_version 1).
#include <algorithm>
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
#include "linter/report/json_list.h"

namespace sagelint {
namespace {

// Money in JSON: cents for monthly figures, four decimals for hourly prices (docs/cost-data.md).
std::optional<double> Rounded(const std::optional<double>& v, double scale) {
  if (!v) return v;
  return std::round(*v * scale) / scale;
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

namespace {

// JSON text laid out as DumpJson lays a document out (nlohmann's dump with an
// indent of 2, text that is not UTF-8 carried as U+FFFD), each line after the
// first starting with a given indentation: a finding written straight to
// text, with no tree made for it (docs/organisation.md "Warm scans").
class JsonLayout {
 public:
  JsonLayout(std::string* out, std::string_view indent) : out_(*out), indent_(indent) {}
  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  // A member's name; its value is written next.
  void Key(std::string_view name) {
    Next();
    String(name);
    out_ += ": ";
  }
  // A member of a string or an integer.
  void Field(std::string_view name, std::string_view s) {
    Key(name);
    String(s);
  }
  void Field(std::string_view name, long long v) {
    Key(name);
    Int(v);
  }
  // An array's next element is written next.
  void Element() { Next(); }
  void String(std::string_view s) {
    // Printable ASCII without a quote or a backslash is written as it is;
    // anything else as nlohmann escapes (and replaces) it.
    bool plain = std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
    if (plain) {
      out_ += '"';
      out_ += s;
      out_ += '"';
    } else {
      out_ +=
          nlohmann::ordered_json(std::string(s)).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    }
  }
  void StringOrNull(bool present, std::string_view s) { present ? String(s) : Null(); }
  void Int(long long v) { out_ += std::to_string(v); }
  void Null() { out_ += "null"; }
  // A number as nlohmann writes it, or null.
  void Number(const std::optional<double>& v) { v ? Dumped(nlohmann::ordered_json(*v).dump()) : Null(); }
  // A value as DumpJson laid it out at the top level, moved to this place.
  void Dumped(std::string_view text) {
    for (size_t from = 0;;) {
      size_t nl = text.find('\n', from);
      out_.append(text.substr(from, nl == std::string_view::npos ? nl : nl + 1 - from));
      if (nl == std::string_view::npos) break;
      out_ += indent_;
      from = nl + 1;
    }
  }

 private:
  void Open(char c) {
    out_ += c;
    first_.push_back(true);
    indent_ += "  ";
  }
  // An empty object or array is "{}" or "[]"; else its end has a line of its own.
  void Close(char c) {
    indent_.resize(indent_.size() - 2);
    if (!first_.back()) {
      out_ += '\n';
      out_ += indent_;
    }
    first_.pop_back();
    out_ += c;
  }
  void Next() {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
    out_ += '\n';
    out_ += indent_;
  }

  std::string& out_;
  std::string indent_;
  std::vector<bool> first_;
};

// The guardrail statement that prevents the class of a finding of `rule`
// (the same one `sagelint iam-policy` prints), as DumpJson lays it out; made
// once per rule (a scan has many such findings).
const std::string& StatementText(const std::string& rule) {
  static const GuardrailOptions kOptions = [] {
    GuardrailOptions o;
    o.endpoint_deny_families = TrainingFamiliesWithInferenceAlternative(PriceTable::BuiltIn(), OfferKind::kEndpoint);
    o.transform_deny_families = TrainingFamiliesWithInferenceAlternative(PriceTable::BuiltIn(), OfferKind::kTransform);
    return o;
  }();
  static std::mutex statements_mu;
  static std::map<std::string, std::string, std::less<>> statements;
  std::lock_guard<std::mutex> lock(statements_mu);
  auto it = statements.find(rule);
  if (it == statements.end()) {
    nlohmann::ordered_json made = nlohmann::ordered_json::object();
    for (const nlohmann::json& st : GuardrailStatementsFor(rule, {}, kOptions)) {
      made = nlohmann::ordered_json::parse(st.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      break;
    }
    it = statements.emplace(rule, DumpJson(made)).first;
    it->second.pop_back();  // DumpJson's final newline
  }
  return it->second;
}

// The members of a place in a file: its path, where it begins and ends.
void Place(JsonLayout& w, const std::string& path, const SourcePos& begin, const SourcePos& end) {
  w.Field("path", path);
  w.Field("line", begin.line);
  w.Field("column", begin.column);
  w.Field("end_line", end.line);
  w.Field("end_column", end.column);
}

// A finding as the scan JSON writes it, appended to `out` at `indent`.
void FindingText(const Finding& f, const MachinePaths& paths, std::string_view indent, std::string* out) {
  JsonLayout w(out, indent);
  w.BeginObject();
  w.Field("rule", f.rule);
  w.Field("name", f.name);
  w.Field("severity", SeverityName(f.severity));
  Place(w, paths(f.path), f.range.begin, f.range.end.valid() ? f.range.end : f.range.begin);
  w.Key("cell");
  f.range.cell > 0 ? w.Int(f.range.cell) : w.Null();
  w.Key("cell_line");
  f.range.cell > 0 ? w.Int(f.range.cell_line) : w.Null();
  w.Field("resource", f.resource);
  w.Field("message", f.message);
  w.Field("suggestion", f.suggestion);
  w.Key("condition");
  w.StringOrNull(!f.condition.empty(), f.condition);
  w.Key("iam");
  if (f.iam) {
    w.BeginObject();
    w.Field("condition_key", f.iam->condition_key);
    w.Key("actions");
    w.BeginArray();
    for (const std::string& a : f.iam->actions) {
      w.Element();
      w.String(a);
    }
    w.EndArray();
    w.Key("statement");
    w.Dumped(StatementText(f.rule));
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("cost");
  if (f.cost) {
    // Without a price the figures are null and the basis says why.
    w.BeginObject();
    w.Field("instance_type", f.cost->instance_type);
    w.Field("count", f.cost->count);
    w.Key("hourly_usd");
    w.Number(Rounded(f.cost->hourly_usd, 10000));
    w.Key("monthly_usd");
    w.Number(Rounded(f.cost->monthly_usd, 100));
    w.Key("monthly_savings_usd");
    w.Number(Rounded(f.cost->monthly_savings_usd, 100));
    w.Field("basis", f.cost->basis);
    w.Key("price_source");
    w.StringOrNull(!f.cost->price_source.empty(), f.cost->price_source);
    w.Key("price_date");
    w.StringOrNull(!f.cost->price_date.empty(), f.cost->price_date);
    w.EndObject();
  } else {
    w.Null();
  }
  if (f.fix) {
    w.Key("fix");
    w.BeginObject();
    w.Field("applicability", ApplicabilityName(f.fix->applicability));
    w.Field("message", f.fix->message);
    w.Key("edits");
    w.BeginArray();
    for (const FixEdit& e : f.fix->edits) {
      w.Element();
      w.BeginObject();
      Place(w, paths(e.path), e.range.begin, e.range.end);
      w.Field("content", e.content);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  if (!f.fix && !f.fix_unavailable.empty()) {
    w.Field("fix_unavailable", f.fix_unavailable);
  }
  w.Field("fingerprint", f.fingerprint);
  w.EndObject();
}

}  // namespace

// The tree of the same text: one layout of a finding for every output.
nlohmann::ordered_json FindingJson(const Finding& f, const MachinePaths& paths) {
  std::string text;
  FindingText(f, paths, "", &text);
  return nlohmann::ordered_json::parse(text);
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
  WriteJsonWithTextList(out, doc, scan.findings.size(), [&](size_t i, std::string_view indent, std::string* text) {
    FindingText(scan.findings[i], paths, indent, text);
  });
}

}  // namespace sagelint
