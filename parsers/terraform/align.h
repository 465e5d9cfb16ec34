// The alignment `terraform fmt` gives attributes (README "Fixes"): a fix that
// adds or removes lines of a Terraform file re-aligns the groups they join.
#ifndef SAGELINT_PARSERS_TERRAFORM_ALIGN_H_
#define SAGELINT_PARSERS_TERRAFORM_ALIGN_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/fix.h"

namespace sagelint::tf {

// `text` with the attribute groups that hold a line of `touched` (0-based
// line numbers) aligned as `terraform fmt` aligns them: a group is a run of
// consecutive lines that each assign a whole value (`key = value` with every
// bracket it opens closed on the line); a blank line, a comment line, a block's
// `name {` or `}`, a line that opens a multi-line value and the lines of a
// heredoc end it. Each `=` of a group stands one space after its longest key.
// Then the trailing comments (`#`, `//`) of consecutive lines that hold one
// and a touched or re-aligned line stand one space after the longest of those
// lines' code. Every other byte stays as it is.
std::string AlignAttributes(std::string_view text, const std::vector<int>& touched);

// A fix's edits of one Terraform file as one edit of whole lines that also
// re-aligns the groups its lines join or leave (the lines each edit spans and
// the lines beside it are touched). Nullopt when aligning changes nothing: the
// edits then stand as they are.
std::optional<TextEdit> AlignedEdit(std::string_view before, const std::vector<TextEdit>& edits);

}  // namespace sagelint::tf

#endif  // SAGELINT_PARSERS_TERRAFORM_ALIGN_H_
