// Statically evaluated Python values, kept in one arena per file. Values are
// immutable and shared by index, so a constant built from other constants
// (`b = {"l": a, "r": a}`, `s = t + t`) costs one node, never a copy of its
// parts. A per-file budget bounds nodes and string bytes: past it every new
// value is unknown, so no input can make evaluation slow or large.
#ifndef SAGELINT_PARSERS_PYTHON_VALUE_H_
#define SAGELINT_PARSERS_PYTHON_VALUE_H_

#include <tree_sitter/api.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sagelint::py {

using VId = int32_t;
inline constexpr VId kUnbound = -1;  // an environment slot whose name is not bound
inline constexpr VId kUnknown = 0;   // the shared unknown value

enum class VK : uint8_t {
  kUnknown,  // nothing is known
  kOpaque,   // unknown, but one runtime value: two uses of it are the same value
  kStr,
  kNum,
  kBool,
  kNone,
  kDict,
  kList,      // lists and tuples
  kOneOf,     // one of several alternatives, each under a condition
  kLibrary,   // a value a library model made (`owner`: that model; `role`: what it is to the interpreter)
  kQual,      // an imported module, class or function: `text` is its dotted name
  kRecord,    // an instance of a library's class known by its keywords (entries; `text` the class)
  kFunction,  // a function defined in the file: `ref` is its index
  kClass,     // a class defined in the file (`ref`: its Analyzer::classes_ entry)
  kInstance,  // an instance of such a class (`ref`: its Analyzer::instances_ entry); `text` "super:N" for super()
  kModule,    // a module of the program read from its file (`ref`: its Analyzer::modules_ entry)
};

class Library;  // analyzer.h

// What a library's value (VK::kLibrary) is to the interpreter; the library
// that makes it says (Analyzer::LibraryValue). Its `ref` is an index in the
// library's own table and its `text` the library's own tag, when it has one.
enum class Role : uint8_t {
  // An instance of one of the library's classes: its methods and attributes
  // (also assigned: Library::SetAttribute) are the library's; it is true; it
  // keeps its binding when the budget is spent; a list of them indexed at an
  // unknown position is one of them.
  kObject,
  // A value with methods and attributes whose strings the library builds
  // (Library::Join: an f-string or `+` with it in a whole-program run).
  kValue,
  // A value only its library reads (Library::Link): to the interpreter it is
  // unresolved, as an unknown value is, but one value.
  kToken,
};

// An evaluated expression: its value and where it is written.
struct Ev {
  VId v = kUnknown;
  TSNode at{};
};

struct Entry {
  std::string key;
  Ev value;
};

struct Alt {
  std::string cond;  // when the alternative holds, e.g. "`use_gpu` is true"
  Ev value;
};

struct Value {
  VK kind = VK::kUnknown;
  bool complete = true;  // dict / list / record: nothing unseen can add entries
  int32_t ref = -1;
  std::string text;    // scalar text (numbers in decimal, booleans true/false); dotted name; record class
  std::string origin;  // how a non-literal was resolved ("constant GPU")
  // kOpaque: a tag, the interpreter's ("globals:", "name:<shared name>") or a
  // library's own, which only that library reads (Library::Each, Item,
  // MethodValue, CallValue);
  // kStr: a script before base64.
  std::string aux;
  std::string link;  // kOpaque: the text with library links (Library::Link) spelled as kLinkMark key kLinkMark
  std::vector<Entry> entries;      // dict and record keywords, keys unique
  std::vector<Ev> items;           // list / tuple
  std::vector<Alt> alts;           // kOneOf
  const Library* owner = nullptr;  // kLibrary
  Role role = Role::kObject;       // kLibrary

  bool scalar() const { return kind == VK::kStr || kind == VK::kNum || kind == VK::kBool; }
};

// A scalar as Python prints it: booleans as True / False, anything else as its text.
inline std::string_view PyText(const Value& x) {
  if (x.kind == VK::kBool) return x.text == "true" ? "True" : "False";
  return x.text;
}

inline constexpr char kLinkMark = '\x01';

class Store {
 public:
  static constexpr size_t kMaxValues = 250'000;
  static constexpr size_t kMaxBytes = 16u << 20;
  static constexpr size_t kMaxString = 256u << 10;
  static constexpr size_t kMaxAlts = 16;
  static constexpr size_t kMaxItems = 4096;

  Store();
  const Value& operator[](VId id) const { return values_[static_cast<size_t>(id)]; }
  VK Kind(VId id) const { return id < 0 ? VK::kUnknown : values_[static_cast<size_t>(id)].kind; }

  // Scalars are interned: equal text and origin give the same id.
  VId Str(std::string_view text, std::string_view origin = {});
  VId Num(std::string_view text, std::string_view origin = {});
  VId Scalar(VK kind, std::string_view text, std::string_view origin) { return Intern(kind, text, origin); }
  // An imported module / class / function by dotted name (interned).
  VId Qual(std::string_view dotted) { return Intern(VK::kQual, dotted, {}); }
  VId Bool(bool b) { return b ? true_ : false_; }
  VId None() const { return none_; }
  // A scalar with `origin` set, unless it already says how it was resolved.
  VId WithOrigin(VId v, std::string_view origin);
  VId Opaque();
  VId New(Value v);
  // One of `alts`: nested alternatives are flattened (conditions joined with
  // "and"), equal ones merged; a single remaining value is returned as is.
  VId OneOf(std::vector<Alt> alts);

  bool exhausted() const { return exhausted_; }
  // Accounts for `bytes` of new text; false (and exhausted) past the budget.
  bool Spend(size_t bytes);
  // Once the budget is spent, a reserve (a quarter of it) for reading the
  // rest of the file with literal values only; past it every value is unknown.
  static constexpr size_t kReserveValues = kMaxValues / 4;
  static constexpr size_t kReserveBytes = kMaxBytes / 4;
  void GrantReserve();

 private:
  VId Intern(VK kind, std::string_view text, std::string_view origin);

  struct Key {
    VK kind;
    std::string_view origin;
    std::string_view text;
    bool operator==(const Key& o) const { return kind == o.kind && origin == o.origin && text == o.text; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      size_t h = std::hash<std::string_view>()(k.text);
      if (!k.origin.empty()) h ^= std::hash<std::string_view>()(k.origin) * 31;
      return h ^ static_cast<size_t>(k.kind);
    }
  };
  std::deque<Value> values_;
  // Keys view the interned value's own strings (deque elements never move).
  std::unordered_map<Key, VId, KeyHash> interned_;
  size_t bytes_ = 0;
  size_t max_values_ = kMaxValues;
  size_t max_bytes_ = kMaxBytes;
  bool exhausted_ = false;
  bool reserve_granted_ = false;
  VId none_ = 0, true_ = 0, false_ = 0;
};

// Python truthiness of a value, when known.
std::optional<bool> Truth(const Store& s, VId v);
// Python equality of two values, when known (scalars, None, containers of them).
std::optional<bool> Equal(const Store& s, VId a, VId b, int depth = 0);

}  // namespace sagelint::py

#endif  // SAGELINT_PARSERS_PYTHON_VALUE_H_
