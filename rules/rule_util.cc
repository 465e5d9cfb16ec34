#include "rules/rule_util.h"

namespace sagelint::rules {

void ForEachKnown(const Val& v, const std::function<void(const Val&)>& fn) {
  v.ForEach([&](const Val& alt) {
    if (alt.known()) fn(alt);
  });
}

void ForEachAbsent(const Workload& w, const Val& v, const std::function<void(const Val&)>& fn) {
  if (!w.complete) return;
  v.ForEach([&](const Val& alt) {
    if (alt.absent()) fn(alt);
  });
}

void ForEachInstance(const Workload& w,
                     const std::function<void(const Val& type, const InstanceInfo& info)>& fn) {
  auto visit = [&](const Val& v) {
    ForEachKnown(v, [&](const Val& t) {
      if (auto info = LookupInstance(t.text)) fn(t, *info);
    });
  };
  visit(w.instance_type);
  for (const StudioApp& app : w.apps) visit(app.instance_type);
}

std::string SameSize(std::string_view instance_type, std::string_view family,
                     std::initializer_list<std::string_view> sizes, std::string_view fallback_size) {
  std::string_view size = instance_type.substr(instance_type.rfind('.') + 1);
  for (std::string_view s : sizes) {
    if (s == size) return "ml." + std::string(family) + "." + std::string(size);
  }
  return "ml." + std::string(family) + "." + std::string(fallback_size);
}

Report At(const Val& v) {
  Report r;
  r.at = v.range;
  r.condition = v.condition;
  if (v.known()) r.value = v.text;
  return r;
}

}  // namespace sagelint::rules
