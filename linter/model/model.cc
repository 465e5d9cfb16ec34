#include "linter/model/model.h"

#include <cmath>

#include "linter/base/portable.h"
#include "linter/model/workload_kinds.h"

namespace sagelint {

Val Val::Known(std::string text, SourceRange range, std::string origin) {
  Val v;
  v.state = State::kKnown;
  v.text = std::move(text);
  v.range = range;
  v.origin = std::move(origin);
  return v;
}

Val Val::Unknown(SourceRange range, std::string why) {
  Val v;
  v.state = State::kUnknown;
  v.range = range;
  v.origin = std::move(why);
  return v;
}

Val Val::Absent(SourceRange range) {
  Val v;
  v.range = range;
  return v;
}

Val Val::OneOf(std::vector<Val> alts, SourceRange range) {
  if (alts.size() == 1) {
    Val only = std::move(alts.front());
    if (!only.range.valid()) only.range = range;
    return only;
  }
  Val v;
  v.range = range;
  v.state = State::kAbsent;
  for (const Val& a : alts) {
    if (a.state == State::kUnknown)
      v.state = State::kUnknown;
    else if (a.state == State::kKnown && v.state == State::kAbsent)
      v.state = State::kKnown;
  }
  v.alternatives = std::move(alts);
  return v;
}

std::optional<double> Val::number() const {
  if (!known()) return std::nullopt;
  std::string_view s = text;
  while (!s.empty() && (s.front() == ' ' || s.front() == '+')) s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  if (s.empty()) return std::nullopt;
  std::optional<double> d = ParseDouble(s);
  if (!d || !std::isfinite(*d)) return std::nullopt;
  return d;
}

std::optional<bool> Val::boolean() const {
  if (!known()) return std::nullopt;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  return std::nullopt;
}

void Val::ForEach(const std::function<void(const Val&)>& fn) const {
  if (alternatives.empty()) {
    fn(*this);
    return;
  }
  for (const Val& a : alternatives) a.ForEach(fn);
}

bool Val::AnyUnknown() const {
  bool any = false;
  ForEach([&](const Val& v) { any = any || v.unknown(); });
  return any;
}

std::string_view FormatName(Format f) {
  switch (f) {
    case Format::kCloudFormation:
      return "cloudformation";
    case Format::kTerraform:
      return "terraform";
    case Format::kPython:
      return "python";
    case Format::kNotebook:
      return "notebook";
    case Format::kCdk:
      return "cdk";
  }
  return "unknown";
}

std::string_view KindName(WorkloadKind k) { return TraitsOf(k).name; }

std::optional<WorkloadKind> KindFromName(std::string_view name) {
  for (int i = 0; i < kWorkloadKindCount; ++i) {
    auto k = static_cast<WorkloadKind>(i);
    if (TraitsOf(k).name == name) return k;
  }
  return std::nullopt;
}

std::string NotebookWorkflow(std::string_view path) {
  size_t slash = path.rfind('/');
  return "notebooks:" + std::string(slash == std::string_view::npos ? std::string_view(".") : path.substr(0, slash));
}

bool DeletedByWorkflow(const Workload& w) {
  return w.kind == WorkloadKind::kEndpointVariant && w.format == Format::kNotebook && w.deleted.known() &&
         w.deleted.text == "true";
}

}  // namespace sagelint
