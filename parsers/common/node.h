// The document tree every front end shares: a YAML or JSON document as a
// plain tree with positions (start, end and byte range) and tags, loaded
// through libyaml with bounds — node count and bytes (alias expansion),
// depth, duplicate keys. CloudFormation templates, Terraform plans and JSON
// values, policy documents and state machine definitions are read into it;
// the Python, Terraform and CDK front ends build it to hand values to the
// shared AWS mapper (parsers/aws/) and the CloudFormation extractor. (Its
// namespace, cfn, is where it began.)
#ifndef SAGELINT_PARSERS_COMMON_NODE_H_
#define SAGELINT_PARSERS_COMMON_NODE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/model/model.h"

namespace sagelint::cfn {

struct Node {
  struct Entry;  // a key and its value (defined below: Node must be complete)
  enum class Kind { kNull, kScalar, kMap, kSeq };
  Kind kind = Kind::kNull;
  std::string tag;   // a local tag such as "!Ref", "!GetAtt"; empty when none
  std::string text;  // scalar text
  bool quoted = false;
  // Written under an anchor (`&a`) or copied from one (`*a`, a `<<` merge, a
  // loop's body): the text at its range may stand for several nodes.
  bool shared = false;
  SourcePos pos;
  // Where the node ends (just past its last character: a quoted scalar's
  // closing quote, a flow collection's bracket; a block collection ends where
  // the next token starts), and its byte range [offset, end_offset) in the
  // text loaded. A node built by a front end rather than read from a text
  // has no end and an empty range.
  SourcePos end;
  uint32_t offset = 0;
  uint32_t end_offset = 0;
  std::vector<Entry> entries;      // mapping, in order
  std::vector<SourcePos> key_pos;  // position of each key
  std::vector<Node> items;         // sequence

  bool is_map() const { return kind == Kind::kMap; }
  bool is_seq() const { return kind == Kind::kSeq; }
  bool is_scalar() const { return kind == Kind::kScalar; }
  bool is_null() const { return kind == Kind::kNull; }
  // The value of `key` in a mapping, or nullptr.
  const Node* Get(std::string_view key) const;
  // Like Get, through a path of keys: Find({"ResourceConfig", "InstanceType"}).
  const Node* Find(std::initializer_list<std::string_view> path) const;
  // The position of `key` in a mapping (invalid if absent).
  SourcePos KeyPos(std::string_view key) const;
};

struct Node::Entry {
  Entry(std::string k, Node v) : first(std::move(k)), second(std::move(v)) {}
  std::string first;
  Node second;
};

// A scalar node built rather than read (a string unless `quoted` is false).
Node MakeScalar(std::string text, SourcePos at, bool quoted = true);
// A tree copied from where it was written to `at` (a CDK value from another
// file): every position becomes `at`, and no token is left that a fix may
// edit (docs/cdk.md "Fixes").
void Relocate(Node* n, SourcePos at);

struct LoadError {
  std::string message;
  SourcePos pos;
};

// Bounds on what one document may expand to. Aliases make a small file stand
// for a huge tree (each use of `*a` is a copy of the anchored node), so both
// the number of nodes and their bytes (text, keys, tags and the nodes
// themselves) are counted as the tree is built, and loading stops at either.
// A document of more nodes than `max_nodes` (before expansion, too) is refused
// as it is read. CloudFormation takes templates of
// at most 1 MB, far below either bound.
struct LoadLimits {
  size_t max_nodes = 1'000'000;   // after alias expansion
  size_t max_bytes = 256u << 20;  // after alias expansion: the memory of the tree built
  int max_depth = 400;
};

// Parses YAML or JSON text. `line_offset` is added to every line (for
// documents embedded in another file's string). Returns false on error.
bool LoadDocument(std::string_view text, int line_offset, const LoadLimits& limits, Node* out,
                  std::vector<LoadError>* errors);

// Every document of a YAML stream (`---` separated), with positions in the
// whole text; one node count limit for them all. Returns false on error.
bool LoadDocuments(std::string_view text, const LoadLimits& limits, std::vector<Node>* out,
                   std::vector<LoadError>* errors);

}  // namespace sagelint::cfn

#endif  // SAGELINT_PARSERS_COMMON_NODE_H_
