#include "parsers/terraform/functions.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>

#include "parsers/common/base64.h"

namespace sagelint::tf {
namespace {

using K = TfVal::Kind;

bool IsNumber(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return false;
  *out = d;
  return true;
}

std::optional<double> Num(const TfVal& v) {
  double d;
  if ((v.kind == K::kNum || v.kind == K::kStr) && IsNumber(v.text, &d)) return d;
  return std::nullopt;
}

// Terraform counts characters, not bytes.
size_t Utf8Length(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

TfVal List(std::vector<TfVal> items, SourceRange at) {
  TfVal v;
  v.kind = K::kList;
  v.items = std::move(items);
  v.range = at;
  return v;
}

// The text a string function reads: strings, numbers and booleans convert.
const std::string* Text(const TfVal* v) { return v && v->known() ? &v->text : nullptr; }

// format() and formatlist() verbs: %s %d %v %q %f %t and %% (width/flags are dropped).
std::optional<TfVal> Format(const std::vector<TfVal>& args, SourceRange at, CallCost* cost) {
  if (args.empty() || !args[0].known()) return Unknown(at);
  const std::string& fmt = args[0].text;
  std::string out, shape;
  bool known = true;
  size_t next = 1;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%' || i + 1 == fmt.size()) {
      out += fmt[i];
      shape += fmt[i];
      continue;
    }
    size_t j = i + 1;
    while (j < fmt.size() && std::string_view("+- #0123456789.").find(fmt[j]) != std::string_view::npos) ++j;
    if (j == fmt.size()) break;
    char verb = fmt[j];
    i = j;
    if (verb == '%') {
      out += '%';
      shape += '%';
      continue;
    }
    if (next >= args.size()) return MakeError(at, "format: too few arguments");
    const TfVal& x = args[next++];
    if (x.error) return MakeError(at, "format: an argument failed");
    if (!x.known()) {
      known = false;
      shape += kHole;
      continue;
    }
    std::string piece = x.text;
    if (verb == 'q') piece = "\"" + piece + "\"";
    if (verb == 'd') {
      if (auto d = Num(x)) piece = NumText(std::trunc(*d));
    }
    out += piece;
    shape += piece;
    if (out.size() > kMaxValueBytes || shape.size() > kMaxValueBytes) {
      cost->too_large = true;
      return Unknown(at);
    }
  }
  if (!known) {
    TfVal v = Unknown(at);
    v.shape = shape;
    return v;
  }
  return MakeKnown(K::kStr, out, at);
}

}  // namespace

TfVal MakeKnown(TfVal::Kind kind, std::string text, SourceRange r, std::string origin) {
  TfVal v;
  v.kind = kind;
  v.text = std::move(text);
  v.range = r;
  v.origin = std::move(origin);
  return v;
}

TfVal MakeNull(SourceRange r) {
  TfVal v;
  v.kind = K::kNull;
  v.range = r;
  return v;
}

TfVal MakeError(SourceRange r, std::string why) {
  TfVal v;
  v.range = r;
  v.error = true;
  v.origin = std::move(why);
  return v;
}

std::string NumText(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", d);
  return buf;
}

std::optional<bool> Equal(const TfVal& a, const TfVal& b) {
  if (a.is_null() || b.is_null()) {
    if (a.is_null() && b.is_null()) return true;
    const TfVal& other = a.is_null() ? b : a;
    if (other.known() || other.kind == K::kList || other.kind == K::kMap) return false;
    return std::nullopt;
  }
  if (a.known() && b.known()) {
    if (a.kind == K::kNum || b.kind == K::kNum) {
      auto x = Num(a), y = Num(b);
      if (x && y) return *x == *y;
    }
    return a.text == b.text;
  }
  if (a.kind == K::kList && b.kind == K::kList) {
    if (a.items.size() != b.items.size())
      return a.FullyKnown() && b.FullyKnown() ? std::optional<bool>(false) : std::nullopt;
    bool all = true;
    for (size_t i = 0; i < a.items.size(); ++i) {
      auto e = Equal(a.items[i], b.items[i]);
      if (!e) return std::nullopt;
      all = all && *e;
    }
    return all;
  }
  if (a.kind == K::kMap && b.kind == K::kMap) {
    if (a.dynamic || b.dynamic) return std::nullopt;
    if (a.fields.size() != b.fields.size())
      return a.FullyKnown() && b.FullyKnown() ? std::optional<bool>(false) : std::nullopt;
    bool all = true;
    for (const auto& [k, v] : a.fields) {
      const TfVal* w = b.Get(k);
      if (!w) return false;
      auto e = Equal(v, *w);
      if (!e) return std::nullopt;
      all = all && *e;
    }
    return all;
  }
  // A collection against a scalar: different types.
  bool ac = a.kind == K::kList || a.kind == K::kMap, bc = b.kind == K::kList || b.kind == K::kMap;
  if ((ac && b.known()) || (bc && a.known())) return false;
  return std::nullopt;
}

