#include "parsers/terraform/functions.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
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
std::optional<TfVal> FormatVerbs(const std::vector<TfVal>& args, SourceRange at, CallCost* cost) {
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

// One call of a built-in: its name (one body serves several names), its
// arguments and where it is written.
struct BuiltinCall {
  std::string_view name;
  const std::vector<TfVal>& args;
  SourceRange at;
  CallCost* cost;
  const TfVal* arg(size_t i) const { return i < args.size() ? &args[i] : nullptr; }
  std::optional<double> num(size_t i) const { return i < args.size() ? Num(args[i]) : std::nullopt; }
};

using BuiltinBody = std::optional<TfVal> (*)(const BuiltinCall&);

// ---- failures --------------------------------------------------------------

std::optional<TfVal> FnTry(const BuiltinCall& c) {
  for (const TfVal& a : c.args) {
    if (a.error) continue;
    return a;
  }
  return MakeError(c.at, "try: every argument failed");
}

std::optional<TfVal> FnCan(const BuiltinCall& c) {
  if (c.arg(0)->error) return MakeKnown(K::kBool, "false", c.at);
  if (c.arg(0)->kind == K::kUnknown || c.arg(0)->kind == K::kCond) return Unknown(c.at);
  return MakeKnown(K::kBool, "true", c.at);
}

// ---- conversions -----------------------------------------------------------

std::optional<TfVal> FnCoalesce(const BuiltinCall& c) {
  for (const TfVal& a : c.args) {
    if (a.is_null() || (a.known() && a.kind == K::kStr && a.text.empty())) continue;
    return a;
  }
  return MakeError(c.at, "coalesce: no non-null argument");
}

std::optional<TfVal> FnCoalesceList(const BuiltinCall& c) {
  for (const TfVal& a : c.args) {
    if (a.kind == K::kList && a.items.empty()) continue;
    if (a.kind == K::kList) return a;
    return Unknown(c.at);
  }
  return MakeError(c.at, "coalescelist: no non-empty list");
}

// tostring, tonumber, tobool.
std::optional<TfVal> FnToPrimitive(const BuiltinCall& c) {
  TfVal v = *c.arg(0);
  if (v.is_null() || !v.known()) return v;
  double d;
  if (c.name == "tonumber") {
    if (!IsNumber(v.text, &d)) return MakeError(c.at, "tonumber: not a number");
    v.kind = K::kNum;
  } else if (c.name == "tobool") {
    if (v.text != "true" && v.text != "false") return MakeError(c.at, "tobool: not a boolean");
    v.kind = K::kBool;
  } else {
    v.kind = K::kStr;
  }
  return v;
}

// Conversions and markings that leave the value as it is (tolist, tomap,
// jsonencode, sensitive, nonsensitive, type).
std::optional<TfVal> FnSameValue(const BuiltinCall& c) {
  return c.arg(0) ? std::optional<TfVal>(*c.arg(0)) : std::nullopt;
}

// toset, distinct.
std::optional<TfVal> FnDistinct(const BuiltinCall& c) {
  if (!c.arg(0) || c.arg(0)->kind != K::kList)
    return c.arg(0) && !c.arg(0)->FullyKnown() ? Unknown(c.at) : std::optional<TfVal>();
  std::vector<TfVal> out;
  for (const TfVal& i : c.arg(0)->items) {
    bool dup = false;
    for (const TfVal& o : out) {
      auto e = Equal(i, o);
      if (!e) return Unknown(c.at);
      dup = dup || *e;
    }
    c.cost->work += static_cast<long>(out.size());  // the comparisons above
    if (!dup) out.push_back(i);
  }
  // Sets of strings iterate in lexical order.
  if (c.name == "toset" && std::all_of(out.begin(), out.end(), [](const TfVal& x) { return x.known(); })) {
    std::stable_sort(out.begin(), out.end(), [](const TfVal& x, const TfVal& y) { return x.text < y.text; });
  }
  TfVal v = List(std::move(out), c.at);
  v.range = c.at;
  return v;
}

// ---- collections -----------------------------------------------------------

std::optional<TfVal> FnLength(const BuiltinCall& c) {
  const TfVal& a = *c.arg(0);
  if (a.kind == K::kList) return MakeKnown(K::kNum, std::to_string(a.items.size()), c.at);
  if (a.kind == K::kMap && !a.dynamic) return MakeKnown(K::kNum, std::to_string(a.fields.size()), c.at);
  if (a.known()) return MakeKnown(K::kNum, std::to_string(Utf8Length(a.text)), c.at);
  if (a.is_null()) return MakeError(c.at, "length of null");
  return Unknown(c.at);
}

std::optional<TfVal> FnContains(const BuiltinCall& c) {
  if (c.arg(0)->kind != K::kList) return Unknown(c.at);
  bool unknown = false;
  for (const TfVal& i : c.arg(0)->items) {
    auto e = Equal(i, *c.arg(1));
    if (e && *e) return MakeKnown(K::kBool, "true", c.at);
    if (!e) unknown = true;
  }
  return unknown ? Unknown(c.at) : MakeKnown(K::kBool, "false", c.at);
}

// keys, values.
std::optional<TfVal> FnKeysOrValues(const BuiltinCall& c) {
  auto els = Elements(*c.arg(0));
  if (!els || c.arg(0)->kind != K::kMap) return Unknown(c.at);
  std::vector<TfVal> out;
  for (auto& [k, v] : *els) out.push_back(c.name == "keys" ? k : v);
  return List(std::move(out), c.at);
}

std::optional<TfVal> FnOne(const BuiltinCall& c) {
  const TfVal& a = *c.arg(0);
  if (a.is_null()) return MakeNull(c.at);
  if (a.kind != K::kList) return Unknown(c.at);
  if (a.items.empty()) return MakeNull(c.at);
  if (a.items.size() == 1) return a.items[0];
  return MakeError(c.at, "one: more than one element");
}

std::optional<TfVal> FnLookup(const BuiltinCall& c) {
  if (c.arg(0)->kind != K::kMap || !c.arg(1)->known()) return Unknown(c.at);
  if (const TfVal* x = c.arg(0)->Get(c.arg(1)->text)) return *x;
  if (c.arg(0)->dynamic) return Unknown(c.at);
  if (c.arg(2)) return *c.arg(2);
  return MakeError(c.at, "lookup: no such key");
}

std::optional<TfVal> FnElement(const BuiltinCall& c) {
  const TfVal& list = *c.arg(0);
  if (list.kind != K::kList) return Unknown(c.at);
  auto i = Num(*c.arg(1));
  if (!i || list.items.empty()) return list.items.empty() ? MakeError(c.at, "element of an empty list") : Unknown(c.at);
  return list.items[static_cast<size_t>(std::fabs(*i)) % list.items.size()];
}

std::optional<TfVal> FnConcat(const BuiltinCall& c) {
  std::vector<TfVal> out;
  for (const TfVal& a : c.args) {
    if (a.kind != K::kList) return Unknown(c.at);
    out.insert(out.end(), a.items.begin(), a.items.end());
  }
  return List(std::move(out), c.at);
}

// The elements of nested lists, in order; false when one is not known.
bool Flatten(const TfVal& l, int depth, std::vector<TfVal>* out) {
  if (depth > 32) return false;
  for (const TfVal& i : l.items) {
    if (i.kind == K::kList) {
      if (!Flatten(i, depth + 1, out)) return false;
    } else if (i.kind == K::kUnknown || i.kind == K::kCond) {
      return false;
    } else {
      out->push_back(i);
    }
  }
  return true;
}

std::optional<TfVal> FnFlatten(const BuiltinCall& c) {
  if (c.arg(0)->kind != K::kList) return Unknown(c.at);
  std::vector<TfVal> out;
  if (!Flatten(*c.arg(0), 0, &out)) return Unknown(c.at);
  return List(std::move(out), c.at);
}

std::optional<TfVal> FnCompact(const BuiltinCall& c) {
  if (c.arg(0)->kind != K::kList) return Unknown(c.at);
  std::vector<TfVal> out;
  for (const TfVal& i : c.arg(0)->items) {
    if (i.is_null() || (i.known() && i.text.empty())) continue;
    if (!i.known()) return Unknown(c.at);
    out.push_back(i);
  }
  return List(std::move(out), c.at);
}

std::optional<TfVal> FnMerge(const BuiltinCall& c) {
  TfVal v;
  v.kind = K::kMap;
  v.range = c.at;
  for (const TfVal& m : c.args) {
    if (m.is_null()) continue;
    if (m.kind != K::kMap) return Unknown(c.at);
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

std::optional<TfVal> FnZipmap(const BuiltinCall& c) {
  const TfVal &keys = *c.arg(0), &values = *c.arg(1);
  if (keys.kind != K::kList || values.kind != K::kList || keys.items.size() != values.items.size()) {
    return Unknown(c.at);
  }
  TfVal v;
  v.kind = K::kMap;
  v.range = c.at;
  for (size_t i = 0; i < keys.items.size(); ++i) {
    if (!keys.items[i].known()) return Unknown(c.at);
    v.fields.emplace_back(keys.items[i].text, values.items[i]);
  }
  return v;
}

// reverse, sort.
std::optional<TfVal> FnReorder(const BuiltinCall& c) {
  if (c.arg(0)->kind != K::kList) return Unknown(c.at);
  std::vector<TfVal> out = c.arg(0)->items;
  if (c.name == "reverse") {
    std::reverse(out.begin(), out.end());
  } else {
    if (!std::all_of(out.begin(), out.end(), [](const TfVal& x) { return x.known(); })) return Unknown(c.at);
    std::stable_sort(out.begin(), out.end(), [](const TfVal& x, const TfVal& y) { return x.text < y.text; });
  }
  return List(std::move(out), c.at);
}

std::optional<TfVal> FnSlice(const BuiltinCall& c) {
  std::optional<double> a = c.num(1), b = c.num(2);
  const TfVal& list = *c.arg(0);
  if (list.kind != K::kList || !a || !b || *a < 0 || *b < *a || *b > static_cast<double>(list.items.size())) {
    return Unknown(c.at);
  }
  return List(
      std::vector<TfVal>(list.items.begin() + static_cast<long>(*a), list.items.begin() + static_cast<long>(*b)), c.at);
}

std::optional<TfVal> FnRange(const BuiltinCall& c) {
  std::optional<double> a = c.num(0), b = c.num(1);
  if (!a) return Unknown(c.at);
  double start = b ? *a : 0, end = b ? *b : *a, step = c.arg(2) ? Num(*c.arg(2)).value_or(0) : 1;
  if (step == 0 || std::fabs((end - start) / step) > 1024) return Unknown(c.at);
  std::vector<TfVal> out;
  for (double x = start; step > 0 ? x < end : x > end; x += step) out.push_back(MakeKnown(K::kNum, NumText(x), c.at));
  return List(std::move(out), c.at);
}

// alltrue, anytrue.
std::optional<TfVal> FnAllOrAnyTrue(const BuiltinCall& c) {
  if (c.arg(0)->kind != K::kList) return Unknown(c.at);
  bool all = c.name == "alltrue";
  bool unknown = false;
  for (const TfVal& i : c.arg(0)->items) {
    if (!i.known()) {
      unknown = true;
      continue;
    }
    bool t = i.text == "true";
    if (all && !t) return MakeKnown(K::kBool, "false", c.at);
    if (!all && t) return MakeKnown(K::kBool, "true", c.at);
  }
  if (unknown) return Unknown(c.at);
  return MakeKnown(K::kBool, all ? "true" : "false", c.at);
}

// ---- numbers ---------------------------------------------------------------

// sum (of a list), min, max (of the arguments).
std::optional<TfVal> FnAggregate(const BuiltinCall& c) {
  std::string_view name = c.name;
  std::vector<TfVal> items = name == "sum" && c.arg(0) && c.arg(0)->kind == K::kList ? c.arg(0)->items : c.args;
  if (items.empty()) return Unknown(c.at);
  double acc = name == "sum" ? 0 : Num(items[0]).value_or(0);
  for (const TfVal& i : items) {
    auto d = Num(i);
    if (!d) return Unknown(c.at);
    acc = name == "sum" ? acc + *d : name == "min" ? std::min(acc, *d) : std::max(acc, *d);
  }
  return MakeKnown(K::kNum, NumText(acc), c.at);
}

// abs, ceil, floor.
std::optional<TfVal> FnRound(const BuiltinCall& c) {
  auto d = Num(*c.arg(0));
  if (!d) return Unknown(c.at);
  double r = c.name == "abs" ? std::fabs(*d) : c.name == "ceil" ? std::ceil(*d) : std::floor(*d);
  return MakeKnown(K::kNum, NumText(r), c.at);
}

// ---- strings ---------------------------------------------------------------

std::optional<TfVal> FnFormat(const BuiltinCall& c) { return FormatVerbs(c.args, c.at, c.cost); }

std::optional<TfVal> FnFormatList(const BuiltinCall& c) {
  // Only the form whose arguments are all scalars (a list of one).
  for (size_t i = 1; i < c.args.size(); ++i) {
    if (c.args[i].kind == K::kList) return Unknown(c.at);
  }
  auto one = FormatVerbs(c.args, c.at, c.cost);
  if (!one) return Unknown(c.at);
  return List({*one}, c.at);
}

std::optional<TfVal> FnJoin(const BuiltinCall& c) {
  const std::string* sep = Text(c.arg(0));
  if (!sep || c.arg(1)->kind != K::kList) return Unknown(c.at);
  std::string out, shape;
  bool known = true;
  for (size_t i = 0; i < c.arg(1)->items.size(); ++i) {
    const TfVal& x = c.arg(1)->items[i];
    if (i) {
      out += *sep;
      shape += *sep;
    }
    if (x.known()) {
      out += x.text;
      shape += x.text;
    } else {
      known = false;
      shape += kHole;
    }
    if (!Fits(out, c.cost) || !Fits(shape, c.cost)) return Unknown(c.at);
  }
  if (!known) {
    TfVal v = Unknown(c.at);
    v.shape = shape;
    return v;
  }
  return MakeKnown(K::kStr, out, c.at);
}

std::optional<TfVal> FnSplit(const BuiltinCall& c) {
  const std::string *sep = Text(c.arg(0)), *s = Text(c.arg(1));
  if (!sep || !s || sep->empty()) return Unknown(c.at);
  std::vector<TfVal> out;
  size_t pos = 0;
  while (true) {
    size_t next = s->find(*sep, pos);
    out.push_back(MakeKnown(K::kStr, s->substr(pos, next == std::string::npos ? std::string::npos : next - pos), c.at));
    if (out.size() > kMaxValueNodes) {
      c.cost->too_large = true;
      return Unknown(c.at);
    }
    if (next == std::string::npos) break;
    pos = next + sep->size();
  }
  return List(std::move(out), c.at);
}

// The functions below are called only when their first argument has a known
// text (BuiltinRow::text); `S0` is that text.
const std::string& S0(const BuiltinCall& c) { return c.arg(0)->text; }

// lower, upper.
std::optional<TfVal> FnCase(const BuiltinCall& c) {
  std::string out = S0(c);
  for (char& ch : out)
    ch = static_cast<char>(c.name == "lower" ? std::tolower(static_cast<unsigned char>(ch))
                                             : std::toupper(static_cast<unsigned char>(ch)));
  return MakeKnown(K::kStr, out, c.at);
}

std::optional<TfVal> FnTrimSpace(const BuiltinCall& c) {
  const std::string& s = S0(c);
  size_t a = s.find_first_not_of(" \t\n\r"), b = s.find_last_not_of(" \t\n\r");
  return MakeKnown(K::kStr, a == std::string::npos ? "" : s.substr(a, b - a + 1), c.at);
}

// trimprefix, trimsuffix.
std::optional<TfVal> FnTrimAffix(const BuiltinCall& c) {
  const std::string* s1 = Text(c.arg(1));
  if (!s1) return Unknown(c.at);
  std::string out = S0(c);
  if (c.name == "trimprefix" && out.rfind(*s1, 0) == 0) out.erase(0, s1->size());
  if (c.name == "trimsuffix" && out.size() >= s1->size() &&
      out.compare(out.size() - s1->size(), s1->size(), *s1) == 0) {
    out.erase(out.size() - s1->size());
  }
  return MakeKnown(K::kStr, out, c.at);
}

// startswith, endswith.
std::optional<TfVal> FnHasAffix(const BuiltinCall& c) {
  const std::string& s = S0(c);
  const std::string* s1 = Text(c.arg(1));
  if (!s1) return Unknown(c.at);
  bool r = c.name == "startswith" ? s.rfind(*s1, 0) == 0
                                  : s.size() >= s1->size() && s.compare(s.size() - s1->size(), s1->size(), *s1) == 0;
  return MakeKnown(K::kBool, r ? "true" : "false", c.at);
}

std::optional<TfVal> FnReplace(const BuiltinCall& c) {
  const std::string& s = S0(c);
  const std::string* s1 = Text(c.arg(1));
  const std::string* s2 = Text(c.arg(2));
  // A /regular expression/ is not evaluated.
  if (!s1 || !s2 || s1->empty() || (s1->size() > 1 && s1->front() == '/' && s1->back() == '/')) return Unknown(c.at);
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t next = s.find(*s1, pos);
    out += s.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
    if (next == std::string::npos) break;
    out += *s2;
    if (!Fits(out, c.cost)) return Unknown(c.at);
    pos = next + s1->size();
  }
  return MakeKnown(K::kStr, out, c.at);
}

std::optional<TfVal> FnSubstr(const BuiltinCall& c) {
  const std::string& s = S0(c);
  std::optional<double> off = c.num(1), len = c.num(2);
  bool ascii = std::all_of(s.begin(), s.end(), [](unsigned char ch) { return ch < 0x80; });
  if (!off || !len || !ascii || *off < 0 || *off > static_cast<double>(s.size())) return Unknown(c.at);
  size_t n = *len < 0 ? std::string::npos : static_cast<size_t>(*len);
  return MakeKnown(K::kStr, s.substr(static_cast<size_t>(*off), n), c.at);
}

std::optional<TfVal> FnBase64Encode(const BuiltinCall& c) {
  return MakeKnown(K::kStr, Base64Encode(S0(c)), c.at, c.arg(0)->origin);
}

std::optional<TfVal> FnBase64Decode(const BuiltinCall& c) {
  bool ok = false;
  std::string d = Base64Decode(S0(c), &ok);
  if (!ok) return MakeError(c.at, "base64decode: not base64");
  return MakeKnown(K::kStr, d, c.at);
}

// ---- the table -------------------------------------------------------------

// One built-in function sagelint evaluates. Before its body runs: an
// argument that failed makes the call fail (unless `sees_failures`); a call
// whose first argument has no known text is not evaluated (when `text`); and
// fewer than `min_args` arguments make the result unknown.
struct BuiltinRow {
  std::string_view name;
  BuiltinBody body;
  size_t min_args = 0;
  bool text = false;
  bool sees_failures = false;
};

constexpr BuiltinRow kBuiltins[] = {
    {.name = "try", .body = FnTry, .sees_failures = true},
    {.name = "can", .body = FnCan, .min_args = 1, .sees_failures = true},
    // Conversions.
    {.name = "coalesce", .body = FnCoalesce},
    {.name = "coalescelist", .body = FnCoalesceList},
    {.name = "tostring", .body = FnToPrimitive, .min_args = 1},
    {.name = "tonumber", .body = FnToPrimitive, .min_args = 1},
    {.name = "tobool", .body = FnToPrimitive, .min_args = 1},
    {.name = "tolist", .body = FnSameValue},
    {.name = "tomap", .body = FnSameValue},
    {.name = "jsonencode", .body = FnSameValue},
    {.name = "sensitive", .body = FnSameValue},
    {.name = "nonsensitive", .body = FnSameValue},
    {.name = "type", .body = FnSameValue},
    {.name = "toset", .body = FnDistinct},
    {.name = "distinct", .body = FnDistinct},
    // Collections.
    {.name = "length", .body = FnLength, .min_args = 1},
    {.name = "contains", .body = FnContains, .min_args = 2},
    {.name = "keys", .body = FnKeysOrValues, .min_args = 1},
    {.name = "values", .body = FnKeysOrValues, .min_args = 1},
    {.name = "one", .body = FnOne, .min_args = 1},
    {.name = "lookup", .body = FnLookup, .min_args = 2},
    {.name = "element", .body = FnElement, .min_args = 2},
    {.name = "concat", .body = FnConcat},
    {.name = "flatten", .body = FnFlatten, .min_args = 1},
    {.name = "compact", .body = FnCompact, .min_args = 1},
    {.name = "merge", .body = FnMerge},
    {.name = "zipmap", .body = FnZipmap, .min_args = 2},
    {.name = "reverse", .body = FnReorder, .min_args = 1},
    {.name = "sort", .body = FnReorder, .min_args = 1},
    {.name = "slice", .body = FnSlice, .min_args = 3},
    {.name = "range", .body = FnRange, .min_args = 1},
    {.name = "alltrue", .body = FnAllOrAnyTrue, .min_args = 1},
    {.name = "anytrue", .body = FnAllOrAnyTrue, .min_args = 1},
    // Numbers.
    {.name = "sum", .body = FnAggregate, .min_args = 1},
    {.name = "min", .body = FnAggregate, .min_args = 1},
    {.name = "max", .body = FnAggregate, .min_args = 1},
    {.name = "abs", .body = FnRound, .min_args = 1},
    {.name = "ceil", .body = FnRound, .min_args = 1},
    {.name = "floor", .body = FnRound, .min_args = 1},
    // Strings.
    {.name = "format", .body = FnFormat},
    {.name = "formatlist", .body = FnFormatList},
    {.name = "join", .body = FnJoin, .min_args = 2},
    {.name = "split", .body = FnSplit, .min_args = 2},
    {.name = "lower", .body = FnCase, .text = true},
    {.name = "upper", .body = FnCase, .text = true},
    {.name = "trimspace", .body = FnTrimSpace, .text = true},
    {.name = "trimprefix", .body = FnTrimAffix, .min_args = 2, .text = true},
    {.name = "trimsuffix", .body = FnTrimAffix, .min_args = 2, .text = true},
    {.name = "startswith", .body = FnHasAffix, .min_args = 2, .text = true},
    {.name = "endswith", .body = FnHasAffix, .min_args = 2, .text = true},
    {.name = "replace", .body = FnReplace, .min_args = 3, .text = true},
    {.name = "substr", .body = FnSubstr, .min_args = 3, .text = true},
    {.name = "base64encode", .body = FnBase64Encode, .text = true},
    {.name = "base64decode", .body = FnBase64Decode, .text = true},
};

std::optional<TfVal> Builtin(std::string_view name, const std::vector<TfVal>& args, SourceRange at, CallCost* cost) {
  const auto* fn =
      std::find_if(std::begin(kBuiltins), std::end(kBuiltins), [&](const auto& b) { return b.name == name; });
  bool found = fn != std::end(kBuiltins);
  if (!found || !fn->sees_failures) {
    for (const TfVal& a : args) {
      if (a.error) return MakeError(at, std::string(name) + ": an argument failed");
    }
  }
  if (!found) return std::nullopt;
  if (fn->text && !Text(args.empty() ? nullptr : &args[0])) return std::nullopt;
  if (args.size() < fn->min_args) return Unknown(at);
  return fn->body(BuiltinCall{name, args, at, cost});
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
