#include "linter/report/emit.h"


namespace sagelint {

const std::vector<Emitter>& Emitters() {
  static const std::vector<Emitter> emitters = {
      {"text", EmitText},
      {"json", EmitJson},
      {"sarif", EmitSarif},
      {"junit", EmitJunit},
      {"github", EmitGithub},
      {"gitlab", EmitGitlab},
      {"markdown", EmitMarkdown},
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

}  // namespace sagelint
