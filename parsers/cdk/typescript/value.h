// Values of the TypeScript/JavaScript evaluator of CDK apps (docs/architecture.md "CDK apps").
#ifndef SAGELINT_PARSERS_CDK_TYPESCRIPT_VALUE_H_
#define SAGELINT_PARSERS_CDK_TYPESCRIPT_VALUE_H_

#include <tree_sitter/api.h>

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "linter/model/model.h"
#include "parsers/common/node.h"

namespace sagelint::cdk::typescript {

struct Scope;
struct Obj;
struct Class;
struct Function;

// The file index of a value that comes from outside the app's source files
// (a JSON configuration file, cdk.json's context): its uses are placed
// where the code names it.
inline constexpr int kOutsideFile = -2;

// The most members one object or array holds; past it, it is incomplete.
inline constexpr size_t kMaxFields = 10'000;

struct Value {
  enum class K {
    kUnknown,
    kUndefined,
    kNull,
    kStr,
    kNum,
    kBool,
    kObject,     // object literal, array, class instance, module exports (obj)
    kConstruct,  // a recorded CDK construct (index)
    kAttr,       // an attribute of a recorded construct (index, text = name)
    kJoin,       // a string of known text and construct attributes (items)
    kNode,       // a value the CDK renders (CallValue / MemberValue): node
    kCdk,        // a CDK module or a name in it: text = module, path = names
    kExternal,   // a name from a module that is not the CDK's: text = module, path = names
    kClass,      // a class of the app (cls)
    kFunction,   // a function of the app (fn)
    kMethod,     // `x.method` of a construct (index) or of the construct node (`x.node`, text = method)
    kNodeOf,     // `x.node`: index = construct, or obj = the instance / app
  };
  K k = K::kUnknown;
  std::string text;
  std::vector<std::string> path;
  std::shared_ptr<Obj> obj;
  std::shared_ptr<Class> cls;
  std::shared_ptr<Function> fn;
  std::vector<Value> items;  // kJoin parts
  std::shared_ptr<cfn::Node> node;
  int index = -1;
  bool via_node = false;  // kMethod reached through `.node`
  int file = kOutsideFile;
  SourcePos pos;
  // A string, number or boolean written as one literal token: the token's
  // end and byte range in `file` (lit_end == 0: none). A fix edits it only
  // where it lies inside the construct call (docs/cdk.md "Fixes").
  SourcePos lit_end_pos;
  uint32_t lit_begin = 0, lit_end = 0;

  bool known_scalar() const { return k == K::kStr || k == K::kNum || k == K::kBool; }
  bool nullish() const { return k == K::kUndefined || k == K::kNull; }
};

struct Obj {
  bool array = false;
  int file = kOutsideFile;                            // where it is written (its key positions)
  bool complete = true;                               // false: it may hold more than `fields` (an unknown spread)
  std::vector<std::pair<std::string, Value>> fields;  // in order; arrays: "0", "1", …
  std::vector<SourcePos> key_pos;
  std::unordered_map<std::string, size_t> index;  // key -> position in `fields`
  std::shared_ptr<Class> cls;                     // an instance of an app class
  int stack = -1;                                 // an instance: the stack it belongs to
  bool is_app = false;                            // `new App()`
  bool is_stack = false;

  const Value* Get(const std::string& k) const {
    auto it = index.find(k);
    return it == index.end() ? nullptr : &fields[it->second].second;
  }
  void Set(const std::string& k, Value v, SourcePos at = {}) {
    auto it = index.find(k);
    if (it != index.end()) {
      fields[it->second].second = std::move(v);
      return;
    }
    if (fields.size() >= kMaxFields) {  // `a = [...a, ...a]` …: the rest is not known
      complete = false;
      return;
    }
    index.emplace(k, fields.size());
    fields.emplace_back(k, std::move(v));
    key_pos.push_back(at);
  }
  // Takes key `k` out (an assignment undone).
  void Erase(const std::string& k) {
    auto it = index.find(k);
    if (it == index.end()) return;
    size_t at = it->second;
    fields.erase(fields.begin() + static_cast<std::ptrdiff_t>(at));
    key_pos.erase(key_pos.begin() + static_cast<std::ptrdiff_t>(at));
    index.erase(it);
    for (auto& [key, i] : index) {
      if (i > at) --i;
    }
  }
  // An array's next item.
  void Push(Value v, SourcePos at = {}) { Set(std::to_string(fields.size()), std::move(v), at); }
  void Clear() {
    fields.clear();
    key_pos.clear();
    index.clear();
  }
};

struct Scope {
  std::shared_ptr<Scope> parent;
  std::map<std::string, Value> vars;
  Value* Find(const std::string& name) {
    for (Scope* s = this; s; s = s->parent.get()) {
      auto it = s->vars.find(name);
      if (it != s->vars.end()) return &it->second;
    }
    return nullptr;
  }
};

struct Class {
  std::string name;
  TSNode body{};  // class_body
  int file = 0;
  std::shared_ptr<Scope> scope;
  Value base;  // what it extends (kUndefined when nothing)
};

struct Function {
  TSNode node{};  // function_declaration, function_expression, arrow_function, method_definition
  int file = 0;
  std::shared_ptr<Scope> scope;
  Value self;                   // `this` of an arrow function or a bound method
  std::shared_ptr<Class> home;  // a method: its class (for `super`)
};

}  // namespace sagelint::cdk::typescript

#endif  // SAGELINT_PARSERS_CDK_TYPESCRIPT_VALUE_H_
