// Values of the TypeScript/JavaScript evaluator of CDK apps (SPEC §12).
#ifndef SAGELINT_PARSERS_CDK_TYPESCRIPT_VALUE_H_
#define SAGELINT_PARSERS_CDK_TYPESCRIPT_VALUE_H_

#include <tree_sitter/api.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "linter/model/model.h"
#include "parsers/cloudformation/node.h"

namespace sagelint::cdk::typescript {

struct Scope;
struct Obj;
struct Class;
struct Function;

// The file index of a value that comes from outside the app's source files
// (a JSON configuration file, cdk.json's context): its uses are placed
// where the code names it.
inline constexpr int kOutsideFile = -2;

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

  bool known_scalar() const { return k == K::kStr || k == K::kNum || k == K::kBool; }
  bool nullish() const { return k == K::kUndefined || k == K::kNull; }
};

struct Obj {
  bool array = false;
  int file = kOutsideFile;                            // where it is written (its key positions)
  bool complete = true;                               // false: it may hold more than `fields` (an unknown spread)
  std::vector<std::pair<std::string, Value>> fields;  // in order; arrays: "0", "1", …
  std::vector<SourcePos> key_pos;
  std::shared_ptr<Class> cls;  // an instance of an app class
  int stack = -1;              // an instance: the stack it belongs to
  bool is_app = false;         // `new App()`
  bool is_stack = false;

  const Value* Get(const std::string& k) const {
    for (const auto& f : fields)
      if (f.first == k) return &f.second;
    return nullptr;
  }
  void Set(const std::string& k, Value v, SourcePos at = {}) {
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].first == k) {
        fields[i].second = std::move(v);
        return;
      }
    }
    fields.emplace_back(k, std::move(v));
    key_pos.push_back(at);
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
