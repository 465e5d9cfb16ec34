// Calls and attributes: what a call reaches (a program function or class, a
// Python builtin, a library model through `Library`), the methods of Python
// values (dicts, lists, alternatives; strings in strings.cc), and attribute
// access. The libraries answer for the values they made.
#include <algorithm>
#include <cstdlib>
#include <set>

#include "parsers/common/base64.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/python/analyzer.h"

namespace sagelint::py {

VId Analyzer::Call(TSNode call) {
  std::string target = std::move(target_);
  target_.clear();
  Tick();
  TSNode fn = g_.Field(call, g_.f_function);
  if (g_.Kind(fn) == N::kAttribute) {
    Path path;
    VId recv = EvalPath(g_.Field(fn, g_.f_object), &path);
    std::string method(T(g_.Field(fn, g_.f_attribute)));
    Args args = EvalArgs(call, false);
    pending_var_ = std::move(target);
    Path saved = std::move(receiver_path_);
    receiver_path_ = std::move(path);
    VId r = CallMethod(recv, method, call, args);
    receiver_path_ = std::move(saved);
    pending_var_.clear();
    return r;
  }
  if (eager_ && g_.Kind(fn) == N::kIdentifier && T(fn) == "super" && !self_stack_.empty() &&
      Lookup("super") == kUnbound) {
    // `super()` in a method of a program class: the instance, seen from past that class.
    EvalArgs(call, false);
    Value v;
    v.kind = VK::kInstance;
    v.ref = V(self_stack_.back().second).ref;
    v.text = "super:" + std::to_string(self_stack_.back().first);
    return v.ref < 0 ? kUnknown : store_.New(std::move(v));
  }
  if (eager_ && g_.Kind(fn) == N::kIdentifier && T(fn) == "range" && Lookup("range") == kUnbound) {
    // `range(n)` in a program run: its items when they are few and known (loops run per item).
    Args a = EvalArgs(call, false);
    std::vector<long> bounds;
    for (const Ev& e : a.positional) {
      const Value& x = V(e.v);
      if (x.kind != VK::kNum || x.text.empty() || x.text.size() > 9 ||
          x.text.find_first_not_of("-0123456789") != std::string::npos || x.text.find('-', 1) != std::string::npos) {
        return kUnknown;
      }
      bounds.push_back(std::stol(x.text));
    }
    if (bounds.empty() || bounds.size() > 3 || !a.keywords.empty()) return kUnknown;
    long from = bounds.size() == 1 ? 0 : bounds[0], to = bounds.size() == 1 ? bounds[0] : bounds[1];
    long step = bounds.size() == 3 ? bounds[2] : 1;
    if (step == 0) return kUnknown;
    Value l;
    l.kind = VK::kList;
    for (long i = from; step > 0 ? i < to : i > to; i += step) {
      if (l.items.size() >= 64) return kUnknown;
      l.items.push_back(Ev{store_.Num(std::to_string(i)), call});
    }
    return store_.New(std::move(l));
  }
  VId callee = Eval(fn);
  Args args = EvalArgs(call, false);
  pending_var_ = std::move(target);
  VId r = kUnknown;
  const Value& c = V(callee);
  if (c.kind == VK::kQual) {
    std::string q = c.text;
    r = CallQualified(q, call, args);
  } else if (eager_ && c.kind == VK::kFunction) {
    pending_var_.clear();
    r = Invoke(c.ref, kUnbound, args, call);
  } else if (eager_ && c.kind == VK::kClass) {
    pending_var_.clear();
    r = Instantiate(c.ref, args, call);
  } else if (c.kind == VK::kFunction) {
    VId out = kUnknown;
    bool taken = false;
    if (functions_[c.ref].remote >= 0) {
      for (Library* lib : libraries_) {
        if ((taken = lib->CallFunction(*this, c.ref, call, args, &out))) break;
      }
    }
    if (taken) {
      r = out;
    } else if (Inlinable(c.ref)) {
      r = Inline(c.ref, args, call);
    } else {
      RecordFunctionCall(c.ref, args, call);
    }
  } else if (c.kind == VK::kOpaque) {
    for (Library* lib : libraries_) {
      if (lib->CallValue(*this, callee, call, args, &r)) break;
    }
  } else if (c.kind == VK::kOneOf) {
    // `Cls = A if x else B; Cls(...)`: the first class alternative stands for the call.
    std::vector<Alt> alts = c.alts;
    for (const Alt& a : alts) {
      if (store_.Kind(a.value.v) == VK::kQual) {
        std::string q = store_[a.value.v].text;
        r = CallQualified(q, call, args);
        break;
      }
    }
  }
  pending_var_.clear();
  return r;
}

// Python's own functions (`dict(…)`, `str(x)`, `len(l)`, `globals()`, `copy.deepcopy`,
// `base64.b64encode`) on values the interpreter knows; kUnbound for any other name
// (the libraries are asked then).
VId Analyzer::PythonBuiltin(const std::string& q, Args& args) {
  if (q == "base64.b64encode" && !args.positional.empty()) {
    const Value& s = V(args.positional[0].v);
    if (s.kind != VK::kStr) return kUnknown;
    Value v;
    v.kind = VK::kStr;
    v.text = Base64Encode(s.text);
    v.aux = s.text.empty() ? " " : s.text;
    return store_.New(std::move(v));
  }
  if ((q == "copy.copy" || q == "copy.deepcopy") && !args.positional.empty()) {
    VId src = args.positional[0].v;
    VK kind = store_.Kind(src);
    if (kind == VK::kDict || kind == VK::kList) return store_.New(Value(V(src)));
    return src;
  }
  if (q.rfind("builtins.", 0) == 0 && q != "builtins.open") {
    std::string fn = q.substr(9);
    if (fn == "globals" && args.positional.empty() && args.keywords.empty()) {
      Value g;  // the module's names, read by `globals()["x"]` and `globals().get("x")`
      g.kind = VK::kOpaque;
      g.aux = "globals:";
      return store_.New(std::move(g));
    }
    if (fn == "dict") {
      Value d;
      d.kind = VK::kDict;
      d.complete = !args.unknown_spread;
      if (!args.positional.empty()) {
        const Value& src = V(args.positional[0].v);
        if (src.kind == VK::kDict) {
          d.entries = src.entries;
          d.complete = d.complete && src.complete;
        } else {
          d.complete = false;
        }
      }
      for (const auto& kw : args.keywords) {
        const std::string& k = kw.first;
        d.entries.erase(std::remove_if(d.entries.begin(), d.entries.end(), [&](const Entry& x) { return x.key == k; }),
                        d.entries.end());
        d.entries.push_back({k, kw.second});
      }
      return store_.New(std::move(d));
    }
    if (args.positional.size() != 1 || !args.keywords.empty()) return kUnknown;
    VId a = args.positional[0].v;
    const Value& x = V(a);
    if (fn == "str" && x.scalar()) {
      return store_.Str(std::string(PyText(x)));
    }
    if (fn == "int" && (x.kind == VK::kNum || x.kind == VK::kStr)) {
      char* end = nullptr;
      long long v = std::strtoll(x.text.c_str(), &end, 10);
      if (end && *end == '\0' && !x.text.empty()) return store_.Num(std::to_string(v));
      if (x.kind == VK::kNum) {
        double d = std::strtod(x.text.c_str(), nullptr);
        return store_.Num(std::to_string(static_cast<long long>(d)));
      }
      return kUnknown;
    }
    if (fn == "float" && (x.kind == VK::kNum || x.kind == VK::kStr)) {
      char* end = nullptr;
      std::strtod(x.text.c_str(), &end);
      if (end && *end == '\0' && !x.text.empty()) return store_.Num(x.text);
      return kUnknown;
    }
    if ((fn == "list" || fn == "tuple") && x.kind == VK::kList) return store_.New(Value(x));
    if (fn == "len" && (x.kind == VK::kList || x.kind == VK::kDict) && x.complete) {
      return store_.Num(std::to_string(x.kind == VK::kList ? x.items.size() : x.entries.size()));
    }
    return kUnknown;
  }
  return kUnbound;
}

VId Analyzer::CallQualified(const std::string& q, TSNode call, Args& args) {
  if (VId r = PythonBuiltin(q, args); r != kUnbound) return r;
  VId r = kUnknown;
  for (Library* lib : libraries_) {
    if (lib->Call(*this, q, call, args, &r)) return r;
  }
  return kUnknown;
}

VId Analyzer::CallMethod(VId recv, std::string_view method, TSNode call, Args& args) {
  const Value& r = V(recv);
  switch (r.kind) {
    case VK::kLibrary: {
      if (r.role == Role::kToken) break;  // unresolved, as an unknown receiver
      VId out = kUnknown;
      for (Library* lib : libraries_) {
        if (lib->Method(*this, recv, method, call, args, &out)) return out;
      }
      return kUnknown;
    }
    case VK::kInstance:
      return eager_ ? InstanceMethod(recv, method, call, args) : kUnknown;
    case VK::kModule:
    case VK::kClass: {
      if (!eager_) return kUnknown;
      VId callee = Attribute(recv, method, call);
      const Value& c = V(callee);
      if (c.kind == VK::kQual) {
        std::string q = c.text;
        return CallQualified(q, call, args);
      }
      if (c.kind == VK::kClass) return Instantiate(c.ref, args, call);
      if (c.kind != VK::kFunction) return kUnknown;
      // A module's function; a class's static method (`cls` bound to the class for a class method).
      const Function& f = functions_[c.ref];
      bool cls_param = r.kind == VK::kClass && !f.params.empty() && f.params[0].name == "cls";
      return Invoke(c.ref, cls_param ? recv : kUnbound, args, call);
    }
    case VK::kQual: {
      std::string q = r.text + "." + std::string(method);
      return CallQualified(q, call, args);
    }
    case VK::kOneOf: {
      VId out = kUnknown;
      for (Library* lib : libraries_) {
        if (lib->Alternatives(*this, recv, method, call, args, &out)) return out;
      }
      return kUnknown;
    }
    case VK::kOpaque:
      if (r.aux == "globals:") {
        if (method != "get" || args.positional.empty() || store_.Kind(args.positional[0].v) != VK::kStr) {
          return kUnknown;
        }
        VId v = GlobalValue(V(args.positional[0].v).text);
        if (v != kUnbound) return v;
        return args.positional.size() > 1 ? args.positional[1].v : store_.None();
      }
      break;
    case VK::kDict:
      return DictMethod(recv, method, call, args);
    case VK::kList:
      return ListMethod(recv, method, args);
    case VK::kStr:
      return StrMethod(recv, method, args);
    default:
      break;
  }
  // A receiver no model owns and the interpreter cannot resolve: the libraries' to answer.
  VId out = kUnknown;
  for (Library* lib : libraries_) {
    if (lib->Unresolved(*this, recv, method, call, args, &out)) return out;
  }
  return kUnknown;
}

// The methods of a dict: mutations update every alias (Update), reads give the value.
VId Analyzer::DictMethod(VId recv, std::string_view method, TSNode call, Args& args) {
  const Value& r = V(recv);
  if (method == "update") {
    VId other = args.positional.empty() ? kUnbound : args.positional[0].v;
    Update(recv, DictUpdate(recv, other, &args));
    return store_.None();
  }
  if (method == "setdefault" && !args.positional.empty()) {
    const Value& k = V(args.positional[0].v);
    if (!k.scalar()) {
      Update(recv, Incomplete(recv));
      return kUnknown;
    }
    for (const Entry& e : r.entries) {
      if (e.key == k.text) return e.value.v;
    }
    Ev value = args.positional.size() > 1 ? args.positional[1] : Ev{store_.None(), call};
    std::string key = k.text;
    Update(recv, DictSet(recv, key, value));
    return value.v;
  }
  if (method == "pop" && !args.positional.empty()) {
    const Value& k = V(args.positional[0].v);
    if (!k.scalar()) {
      Update(recv, Incomplete(recv));
      return kUnknown;
    }
    VId found = kUnknown;
    for (const Entry& e : r.entries) {
      if (e.key == k.text) found = e.value.v;
    }
    std::string key = k.text;
    Update(recv, DictDel(recv, key));
    return found;
  }
  if (method == "clear") {
    Value d;
    d.kind = VK::kDict;
    Update(recv, store_.New(std::move(d)));
    return store_.None();
  }
  if (method == "popitem") {
    Update(recv, Incomplete(recv));
    return kUnknown;
  }
  if (method == "copy") return store_.New(Value(r));
  if (method == "get" && !args.positional.empty()) {
    const Value& k = V(args.positional[0].v);
    if (!k.scalar()) return kUnknown;
    for (const Entry& e : r.entries) {
      if (e.key == k.text) return e.value.v;
    }
    if (!r.complete) return kUnknown;
    return args.positional.size() > 1 ? args.positional[1].v : store_.None();
  }
  return kUnknown;
}

// The methods of a list.
VId Analyzer::ListMethod(VId recv, std::string_view method, Args& args) {
  const Value& r = V(recv);
  if (method == "append" && args.positional.size() == 1) {
    if (r.items.size() >= Store::kMaxItems) {
      Update(recv, Incomplete(recv));
      return store_.None();
    }
    Value l = r;
    l.items.push_back(args.positional[0]);
    Update(recv, store_.New(std::move(l)));
    return store_.None();
  }
  if (method == "extend" && args.positional.size() == 1) {
    VId joined = Concat(recv, args.positional[0].v);
    Update(recv, joined == kUnknown ? Incomplete(recv) : joined);
    return store_.None();
  }
  if (method == "copy") return store_.New(Value(r));
  if (method == "insert" || method == "pop" || method == "remove" || method == "clear" || method == "sort" ||
      method == "reverse") {
    Update(recv, Incomplete(recv));
  }
  return kUnknown;
}

std::string Analyzer::ResolveStarImport(std::string_view name) const {
  if (name.empty() || name[0] < 'A' || name[0] > 'Z') return {};
  for (const Scope* s = scope_; s; s = s->parent) {
    for (const std::string& m : s->star_modules) {
      for (Library* lib : libraries_) {
        if (std::string q = lib->StarName(m, name); !q.empty()) return q;
      }
    }
  }
  return {};
}

VId Analyzer::Attribute(VId object, std::string_view name, TSNode node) {
  (void)node;
  const Value& x = V(object);
  switch (x.kind) {
    case VK::kQual: {
      std::string q = x.text + "." + std::string(name);
      return store_.Qual(q);
    }
    case VK::kOpaque:  // one a library made may have attributes of its own
    case VK::kLibrary: {
      if (x.kind == VK::kLibrary && x.role == Role::kToken) return kUnknown;
      VId out = kUnknown;
      for (Library* lib : libraries_) {
        if (lib->Attribute(*this, object, name, node, &out)) return out;
      }
      return kUnknown;
    }
    case VK::kInstance:
      return eager_ ? InstanceAttribute(object, name, node) : kUnknown;
    case VK::kClass:
      return eager_ ? ClassAttribute(x.ref, name) : kUnknown;
    case VK::kModule:
      return eager_ ? ModuleAttribute(x.ref, name) : kUnknown;
    case VK::kRecord: {
      for (const Entry& e : x.entries) {
        if (e.key == name) return e.value.v;
      }
      return kUnknown;
    }
    case VK::kOneOf: {
      std::vector<Alt> alts = x.alts;
      for (Alt& a : alts) a.value = Ev{Attribute(a.value.v, name, node), {}};
      return store_.OneOf(std::move(alts));
    }
    default:
      return kUnknown;
  }
}

}  // namespace sagelint::py