std::optional<std::vector<std::pair<TfVal, TfVal>>> Elements(const TfVal& c) {
  std::vector<std::pair<TfVal, TfVal>> out;
  if (c.kind == K::kList) {
    for (size_t i = 0; i < c.items.size(); ++i) {
      out.emplace_back(MakeKnown(K::kNum, std::to_string(i), c.items[i].range), c.items[i]);
    }
    return out;
  }
  if (c.kind == K::kMap && !c.dynamic) {
    std::vector<const TfVal::Field*> sorted;
    for (const auto& f : c.fields) sorted.push_back(&f);
    std::stable_sort(sorted.begin(), sorted.end(), [](auto* x, auto* y) { return x->first < y->first; });
    for (const TfVal::Field* f : sorted) out.emplace_back(MakeKnown(K::kStr, f->first, f->second.range), f->second);
    return out;
  }
  return std::nullopt;
}

TfVal Rehome(TfVal v, SourceRange at) {
  v.range = at;
  for (TfVal& i : v.items) i = Rehome(std::move(i), at);
  for (auto& f : v.fields) f.second = Rehome(std::move(f.second), at);
  return v;
}

namespace {

// A string a call builds piece by piece: false (and the call's result
// unknown) once it passes one value's limit, before it grows further.
bool Fits(const std::string& s, CallCost* cost) {
  if (s.size() <= kMaxValueBytes) return true;
  cost->too_large = true;
  return false;
}

std::optional<TfVal> Builtin(std::string_view name, const std::vector<TfVal>& args, SourceRange at, CallCost* cost) {
  auto arg = [&](size_t i) -> const TfVal* { return i < args.size() ? &args[i] : nullptr; };
  auto num = [&](size_t i) -> std::optional<double> { return i < args.size() ? Num(args[i]) : std::nullopt; };
  auto at_range = [&](TfVal v) {
    v.range = at;
    return v;
  };
  if (name == "try") {
    for (const TfVal& a : args) {
      if (a.error) continue;
      return a;
    }
    return MakeError(at, "try: every argument failed");
  }
  if (name == "can") {
    if (!arg(0)) return Unknown(at);
    if (arg(0)->error) return MakeKnown(K::kBool, "false", at);
    if (arg(0)->kind == K::kUnknown || arg(0)->kind == K::kCond) return Unknown(at);
    return MakeKnown(K::kBool, "true", at);
  }
  for (const TfVal& a : args) {
    if (a.error) return MakeError(at, std::string(name) + ": an argument failed");
  }
  if (name == "coalesce") {
    for (const TfVal& a : args) {
      if (a.is_null() || (a.known() && a.kind == K::kStr && a.text.empty())) continue;
      return a;
    }
    return MakeError(at, "coalesce: no non-null argument");
  }
  if (name == "coalescelist") {
    for (const TfVal& a : args) {
      if (a.kind == K::kList && a.items.empty()) continue;
      if (a.kind == K::kList) return a;
      return Unknown(at);
    }
    return MakeError(at, "coalescelist: no non-empty list");
  }
  if (name == "tostring" || name == "tonumber" || name == "tobool") {
    if (!arg(0)) return Unknown(at);
    TfVal v = *arg(0);
    if (v.is_null() || !v.known()) return v;
    double d;
    if (name == "tonumber") {
      if (!IsNumber(v.text, &d)) return MakeError(at, "tonumber: not a number");
      v.kind = K::kNum;
    } else if (name == "tobool") {
      if (v.text != "true" && v.text != "false") return MakeError(at, "tobool: not a boolean");
      v.kind = K::kBool;
    } else {
      v.kind = K::kStr;
    }
    return v;
  }
  if (name == "tolist" || name == "tomap" || name == "jsonencode" || name == "sensitive" || name == "nonsensitive" ||
      name == "type") {
    return arg(0) ? std::optional<TfVal>(*arg(0)) : std::nullopt;
  }
  if (name == "toset" || name == "distinct") {
    if (!arg(0) || arg(0)->kind != K::kList)
      return arg(0) && !arg(0)->FullyKnown() ? Unknown(at) : std::optional<TfVal>();
    std::vector<TfVal> out;
    for (const TfVal& i : arg(0)->items) {
      bool dup = false;
      for (const TfVal& o : out) {
        auto e = Equal(i, o);
        if (!e) return Unknown(at);
        dup = dup || *e;
      }
      cost->work += static_cast<long>(out.size());  // the comparisons above
      if (!dup) out.push_back(i);
    }
    // Sets of strings iterate in lexical order.
    if (name == "toset" && std::all_of(out.begin(), out.end(), [](const TfVal& x) { return x.known(); })) {
      std::stable_sort(out.begin(), out.end(), [](const TfVal& x, const TfVal& y) { return x.text < y.text; });
    }
    return at_range(List(std::move(out), at));
  }
  if (name == "length") {
    if (!arg(0)) return Unknown(at);
    const TfVal& a = *arg(0);
    if (a.kind == K::kList) return MakeKnown(K::kNum, std::to_string(a.items.size()), at);
    if (a.kind == K::kMap && !a.dynamic) return MakeKnown(K::kNum, std::to_string(a.fields.size()), at);
    if (a.known()) return MakeKnown(K::kNum, std::to_string(Utf8Length(a.text)), at);
    if (a.is_null()) return MakeError(at, "length of null");
    return Unknown(at);
  }
  if (name == "contains") {
    if (!arg(0) || !arg(1) || arg(0)->kind != K::kList) return Unknown(at);
    bool unknown = false;
    for (const TfVal& i : arg(0)->items) {
      auto e = Equal(i, *arg(1));
      if (e && *e) return MakeKnown(K::kBool, "true", at);
      if (!e) unknown = true;
    }
    return unknown ? Unknown(at) : MakeKnown(K::kBool, "false", at);
  }
  if (name == "keys" || name == "values") {
    if (!arg(0)) return Unknown(at);
    auto els = Elements(*arg(0));
    if (!els || arg(0)->kind != K::kMap) return Unknown(at);
    std::vector<TfVal> out;
    for (auto& [k, v] : *els) out.push_back(name == "keys" ? k : v);
    return List(std::move(out), at);
  }
  if (name == "one") {
    if (!arg(0)) return Unknown(at);
    if (arg(0)->is_null()) return MakeNull(at);
    if (arg(0)->kind != K::kList) return Unknown(at);
    if (arg(0)->items.empty()) return MakeNull(at);
    if (arg(0)->items.size() == 1) return arg(0)->items[0];
    return MakeError(at, "one: more than one element");
  }
  if (name == "lookup") {
    if (!arg(0) || !arg(1)) return Unknown(at);
    if (arg(0)->kind != K::kMap || !arg(1)->known()) return Unknown(at);
    if (const TfVal* x = arg(0)->Get(arg(1)->text)) return *x;
    if (arg(0)->dynamic) return Unknown(at);
    if (arg(2)) return *arg(2);
    return MakeError(at, "lookup: no such key");
  }
  if (name == "element") {
    if (!arg(0) || !arg(1) || arg(0)->kind != K::kList) return Unknown(at);
    auto i = Num(*arg(1));
    if (!i || arg(0)->items.empty())
      return arg(0)->items.empty() ? MakeError(at, "element of an empty list") : Unknown(at);
    return arg(0)->items[static_cast<size_t>(std::fabs(*i)) % arg(0)->items.size()];
  }
  if (name == "concat") {
    std::vector<TfVal> out;
    for (const TfVal& a : args) {
      if (a.kind != K::kList) return Unknown(at);
      out.insert(out.end(), a.items.begin(), a.items.end());
    }
    return List(std::move(out), at);
  }
  if (name == "flatten") {
    if (!arg(0) || arg(0)->kind != K::kList) return Unknown(at);
    std::vector<TfVal> out;
    std::function<bool(const TfVal&, int)> flat = [&](const TfVal& l, int depth) {
      if (depth > 32) return false;
      for (const TfVal& i : l.items) {
        if (i.kind == K::kList) {
          if (!flat(i, depth + 1)) return false;
        } else if (i.kind == K::kUnknown || i.kind == K::kCond) {
          return false;
        } else {
          out.push_back(i);
        }
      }
      return true;
    };
    if (!flat(*arg(0), 0)) return Unknown(at);
    return List(std::move(out), at);
  }
  if (name == "compact") {
    if (!arg(0) || arg(0)->kind != K::kList) return Unknown(at);
    std::vector<TfVal> out;
    for (const TfVal& i : arg(0)->items) {
      if (i.is_null() || (i.known() && i.text.empty())) continue;
      if (!i.known()) return Unknown(at);
      out.push_back(i);
    }
    return List(std::move(out), at);
  }
  if (name == "merge") {
    TfVal v;
    v.kind = K::kMap;
    v.range = at;
    for (const TfVal& m : args) {
      if (m.is_null()) continue;
      if (m.kind != K::kMap) return Unknown(at);
      for (const auto& kv : m.fields) {
        auto it = std::find_if(v.fields.begin(), v.fields.end(), [&](const auto& x) { return x.first == kv.first; });
        if (it != v.fields.end())
          it->second = kv.second;
        else
          v.fields.push_back(kv);
      }
      v.AddDynamic(m);
    }
    return v;
  }
  if (name == "zipmap") {
    if (!arg(0) || !arg(1) || arg(0)->kind != K::kList || arg(1)->kind != K::kList ||
        arg(0)->items.size() != arg(1)->items.size()) {
      return Unknown(at);
    }
    TfVal v;
    v.kind = K::kMap;
    v.range = at;
    for (size_t i = 0; i < arg(0)->items.size(); ++i) {
      if (!arg(0)->items[i].known()) return Unknown(at);
      v.fields.emplace_back(arg(0)->items[i].text, arg(1)->items[i]);
    }
    return v;
  }
  if (name == "reverse" || name == "sort") {
    if (!arg(0) || arg(0)->kind != K::kList) return Unknown(at);
    std::vector<TfVal> out = arg(0)->items;
    if (name == "reverse") {
      std::reverse(out.begin(), out.end());
    } else {
      if (!std::all_of(out.begin(), out.end(), [](const TfVal& x) { return x.known(); })) return Unknown(at);
      std::stable_sort(out.begin(), out.end(), [](const TfVal& x, const TfVal& y) { return x.text < y.text; });
    }
    return List(std::move(out), at);
  }
  if (name == "slice") {
    std::optional<double> a = num(1), b = num(2);
    if (!arg(0) || arg(0)->kind != K::kList || !a || !b || *a < 0 || *b < *a ||
        *b > static_cast<double>(arg(0)->items.size())) {
      return Unknown(at);
    }
    return List(std::vector<TfVal>(arg(0)->items.begin() + static_cast<long>(*a),
                                   arg(0)->items.begin() + static_cast<long>(*b)),
                at);
  }
  if (name == "range") {
    std::optional<double> a = num(0), b = num(1);
    if (!a) return Unknown(at);
    double start = b ? *a : 0, end = b ? *b : *a, step = arg(2) ? Num(*arg(2)).value_or(0) : 1;
    if (step == 0 || std::fabs((end - start) / step) > 1024) return Unknown(at);
    std::vector<TfVal> out;
    for (double x = start; step > 0 ? x < end : x > end; x += step) out.push_back(MakeKnown(K::kNum, NumText(x), at));
    return List(std::move(out), at);
  }
  if (name == "alltrue" || name == "anytrue") {
    if (!arg(0) || arg(0)->kind != K::kList) return Unknown(at);
    bool all = name == "alltrue";
    bool unknown = false;
    for (const TfVal& i : arg(0)->items) {
      if (!i.known()) {
        unknown = true;
        continue;
      }
      bool t = i.text == "true";
      if (all && !t) return MakeKnown(K::kBool, "false", at);
      if (!all && t) return MakeKnown(K::kBool, "true", at);
    }
    if (unknown) return Unknown(at);
    return MakeKnown(K::kBool, all ? "true" : "false", at);
  }
  if (name == "sum" || name == "min" || name == "max") {
    std::vector<TfVal> items = name == "sum" && arg(0) && arg(0)->kind == K::kList ? arg(0)->items : args;
    if (items.empty()) return Unknown(at);
    double acc = name == "sum" ? 0 : Num(items[0]).value_or(0);
    for (const TfVal& i : items) {
      auto d = Num(i);
      if (!d) return Unknown(at);
      acc = name == "sum" ? acc + *d : name == "min" ? std::min(acc, *d) : std::max(acc, *d);
    }
    return MakeKnown(K::kNum, NumText(acc), at);
  }
  if (name == "abs" || name == "ceil" || name == "floor") {
    auto d = arg(0) ? Num(*arg(0)) : std::nullopt;
    if (!d) return Unknown(at);
    double r = name == "abs" ? std::fabs(*d) : name == "ceil" ? std::ceil(*d) : std::floor(*d);
    return MakeKnown(K::kNum, NumText(r), at);
  }
  if (name == "format") return Format(args, at, cost);
  if (name == "formatlist") {
    // Only the form whose arguments are all scalars (a list of one).
    for (size_t i = 1; i < args.size(); ++i) {
      if (args[i].kind == K::kList) return Unknown(at);
    }
    auto one = Format(args, at, cost);
    if (!one) return Unknown(at);
    return List({*one}, at);
  }
  // String functions over known texts.
  const std::string* s0 = Text(arg(0));
  if (name == "join") {
    if (!s0 || !arg(1) || arg(1)->kind != K::kList) return Unknown(at);
    std::string out, shape;
    bool known = true;
    for (size_t i = 0; i < arg(1)->items.size(); ++i) {
      const TfVal& x = arg(1)->items[i];
      if (i) {
        out += *s0;
        shape += *s0;
      }
      if (x.known()) {
        out += x.text;
        shape += x.text;
      } else {
        known = false;
        shape += kHole;
      }
      if (!Fits(out, cost) || !Fits(shape, cost)) return Unknown(at);
    }
    if (!known) {
      TfVal v = Unknown(at);
      v.shape = shape;
      return v;
    }
    return MakeKnown(K::kStr, out, at);
  }
  if (name == "split") {
    const std::string* s1 = Text(arg(1));
    if (!s0 || !s1 || s0->empty()) return Unknown(at);
    std::vector<TfVal> out;
    size_t pos = 0;
    while (true) {
      size_t next = s1->find(*s0, pos);
      out.push_back(
          MakeKnown(K::kStr, s1->substr(pos, next == std::string::npos ? std::string::npos : next - pos), at));
      if (out.size() > kMaxValueNodes) {
        cost->too_large = true;
        return Unknown(at);
      }
      if (next == std::string::npos) break;
      pos = next + s0->size();
    }
    return List(std::move(out), at);
  }
  if (!s0) return std::nullopt;
  if (name == "lower" || name == "upper") {
    std::string out = *s0;
    for (char& c : out)
      c = static_cast<char>(name == "lower" ? std::tolower(static_cast<unsigned char>(c))
                                            : std::toupper(static_cast<unsigned char>(c)));
    return MakeKnown(K::kStr, out, at);
  }
  if (name == "trimspace") {
    size_t a = s0->find_first_not_of(" \t\n\r"), b = s0->find_last_not_of(" \t\n\r");
    return MakeKnown(K::kStr, a == std::string::npos ? "" : s0->substr(a, b - a + 1), at);
  }
  if (name == "trimprefix" || name == "trimsuffix") {
    const std::string* s1 = Text(arg(1));
    if (!s1) return Unknown(at);
    std::string out = *s0;
    if (name == "trimprefix" && out.rfind(*s1, 0) == 0) out.erase(0, s1->size());
    if (name == "trimsuffix" && out.size() >= s1->size() &&
        out.compare(out.size() - s1->size(), s1->size(), *s1) == 0) {
      out.erase(out.size() - s1->size());
    }
    return MakeKnown(K::kStr, out, at);
  }
  if (name == "startswith" || name == "endswith") {
    const std::string* s1 = Text(arg(1));
    if (!s1) return Unknown(at);
    bool r = name == "startswith"
                 ? s0->rfind(*s1, 0) == 0
                 : s0->size() >= s1->size() && s0->compare(s0->size() - s1->size(), s1->size(), *s1) == 0;
    return MakeKnown(K::kBool, r ? "true" : "false", at);
  }
  if (name == "replace") {
    const std::string* s1 = Text(arg(1));
    const std::string* s2 = Text(arg(2));
    // A /regular expression/ is not evaluated.
    if (!s1 || !s2 || s1->empty() || (s1->size() > 1 && s1->front() == '/' && s1->back() == '/')) return Unknown(at);
    std::string out;
    size_t pos = 0;
    while (true) {
      size_t next = s0->find(*s1, pos);
      out += s0->substr(pos, next == std::string::npos ? std::string::npos : next - pos);
      if (next == std::string::npos) break;
      out += *s2;
      if (!Fits(out, cost)) return Unknown(at);
      pos = next + s1->size();
    }
    return MakeKnown(K::kStr, out, at);
  }
  if (name == "substr") {
    std::optional<double> off = num(1), len = num(2);
    bool ascii = std::all_of(s0->begin(), s0->end(), [](unsigned char c) { return c < 0x80; });
    if (!off || !len || !ascii || *off < 0 || *off > static_cast<double>(s0->size())) return Unknown(at);
    size_t n = *len < 0 ? std::string::npos : static_cast<size_t>(*len);
    return MakeKnown(K::kStr, s0->substr(static_cast<size_t>(*off), n), at);
  }
  if (name == "base64encode") return MakeKnown(K::kStr, Base64Encode(*s0), at, arg(0)->origin);
  if (name == "base64decode") {
    bool ok = false;
    std::string d = Base64Decode(*s0, &ok);
    if (!ok) return MakeError(at, "base64decode: not base64");
    return MakeKnown(K::kStr, d, at);
  }
  return std::nullopt;
}

}  // namespace

ValueSize SizeOf(const TfVal& v, size_t limit) {
  ValueSize s;
  std::vector<const TfVal*> stack{&v};
  while (!stack.empty() && s.nodes <= limit) {
    const TfVal* x = stack.back();
    stack.pop_back();
    ++s.nodes;
    s.bytes += x->text.size() + x->link.size() + x->shape.size() + x->condition.size();
    for (const TfVal& i : x->items) stack.push_back(&i);
    for (const auto& f : x->fields) stack.push_back(&f.second);
  }
  return s;
}

std::optional<TfVal> CallBuiltin(std::string_view name, const std::vector<TfVal>& args, SourceRange at,
                                 CallCost* cost) {
  std::optional<TfVal> r = Builtin(name, args, at, cost);
  if (cost->too_large) return Unknown(at);
  // A result made of its arguments' parts (concat, flatten, merge, a
  // conversion) is measured whole.
  if (r && Oversized(SizeOf(*r, kMaxValueNodes))) {
    cost->too_large = true;
    return Unknown(at);
  }
  return r;
}

}  // namespace sagelint::tf
