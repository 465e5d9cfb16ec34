// Fixes (README "Fixes"): what a finding's fix changes, first as the rule states it
// (a change to the model's value, independent of the format), then as the
// edits to the files as stored that the scan resolves it into.
#ifndef SAGELINT_LINTER_MODEL_FIX_H_
#define SAGELINT_LINTER_MODEL_FIX_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/model.h"

namespace sagelint {

enum class Applicability : std::uint8_t { kSafe, kUnsafe };
std::string_view ApplicabilityName(Applicability a);  // safe|unsafe

// One change a fix makes, as a rule states it. Each format's editor
// (FrontEnd::edit) turns it into a byte-range edit of the file as stored.
struct FixChange {
  enum class Op : std::uint8_t {
    kReplace,     // the literal at `range` now says `value` instead of `text`
    kInsert,      // the setting `field` with the JSON value `value` added to the container at `range`
    kRemove,      // the member (key and value) whose value is at `range` removed
    kAppendCell,  // a notebook code cell with the source `value` appended
  };
  Op op = Op::kReplace;
  std::string path;   // display path of the file; empty = the finding's file
  SourceRange range;  // see Op
  std::string field;  // kInsert, kRemove: the model's name of the setting ("max_wait_seconds")
  std::string text;   // kReplace: the value as the literal spells it now
  std::string value;  // kReplace: the new text; kInsert: a JSON value; kAppendCell: Python source
  bool operator==(const FixChange&) const = default;
};

// One edit of a file as stored: the bytes from `range.begin` up to (not
// including) `range.end` become `content`. Positions as everywhere: 1-based
// lines and byte columns; an insertion has begin == end.
struct FixEdit {
  std::string path;  // display path
  SourceRange range;
  std::string content;
  bool operator==(const FixEdit&) const = default;
};

struct Fix {
  Applicability applicability = Applicability::kSafe;
  std::string message;             // "replace ml.p2.xlarge with ml.g4dn.xlarge"
  std::vector<FixChange> changes;  // as the rule stated them (engine only)
  std::vector<FixEdit> edits;      // resolved against the files; empty until then
  bool operator==(const Fix&) const = default;
};

// A byte-range edit of one text: [begin, end) becomes `content`.
struct TextEdit {
  size_t begin = 0;
  size_t end = 0;
  std::string content;
  bool operator==(const TextEdit&) const = default;
};

// The byte offset of a 1-based line and byte column in `text`; nullopt when
// the position lies outside it.
std::optional<size_t> OffsetOf(std::string_view text, SourcePos pos);
// The position of a byte offset (offset <= text.size()).
SourcePos PositionOf(std::string_view text, size_t offset);
// The offset where the line holding the byte at `at` starts.
size_t LineStartOf(std::string_view text, size_t at);

// A fix as one text (the packed finding form carries it so) and back.
std::string FixToText(const Fix& fix);
Fix FixFromText(std::string_view text);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_MODEL_FIX_H_
