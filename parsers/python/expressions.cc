// Expressions: call arguments, names, attributes, subscripts, literals,
// operators, comparisons and comprehensions, and the containers they build
// (dict and list updates, subscripts of known values).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <set>

#include "parsers/common/escapes.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/python/analyzer.h"

namespace sagelint::py {
namespace {

std::string FormatDouble(double d) {
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", d);
    return buf;  // Python prints a float with a fractional part: 2.0
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", d);
  return buf;
}

}  // namespace

bool IsInteger(const std::string& s) {
  if (s.empty()) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

Args Analyzer::EvalArgs(TSNode list, bool is_list) {
  Args a;
  if (!is_list) {
    a.call = list;
    list = g_.Field(list, g_.f_arguments);
  }
  if (ts_node_is_null(list)) return a;
  if (g_.Kind(list) == N::kGeneratorExpression) {
    a.positional.push_back(EvalEv(list));
    return a;
  }
  for (TSNode c : Kids(list)) {
    switch (g_.Kind(c)) {
      case N::kKeywordArgument: {
        std::string name(T(g_.Field(c, g_.f_name)));
        Ev e = EvalEv(g_.Field(c, g_.f_value));
        a.keywords.erase(
            std::remove_if(a.keywords.begin(), a.keywords.end(), [&](const auto& kv) { return kv.first == name; }),
            a.keywords.end());
        a.keywords.emplace_back(std::move(name), e);
        break;
      }
      case N::kDictionarySplat: {
        VId d = Eval(ts_node_named_child(c, 0));
        SpreadInto(d, a);
        break;
      }
      case N::kListSplat: {
        VId l = Eval(ts_node_named_child(c, 0));
        const Value& x = V(l);
        if (x.kind == VK::kList && x.complete) {
          for (const Ev& item : x.items) a.positional.push_back(item);
        } else {
          a.unknown_spread = true;
        }
        break;
      }
      case N::kComment:
        break;
      default:
        a.positional.push_back(EvalEv(c));
        break;
    }
  }
  return a;
}

// `**d` in a call: a known dict supplies its keywords; a conditional one
// supplies each key as a conditional value (absent where a branch lacks it).
void Analyzer::SpreadInto(VId d, Args& a) {
  const Value& x = V(d);
  auto put = [&](const std::string& key, Ev e) {
    a.keywords.erase(
        std::remove_if(a.keywords.begin(), a.keywords.end(), [&](const auto& kv) { return kv.first == key; }),
        a.keywords.end());
    a.keywords.emplace_back(key, e);
  };
  if (x.kind == VK::kDict) {
    std::vector<Entry> entries = x.entries;
    bool complete = x.complete;
    for (const Entry& e : entries) put(e.key, e.value);
    if (!complete) a.unknown_spread = true;
    return;
  }
  if (x.kind == VK::kOneOf) {
    std::vector<Alt> alts = x.alts;
    std::vector<std::string> keys;
    for (const Alt& alt : alts) {
      const Value& y = V(alt.value.v);
      if (y.kind != VK::kDict) {
        a.unknown_spread = true;
        return;
      }
      if (!y.complete) a.unknown_spread = true;
      for (const Entry& e : y.entries) {
        if (std::find(keys.begin(), keys.end(), e.key) == keys.end()) keys.push_back(e.key);
      }
    }
    for (const std::string& key : keys) {
      std::vector<Alt> per_key;
      TSNode at{};
      for (const Alt& alt : alts) {
        const Value& y = V(alt.value.v);
        Ev found{store_.None(), TSNode{}};
        for (const Entry& e : y.entries) {
          if (e.key == key) {
            found = e.value;
            if (ts_node_is_null(at)) at = e.value.at;
          }
        }
        per_key.push_back({alt.cond, found});
      }
      put(key, Ev{store_.OneOf(std::move(per_key)), at});
    }
    return;
  }
  a.unknown_spread = true;
}

// While a helper runs at a call, a value an expression computes from a value
// of the call's arguments (or under a branch such a value chose) is one of
// them too: what the workloads it makes read of the call (docs/python.md
// "Helpers").
VId Analyzer::Eval(TSNode n) {
  if (run_ < 0) return EvalNode(n);
  bool outer = arg_read_;
  arg_read_ = false;
  VId r = EvalNode(n);
  auto& from_args = run_args_[static_cast<size_t>(run_)];
  // Unknown, but computed from an argument (`config["type"]` of an unknown
  // `config`): one run-time value, which the workload may read.
  if (r == kUnknown && (arg_read_ || arg_control_ > 0)) r = store_.Opaque();
  if (r != kUnknown && r >= 0 && from_args.count(r)) {
    arg_read_ = true;
  } else if ((arg_read_ || arg_control_ > 0) && r != kUnknown && r >= 0 && r != store_.None() &&
             r != store_.Bool(true) && r != store_.Bool(false)) {
    from_args.insert(r);
    arg_read_ = true;
  }
  arg_read_ = arg_read_ || outer;
  return r;
}

// A condition or a loop's iterable: when it reads a value of a helper call's
// arguments, what the branch or body assigns and creates reads it too (until
// the statement ends: `*controlled` counts the levels to release).
VId Analyzer::EvalChoosing(TSNode n, int* controlled) {
  bool outer = arg_read_;
  arg_read_ = false;
  VId v = Eval(n);
  if (arg_read_ && run_ >= 0) {
    ++arg_control_;
    ++*controlled;
  }
  arg_read_ = arg_read_ || outer;
  return v;
}

// The values `v` holds (items, entries, alternatives), each counted as an argument of the current run.
void Analyzer::SeedArgument(VId v, int depth) {
  auto& from_args = run_args_[static_cast<size_t>(run_)];
  if (v == kUnknown || v < 0 || depth > 6 || from_args.size() > 4096 || v == store_.None() || v == store_.Bool(true) ||
      v == store_.Bool(false) || !from_args.insert(v).second) {
    return;
  }
  const Value& x = V(v);
  for (const Ev& e : x.items) SeedArgument(e.v, depth + 1);
  for (const Entry& e : x.entries) SeedArgument(e.value.v, depth + 1);
  for (const Alt& a : x.alts) SeedArgument(a.value.v, depth + 1);
}

VId Analyzer::EvalNode(TSNode n) {
  if (ts_node_is_null(n)) return kUnknown;
  if ((!literal_ && (++steps_ > kMaxSteps || store_.exhausted())) || depth_ > kMaxEvalDepth) return kUnknown;
  ++depth_;
  struct Leave {
    int& d;
    ~Leave() { --d; }
  } leave{depth_};
  switch (g_.Kind(n)) {
    case N::kIdentifier:
      return EvalName(n);
    case N::kString:
      return StringValue(n);
    case N::kConcatenatedString: {
      VId acc = kUnbound;
      for (TSNode kid : Kids(n)) {
        VId part = StringValue(kid);
        acc = acc == kUnbound ? part : Concat(acc, part);
      }
      return acc == kUnbound ? kUnknown : acc;
    }
    case N::kInteger:
    case N::kFloat:
      return NumberValue(n);
    case N::kTrue:
      return store_.Bool(true);
    case N::kFalse:
      return store_.Bool(false);
    case N::kNone:
      return store_.None();
    case N::kParenthesizedExpression: {
      VId v = kUnknown;
      for (TSNode c : Kids(n)) {
        if (g_.Kind(c) != N::kComment) v = Eval(c);
      }
      return v;
    }
    case N::kAttribute:
      return EvalAttribute(n);
    case N::kSubscript:
      return EvalSubscript(n);
    case N::kCall:
      return Call(n);
    case N::kDictionary:
      return EvalDict(n);
    case N::kList:
    case N::kTuple:
    case N::kSet:
    case N::kExpressionList:
      return EvalList(n);
    case N::kBinaryOperator:
      return Binary(n);
    case N::kUnaryOperator: {
      VId v = Eval(g_.Field(n, g_.f_argument));
      std::string_view op = T(g_.Field(n, g_.f_operator));
      const Value& x = V(v);
      if (x.kind == VK::kNum && op == "-") {
        std::string text = x.text[0] == '-' ? x.text.substr(1) : "-" + x.text;
        return store_.Num(text);
      }
      if (x.kind == VK::kNum && op == "+") return v;
      return kUnknown;
    }
    case N::kNotOperator: {
      auto t = Truth(store_, Eval(g_.Field(n, g_.f_argument)));
      return t ? store_.Bool(!*t) : kUnknown;
    }
    case N::kBooleanOperator:
      return EvalBoolean(n);
    case N::kComparisonOperator:
      return Compare(n);
    case N::kConditionalExpression:
      return EvalConditional(n);
    case N::kNamedExpression: {
      VId v = Eval(g_.Field(n, g_.f_value));
      Assign(g_.Field(n, g_.f_name), v, n);
      return v;
    }
    case N::kLambda:
      return EvalLambda(n);
    case N::kListComprehension:
    case N::kSetComprehension:
    case N::kGeneratorExpression:
    case N::kDictionaryComprehension:
      return Comprehension(n);
    case N::kAwait:
      return Eval(ts_node_named_child(n, 0));
    case N::kComment:
      return kUnknown;
    default: {
      // Anything else: evaluate its parts for the calls they make.
      for (TSNode kid : Kids(n)) Eval(kid);
      return kUnknown;
    }
  }
}

// A name: its binding, a star import's library name, a builtin, or (after a bare
// `%store -r`) the stored value.
VId Analyzer::EvalName(TSNode n) {
  std::string_view name = T(n);
  VId v = Lookup(name);
  if (v != kUnbound) return v;
  std::string star = ResolveStarImport(name);
  if (!star.empty()) return store_.Qual(star);
  static const std::set<std::string_view> kBuiltins = {"dict", "str", "int", "float", "bool", "list",   "tuple",
                                                       "len",  "min", "max", "print", "open", "globals"};
  // After a bare `%store -r`, a name nothing binds is read back from the store (a builtin is itself).
  if (restore_all_ && !kBuiltins.count(name)) return SharedValue("%store:" + workflow_ + ":" + std::string(name));
  if (kBuiltins.count(name)) return store_.Qual("builtins." + std::string(name));
  return kUnknown;
}

// `object.name`.
VId Analyzer::EvalAttribute(TSNode n) {
  VId obj = Eval(g_.Field(n, g_.f_object));
  std::string_view attr = T(g_.Field(n, g_.f_attribute));
  if (store_.Kind(obj) == VK::kLibrary && V(obj).role != Role::kToken) {
    VId out = kUnknown;
    for (Library* lib : libraries_) {
      if (lib->Uncalled(*this, obj, attr, n, &out)) return out;
    }
  }
  return Attribute(obj, attr, n);
}

// `container[key]`.
VId Analyzer::EvalSubscript(TSNode n) {
  VId container = Eval(g_.Field(n, g_.f_value));
  TSNode key = g_.Field(n, g_.f_subscript);
  VId k = Eval(key);
  if (g_.Kind(key) == N::kSlice) return kUnknown;
  VId r = Subscript(container, k);
  // A library object chosen from a known list by a position known only at run time
  // (`builders[best]`): one of them, each under its condition, as a loop variable is.
  const Value& c = V(container);
  if (r == kUnknown && c.kind == VK::kList && c.complete && !c.items.empty() && c.items.size() <= Store::kMaxAlts &&
      !store_[k].scalar() && std::all_of(c.items.begin(), c.items.end(), [&](const Ev& e) {
        return store_.Kind(e.v) == VK::kLibrary && V(e.v).role == Role::kObject;
      })) {
    std::vector<Ev> items = c.items;
    std::string shown = "`" + Shorten(T(n), 40) + "`";
    std::vector<VId> vals;
    std::vector<std::string> conds;
    std::vector<TSNode> at;
    for (size_t i = 0; i < items.size(); ++i) {
      vals.push_back(items[i].v);
      conds.push_back(shown + " is item " + std::to_string(i));
      at.push_back(items[i].at);
    }
    return MergeValues(vals, conds, at);
  }
  return r;
}

// A dict display: its keys and values, `**` spreads merged in.
VId Analyzer::EvalDict(TSNode n) {
  Value d;
  d.kind = VK::kDict;
  auto put = [&](std::string key, Ev e) {
    for (Entry& x : d.entries) {
      if (x.key == key) {
        x.value = e;
        return;
      }
    }
    if (d.entries.size() < Store::kMaxItems)
      d.entries.push_back({std::move(key), e});
    else
      d.complete = false;
  };
  for (TSNode c : Kids(n)) {
    N k = g_.Kind(c);
    if (k == N::kPair) {
      VId key = Eval(g_.Field(c, g_.f_key));
      Ev value = EvalEv(g_.Field(c, g_.f_value));
      const Value& kv = V(key);
      if (kv.scalar())
        put(kv.text, value);
      else
        d.complete = false;
    } else if (k == N::kDictionarySplat) {
      VId inner = Eval(ts_node_named_child(c, 0));
      const Value& x = V(inner);
      if (x.kind == VK::kDict) {
        std::vector<Entry> entries = x.entries;
        if (!x.complete) d.complete = false;
        for (Entry& e : entries) put(std::move(e.key), e.value);
      } else {
        d.complete = false;
      }
    } else if (k != N::kComment) {
      Eval(c);
      d.complete = false;
    }
  }
  return store_.New(std::move(d));
}

// A list, tuple or set display: its items, `*` spreads merged in.
VId Analyzer::EvalList(TSNode n) {
  Value l;
  l.kind = VK::kList;
  for (TSNode c : Kids(n)) {
    N k = g_.Kind(c);
    if (k == N::kComment) continue;
    if (k == N::kListSplat) {
      VId inner = Eval(ts_node_named_child(c, 0));
      const Value& x = V(inner);
      if (x.kind == VK::kList && x.complete && l.items.size() + x.items.size() <= Store::kMaxItems) {
        std::vector<Ev> items = x.items;
        l.items.insert(l.items.end(), items.begin(), items.end());
      } else {
        l.complete = false;
      }
      continue;
    }
    Ev e = EvalEv(c);
    if (l.items.size() < Store::kMaxItems)
      l.items.push_back(e);
    else
      l.complete = false;
  }
  return store_.New(std::move(l));
}

// `a and b`, `a or b`.
VId Analyzer::EvalBoolean(TSNode n) {
  VId a = Eval(g_.Field(n, g_.f_left));
  std::string_view op = T(g_.Field(n, g_.f_operator));
  auto t = Truth(store_, a);
  // Python short-circuits: the right side runs only when it decides.
  if (t && ((op == "and" && !*t) || (op == "or" && *t))) return a;
  VId b = Eval(g_.Field(n, g_.f_right));
  if (t) return b;
  // Truth unknown: the left value when it decides, else the right one (alternatives).
  std::string text = CondText(g_.Field(n, g_.f_left));
  bool is_or = op == "or";
  return MergeValues({a, b}, {text + (is_or ? " is true" : " is false"), text + (is_or ? " is false" : " is true")},
                     {g_.Field(n, g_.f_left), g_.Field(n, g_.f_right)});
}

// `a if cond else b`.
VId Analyzer::EvalConditional(TSNode n) {
  TSNode a = ts_node_named_child(n, 0);
  TSNode cond = ts_node_named_child(n, 1);
  TSNode b = ts_node_named_child(n, 2);
  auto t = Truth(store_, Eval(cond));
  if (t) return Eval(*t ? a : b);
  std::string saved = target_;
  VId va = Eval(a);
  target_ = saved;
  VId vb = Eval(b);
  std::string text = CondText(cond);
  return MergeValues({va, vb}, {text + " is true", text + " is false"}, {a, b});
}

// A lambda: its body runs later, with unknown arguments. A body that calls a
// method a library wants read where the lambda is made (Library::ReadNow) is
// read now for that call; nothing else is.
VId Analyzer::EvalLambda(TSNode n) {
  TSNode body = g_.Field(n, g_.f_body);
  if (g_.Kind(body) != N::kCall || g_.Kind(g_.Field(body, g_.f_function)) != N::kAttribute) return kUnknown;
  std::string_view method = T(g_.Field(g_.Field(body, g_.f_function), g_.f_attribute));
  if (std::none_of(libraries_.begin(), libraries_.end(), [&](Library* lib) { return lib->ReadNow(method); })) {
    return kUnknown;
  }
  Scope* saved = EnterScope(Scope::kFunction, scope_);
  TSNode params = g_.Field(n, g_.f_parameters);
  for (TSNode p : Kids(params)) {
    if (g_.Kind(p) == N::kIdentifier) Bind(T(p), kUnknown);
  }
  Eval(body);
  scope_ = saved;
  return kUnknown;
}

VId Analyzer::Comprehension(TSNode n) {
  // The loop variables are bound in a scope of their own; the body runs once.
  scopes_.emplace_back();
  Scope* inner = &scopes_.back();
  inner->kind = Scope::kFunction;
  inner->parent = scope_;
  Scope* saved = scope_;
  for (TSNode c : Kids(n)) {
    if (g_.Kind(c) == N::kForInClause) {
      VId iter = Eval(g_.Field(c, g_.f_right));
      const Value& it = V(iter);
      VId element = kUnknown;
      if (it.kind == VK::kOpaque && EachOf(iter, &element)) {
        // an opaque value a library iterates (Library::Each)
      } else if (it.kind == VK::kList && it.complete && !it.items.empty() && it.items.size() <= Store::kMaxAlts) {
        std::vector<Alt> alts;
        for (const Ev& item : it.items) alts.push_back({std::string("an item of the comprehension"), item});
        element = store_.OneOf(std::move(alts));
      }
      scope_ = inner;
      Assign(g_.Field(c, g_.f_left), element, c);
    } else if (g_.Kind(c) == N::kIfClause) {
      scope_ = inner;
      Eval(ts_node_named_child(c, 0));
    }
  }
  scope_ = inner;
  TSNode body = g_.Field(n, g_.f_body);
  if (g_.Kind(body) == N::kPair) {
    Eval(g_.Field(body, g_.f_key));
    Eval(g_.Field(body, g_.f_value));
  } else {
    Eval(body);
  }
  scope_ = saved;
  return kUnknown;
}

VId Analyzer::NumberValue(TSNode n) {
  std::string text;
  for (char c : T(n)) {
    if (c != '_') text += c;
  }
  if (text.empty()) return kUnknown;
  char last = text.back();
  if (last == 'j' || last == 'J') return kUnknown;
  if (last == 'l' || last == 'L') text.pop_back();
  if (g_.Kind(n) == N::kInteger && text.size() > 2 && text[0] == '0' &&
      (text[1] == 'x' || text[1] == 'X' || text[1] == 'o' || text[1] == 'O' || text[1] == 'b' || text[1] == 'B')) {
    int base = (text[1] == 'x' || text[1] == 'X') ? 16 : (text[1] == 'o' || text[1] == 'O') ? 8 : 2;
    long long v = 0;
    auto [p, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), v, base);
    if (ec != std::errc() || p != text.data() + text.size()) return kUnknown;
    text = std::to_string(v);
  }
  return store_.Num(text);
}

VId Analyzer::Arith(std::string_view op, VId a, VId b) {
  const Value& x = V(a);
  const Value& y = V(b);
  if (x.kind != VK::kNum || y.kind != VK::kNum) return kUnknown;
  if (IsInteger(x.text) && IsInteger(y.text) && op != "/") {
    long long p = 0, q = 0;
    std::from_chars(x.text.data(), x.text.data() + x.text.size(), p);
    std::from_chars(y.text.data(), y.text.data() + y.text.size(), q);
    long long r = 0;
    bool ok = true;
    if (op == "+")
      ok = !__builtin_add_overflow(p, q, &r);
    else if (op == "-")
      ok = !__builtin_sub_overflow(p, q, &r);
    else if (op == "*")
      ok = !__builtin_mul_overflow(p, q, &r);
    else if (op == "//" && q != 0)
      r = p / q - ((p % q != 0) && ((p < 0) != (q < 0)) ? 1 : 0);
    else if (op == "%" && q != 0)
      r = ((p % q) + q) % q;
    else if (op == "**" && q >= 0 && q < 64) {
      r = 1;
      for (long long i = 0; i < q && ok; ++i) ok = !__builtin_mul_overflow(r, p, &r);
    } else
      ok = false;
    return ok ? store_.Num(std::to_string(r)) : kUnknown;
  }
  double p = std::strtod(x.text.c_str(), nullptr), q = std::strtod(y.text.c_str(), nullptr), r = 0;
  if (op == "+")
    r = p + q;
  else if (op == "-")
    r = p - q;
  else if (op == "*")
    r = p * q;
  else if (op == "/" && q != 0)
    r = p / q;
  else if (op == "//" && q != 0)
    r = std::floor(p / q);
  else if (op == "**")
    r = std::pow(p, q);
  else
    return kUnknown;
  if (!std::isfinite(r)) return kUnknown;
  return store_.Num(FormatDouble(r));
}

VId Analyzer::Binary(TSNode n) {
  VId a = Eval(g_.Field(n, g_.f_left));
  VId b = Eval(g_.Field(n, g_.f_right));
  std::string_view op = T(g_.Field(n, g_.f_operator));
  if (op == "+") return Concat(a, b);
  if (op == "%" && store_.Kind(a) == VK::kStr) return Percent(a, b);
  if (op == "|" && store_.Kind(a) == VK::kDict && store_.Kind(b) == VK::kDict) {
    VId copy = DictUpdate(a, b, nullptr);
    return copy;
  }
  if (store_.Kind(a) == VK::kOneOf || store_.Kind(b) == VK::kOneOf) return kUnknown;
  return Arith(op, a, b);
}

VId Analyzer::Subscript(VId container, VId key) {
  const Value& c = V(container);
  const Value& k = V(key);
  if (c.kind == VK::kOpaque && c.aux == "globals:") {
    VId v = k.kind == VK::kStr ? GlobalValue(k.text) : kUnbound;
    return v == kUnbound ? kUnknown : v;
  }
  if (c.kind == VK::kOpaque && !c.aux.empty()) {
    VId item = kUnknown;
    for (Library* lib : libraries_) {
      if (lib->Item(*this, container, key, &item)) return item;
    }
    // A file's content read by keys: a name shared through that file.
    if (c.aux.starts_with("name:file:") && k.kind == VK::kStr) {
      std::string shared = c.aux.substr(5) + (c.aux.find('#') == std::string::npos ? "#" : "/") + k.text;
      return SharedValue(shared);
    }
    return kUnknown;
  }
  if (c.kind == VK::kDict && k.scalar()) {
    for (const Entry& e : c.entries) {
      if (e.key == k.text) return e.value.v;
    }
    return kUnknown;
  }
  if (c.kind == VK::kList && c.complete && k.kind == VK::kNum && IsInteger(k.text)) {
    long long i = std::strtoll(k.text.c_str(), nullptr, 10);
    long long size = static_cast<long long>(c.items.size());
    if (i < 0) i += size;
    if (i < 0 || i >= size) return kUnknown;
    return c.items[static_cast<size_t>(i)].v;
  }
  if (c.kind == VK::kOneOf) {
    std::vector<Alt> alts = c.alts;
    for (Alt& a : alts) a.value = Ev{Subscript(a.value.v, key), {}};
    return store_.OneOf(std::move(alts));
  }
  return kUnknown;
}

VId Analyzer::DictSet(VId dict, const std::string& key, Ev value) {
  Value d = V(dict);
  for (Entry& e : d.entries) {
    if (e.key == key) {
      e.value = value;
      return store_.New(std::move(d));
    }
  }
  if (d.entries.size() >= Store::kMaxItems) return kUnknown;
  d.entries.push_back({key, value});
  return store_.New(std::move(d));
}

VId Analyzer::DictDel(VId dict, const std::string& key) {
  Value d = V(dict);
  d.entries.erase(std::remove_if(d.entries.begin(), d.entries.end(), [&](const Entry& e) { return e.key == key; }),
                  d.entries.end());
  return store_.New(std::move(d));
}

// d.update(other, **kw) / d | other.
VId Analyzer::DictUpdate(VId dict, VId other, const Args* kw) {
  Value d = V(dict);
  auto put = [&](const std::string& key, Ev e) {
    for (Entry& x : d.entries) {
      if (x.key == key) {
        x.value = e;
        return;
      }
    }
    if (d.entries.size() < Store::kMaxItems)
      d.entries.push_back({key, e});
    else
      d.complete = false;
  };
  if (other != kUnbound) {
    const Value& o = V(other);
    if (o.kind == VK::kDict) {
      std::vector<Entry> entries = o.entries;
      if (!o.complete) d.complete = false;
      for (const Entry& e : entries) put(e.key, e.value);
    } else {
      d.complete = false;  // keys we cannot see
    }
  }
  if (kw) {
    if (kw->unknown_spread) d.complete = false;
    for (const auto& [k, e] : kw->keywords) put(k, e);
  }
  return store_.New(std::move(d));
}

VId Analyzer::Incomplete(VId container) {
  const Value& c = V(container);
  if (c.kind != VK::kDict && c.kind != VK::kList && c.kind != VK::kRecord) return kUnknown;
  if (!c.complete) return container;
  Value d = c;
  d.complete = false;
  return store_.New(std::move(d));
}

VId Analyzer::Compare(TSNode n) {
  std::vector<VId> operands;
  std::vector<std::string> ops;
  uint32_t count = ts_node_child_count(n);
  std::string pending;
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    if (ts_node_is_named(c)) {
      if (g_.Kind(c) == N::kComment) continue;
      if (!operands.empty()) ops.push_back(pending);
      pending.clear();
      operands.push_back(Eval(c));
    } else {
      if (!pending.empty()) pending += ' ';
      pending += std::string(T(c));
    }
  }
  if (operands.size() < 2 || ops.size() != operands.size() - 1) return kUnknown;
  bool all = true;
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string& op = ops[i];
    VId a = operands[i], b = operands[i + 1];
    std::optional<bool> r;
    if (op == "==" || op == "is")
      r = Equal(store_, a, b);
    else if (op == "!=" || op == "is not" || op == "<>") {
      r = Equal(store_, a, b);
      if (r) r = !*r;
    } else if (op == "in" || op == "not in") {
      const Value& x = V(a);
      const Value& y = V(b);
      if (x.scalar() && y.kind == VK::kStr && x.kind == VK::kStr)
        r = y.text.find(x.text) != std::string::npos;
      else if (x.scalar() && y.kind == VK::kList) {
        bool found = false, unknown = !y.complete;
        for (const Ev& item : y.items) {
          auto e = Equal(store_, a, item.v);
          if (!e)
            unknown = true;
          else if (*e)
            found = true;
        }
        if (found)
          r = true;
        else if (!unknown)
          r = false;
      } else if (x.scalar() && y.kind == VK::kDict) {
        bool found = false;
        for (const Entry& e : y.entries) found = found || e.key == x.text;
        if (found)
          r = true;
        else if (y.complete)
          r = false;
      }
      if (r && op == "not in") r = !*r;
    } else if (op == "<" || op == ">" || op == "<=" || op == ">=") {
      const Value& x = V(a);
      const Value& y = V(b);
      if (x.kind == VK::kNum && y.kind == VK::kNum) {
        double p = std::strtod(x.text.c_str(), nullptr), q = std::strtod(y.text.c_str(), nullptr);
        r = op == "<" ? p < q : op == ">" ? p > q : op == "<=" ? p <= q : p >= q;
      }
    }
    if (!r) return kUnknown;
    all = all && *r;
  }
  return store_.Bool(all);
}

bool Analyzer::EachOf(VId iterable, VId* element) {
  return std::any_of(libraries_.begin(), libraries_.end(),
                     [&](Library* lib) { return lib->Each(*this, iterable, element); });
}

}  // namespace sagelint::py
