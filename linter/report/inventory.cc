#include "linter/report/inventory.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "linter/base/strings.h"
#include "linter/cost/prices.h"
#include "linter/policy/attributes.h"
#include "linter/report/emit.h"

namespace sagelint {
namespace {

std::string Show(const AttrValue& v) {
  if (v.state == AttrValue::State::kAbsent) return "-";
  if (!v.known()) return "?";
  if (v.type == AttrType::kList) {
    std::string s;
    for (const std::string& x : v.list) s += (s.empty() ? "" : "+") + x;
    return s;
  }
  return v.text;
}

struct Row {
  std::vector<std::string> cells;
};

std::vector<std::string> Columns() {
  return {"kind",        "resource",         "location",      "instance_type", "instance_count", "accelerator", "spot",
          "input_modes", "lifecycle_config", "idle_shutdown", "autoscaling",   "hourly_usd",     "monthly_usd"};
}

Row RowOf(const Workload& w, const PriceTable& prices) {
  Row r;
  auto a = [&](std::string_view name) { return Show(Attribute(w, name, &prices)); };
  AttrValue hourly = Attribute(w, "hourly_usd", &prices);
  std::string monthly = hourly.known() && AlwaysOn(w) ? FormatUsd(hourly.number * kHoursPerMonth) : "-";
  r.cells = {std::string(KindName(w.kind)),
             w.label,
             w.path + ":" + std::to_string(w.range.begin.line),
             a("instance_type"),
             a("instance_count"),
             a("accelerator"),
             a("spot"),
             a("input_modes"),
             a("lifecycle_config"),
             a("idle_shutdown"),
             a("autoscaling"),
             hourly.known() ? FormatUsd(hourly.number) : Show(hourly),
             monthly};
  return r;
}

std::string Csv(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

void EmitInventory(std::ostream& out, std::string_view format, const std::vector<Workload>& workloads,
                   const PriceTable& prices) {
  if (format == "json") {
    nlohmann::ordered_json doc = {{"schema_version", 1}, {"workloads", kJsonListHere}, {"prices", prices.Describe()}};
    WriteJsonWithList(out, doc, workloads.size(), [&](size_t i) { return AttributesJson(workloads[i], &prices); });
    return;
  }
  std::vector<std::string> cols = Columns();
  std::vector<Row> rows;
  for (const Workload& w : workloads) {
    rows.push_back(RowOf(w, prices));
    // Names and paths come from scanned files: no control characters reach the terminal or the CSV reader.
    for (std::string& cell : rows.back().cells) cell = Printable(cell);
  }
  if (format == "csv") {
    for (size_t i = 0; i < cols.size(); ++i) out << (i ? "," : "") << cols[i];
    out << "\n";
    for (const Row& r : rows) {
      for (size_t i = 0; i < r.cells.size(); ++i) out << (i ? "," : "") << Csv(r.cells[i]);
      out << "\n";
    }
    return;
  }
  std::vector<size_t> width(cols.size());
  for (size_t i = 0; i < cols.size(); ++i) width[i] = cols[i].size();
  for (const Row& r : rows) {
    for (size_t i = 0; i < r.cells.size(); ++i) width[i] = std::max(width[i], r.cells[i].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string l;
    for (size_t i = 0; i < cells.size(); ++i) {
      l += cells[i];
      if (i + 1 < cells.size()) l += std::string(width[i] - cells[i].size() + 2, ' ');
    }
    out << l << "\n";
  };
  line(cols);
  for (const Row& r : rows) line(r.cells);
  out << "\n"
      << rows.size() << (rows.size() == 1 ? " workload" : " workloads") << "; prices: " << prices.Describe() << "\n";
}

}  // namespace sagelint
