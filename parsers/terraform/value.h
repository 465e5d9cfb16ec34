// Terraform values as sagelint evaluates them: known scalars, lists and
// objects (nested blocks are lists of objects, as in plan JSON), unknowns,
// and conditionals whose condition is not known.
#ifndef SAGELINT_PARSERS_TERRAFORM_VALUE_H_
#define SAGELINT_PARSERS_TERRAFORM_VALUE_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/model/model.h"
#include "parsers/common/node.h"

namespace sagelint::tf {

// In link texts, a reference to a resource is written \x01type.name\x01.
inline constexpr char kRefMark = '\x01';
// In a shape (an unknown string's known parts), an unknown part is this byte.
inline constexpr char kHole = '\x02';

struct TfVal {
  struct Field;  // a key and its value (defined below: TfVal must be complete)
  enum class Kind { kUnknown, kNull, kStr, kNum, kBool, kList, kMap, kCond };
  Kind kind = Kind::kUnknown;
  std::string text;           // kStr / kNum / kBool
  std::vector<TfVal> items;   // kList; kCond: {when true, when false}
  std::vector<Field> fields;  // kMap
  std::string condition;      // kCond: the condition's source text
  bool dynamic = false;       // kMap: a dynamic block or unknown key could add something
  // kMap with `dynamic`: the names of the blocks that may be added, when every
  // unresolved part is a `dynamic "name"` block (it adds only blocks of its
  // name); empty: anything may be added.
  std::vector<std::string> dynamic_blocks;
  SourceRange range;
  std::string origin;  // "variable x default", "terraform.tfvars"
  std::string link;    // text with resource references marked (for linking)
  // kUnknown: a reference to a resource or module call (its address,
  // "aws_x.y", "aws_x.y[0]", "module.m"), so attributes and indexes can follow it.
  std::string ref;
  // kUnknown: evaluation failed (a missing attribute, an index out of range,
  // an attribute of null) rather than the value being unknown; try() skips it.
  bool error = false;
  // kUnknown string: its known parts with each unknown part as kHole
  // ("arn:\x02:iam::aws:policy/AmazonSageMakerFullAccess").
  std::string shape;
  // Where the value was written (display path and range), which may be
  // another file than `range`'s: a variable default, a tfvars value, a module
  // argument. Pre-commit scans report a finding there.
  std::string src_path;
  SourceRange src;
  // A known value read from one literal token (`src`, quotes included)
  // through nothing but a variable default or a local that only this use
  // reads: a fix may edit that token (Val::literal, README "Fixes").
  bool literal = false;
  // A nested block: the whole block, from its first byte to one past its last
  // (`range` holds only its start).
  SourceRange block;

  bool known() const { return kind == Kind::kStr || kind == Kind::kNum || kind == Kind::kBool; }
  bool is_null() const { return kind == Kind::kNull; }
  // A list or a map none of whose elements is unknown, recursively.
  bool FullyKnown() const;
  const TfVal* Get(std::string_view key) const;
  // A nested block: the first object of a block list, or the object itself.
  const TfVal* Block(std::string_view key) const;
  // Every object of a (possibly repeated) nested block.
  std::vector<const TfVal*> Blocks(std::string_view key) const;
  // Could an unresolved dynamic part add a nested block `key`?
  bool MayAddBlock(std::string_view key) const;
  // Takes in what `other` may add (merging two bodies or objects).
  void AddDynamic(const TfVal& other);
};

struct TfVal::Field {
  Field(std::string k, TfVal v) : first(std::move(k)), second(std::move(v)) {}
  std::string first;
  TfVal second;
};

// An unknown value that came from `at`.
inline TfVal Unknown(SourceRange at) {
  TfVal v;
  v.range = at;
  return v;
}

// The model's value: known, unknown, absent (null / missing), or one of two
// alternatives "when <condition> is true/false". A literal written in another
// file than `home` (the workload's display path) names that file.
Val ToVal(const TfVal* v, std::string_view home);

// The value with `literal` cleared, its elements' and fields' too.
void ClearLiteral(TfVal& v);

// The same value as a tree the PascalCase request mapper reads: keys turned
// from snake_case into the API's PascalCase ("volume_size_in_gb" ->
// "VolumeSizeInGB"); `pascal` false keeps keys (jsonencode documents).
cfn::Node ToNode(const TfVal& v, bool pascal, bool* complete);
std::string PascalCase(std::string_view snake);

}  // namespace sagelint::tf

#endif  // SAGELINT_PARSERS_TERRAFORM_VALUE_H_
