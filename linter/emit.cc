#include "linter/emit.h"

#include <cmath>
#include <cstdio>

namespace sagelint {

const std::vector<Emitter>& Emitters() {
  static const std::vector<Emitter> emitters = {
      {"text", EmitText},
      {"json", EmitJson},
  };
  return emitters;
}

const Emitter* FindEmitter(std::string_view name) {
  for (const Emitter& e : Emitters()) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

Tally CountFindings(const std::vector<Finding>& findings) {
  Tally t;
  for (const Finding& f : findings) {
    switch (f.severity) {
      case Severity::kError: ++t.errors; break;
      case Severity::kWarning: ++t.warnings; break;
      case Severity::kNote: ++t.notes; break;
    }
  }
  return t;
}

std::string TallyText(const Tally& t) {
  auto part = [](int n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  return part(t.errors, "error", "errors") + ", " + part(t.warnings, "warning", "warnings") + ", " +
         part(t.notes, "note", "notes");
}

std::string Dollars(double usd, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, usd);
  std::string s = buf;
  size_t dot = s.find('.');
  size_t int_end = dot == std::string::npos ? s.size() : dot;
  for (int i = static_cast<int>(int_end) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return "$" + s;
}

}  // namespace sagelint
