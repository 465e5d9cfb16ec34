#include "linter/model/fix.h"

#include <nlohmann/json.hpp>

namespace sagelint {
namespace {

nlohmann::json RangeJson(const SourceRange& r) {
  return {r.begin.line, r.begin.column, r.end.line, r.end.column, r.cell, r.cell_line};
}

SourceRange RangeFrom(const nlohmann::json& j) {
  SourceRange r;
  r.begin = {j[0].get<int>(), j[1].get<int>()};
  r.end = {j[2].get<int>(), j[3].get<int>()};
  r.cell = j[4].get<int>();
  r.cell_line = j[5].get<int>();
  return r;
}

}  // namespace

std::string_view ApplicabilityName(Applicability a) { return a == Applicability::kSafe ? "safe" : "unsafe"; }

std::optional<size_t> OffsetOf(std::string_view text, SourcePos pos) {
  if (!pos.valid() || pos.column < 1) return std::nullopt;
  size_t at = 0;
  for (int line = 1; line < pos.line; ++line) {
    size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) return std::nullopt;
    at = nl + 1;
  }
  size_t eol = text.find('\n', at);
  if (eol == std::string_view::npos) eol = text.size();
  size_t offset = at + static_cast<size_t>(pos.column - 1);
  if (offset > eol) return std::nullopt;
  return offset;
}

SourcePos PositionOf(std::string_view text, size_t offset) {
  SourcePos pos{1, 1};
  size_t line_start = 0;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      line_start = i + 1;
    }
  }
  pos.column = static_cast<int>(offset - line_start) + 1;
  return pos;
}

size_t LineStartOf(std::string_view text, size_t at) {
  size_t nl = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
  return nl == std::string_view::npos ? 0 : nl + 1;
}

std::string FixToText(const Fix& fix) {
  nlohmann::json changes = nlohmann::json::array();
  for (const FixChange& c : fix.changes) {
    changes.push_back({static_cast<int>(c.op), c.path, RangeJson(c.range), c.field, c.text, c.value});
  }
  nlohmann::json edits = nlohmann::json::array();
  for (const FixEdit& e : fix.edits) edits.push_back({e.path, RangeJson(e.range), e.content});
  nlohmann::json j = {static_cast<int>(fix.applicability), fix.message, changes, edits};
  return j.dump();
}

Fix FixFromText(std::string_view text) {
  nlohmann::json j = nlohmann::json::parse(text);
  Fix fix;
  fix.applicability = static_cast<Applicability>(j[0].get<int>());
  fix.message = j[1].get<std::string>();
  for (const nlohmann::json& c : j[2]) {
    fix.changes.push_back({static_cast<FixChange::Op>(c[0].get<int>()), c[1].get<std::string>(), RangeFrom(c[2]),
                           c[3].get<std::string>(), c[4].get<std::string>(), c[5].get<std::string>()});
  }
  for (const nlohmann::json& e : j[3]) {
    fix.edits.push_back({e[0].get<std::string>(), RangeFrom(e[1]), e[2].get<std::string>()});
  }
  return fix;
}

}  // namespace sagelint
