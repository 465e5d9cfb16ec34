// What the files of the Terraform evaluator (eval.h) share: reading the HCL
// tree (blocks, labels, attributes), plain JSON as values, numbers written as
// text, and the form of an instance key. Internal to parsers/terraform.
#ifndef SAGELINT_PARSERS_TERRAFORM_EVAL_SHARED_H_
#define SAGELINT_PARSERS_TERRAFORM_EVAL_SHARED_H_

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/base/files.h"
#include "parsers/common/node.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/terraform/eval.h"
#include "parsers/terraform/value.h"

extern "C" const TSLanguage* tree_sitter_hcl(void);

namespace sagelint::tf {

inline std::string_view Type(TSNode n) { return ts::Type(n); }
inline SourceRange Range(TSNode n) { return {ts::Start(n), ts::End(n)}; }

// The body of a file's tree, or a null node.
TSNode Body(TSNode root);
// A block's labels (`resource "type" "name"`), unquoted.
std::vector<std::string> Labels(TSNode block, const HclFile& f);
TSNode BlockBody(TSNode block);
// A block's kind: `resource`, `module`, `dynamic`, …
std::string BlockKind(TSNode block, const HclFile& f);
// The attribute `name` of a block body, or a null node.
TSNode AttributeExpr(TSNode body, const HclFile& f, std::string_view name);

// A regular file of at most `limit` bytes, or false.
bool ReadLimited(const FileSource& files, const std::filesystem::path& p, size_t limit, std::string* out);
bool IsNumberText(const std::string& s);
// A character of an identifier (letters, digits, `_`, `-`).
bool IdentChar(char c);
// How Terraform writes an instance key in an address: [0] or ["key"].
std::string InstanceSuffix(const TfVal& key);
TfVal MapOf(std::vector<std::pair<std::string, TfVal>> fields);
// Plain JSON (tfvars.json, jsondecode) as values: unquoted numbers, booleans and null keep their type.
TfVal JsonValue(const cfn::Node& n, SourceRange at, int depth);

// One reference followed inside another (Unit::Enter): `ok` is false past the bound.
struct Nesting {
  explicit Nesting(Unit& u) : unit(u), ok(u.Enter()) {}
  ~Nesting() { unit.Leave(); }
  Unit& unit;
  bool ok;
};

}  // namespace sagelint::tf

#endif  // SAGELINT_PARSERS_TERRAFORM_EVAL_SHARED_H_
